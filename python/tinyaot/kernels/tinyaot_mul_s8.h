/*
 * tinyaot_mul_s8.h - int8 multiplication with broadcasting.
 *
 * Matches TFLM's reference_integer_ops::MulElementwise / BroadcastMul6DSlow:
 * out = requant((x - x_zp) * (y - y_zp)) + out_zp, clamped. The broadcast
 * table is as in tinyaot_add_s8.h: output dims[] and per-input strides
 * (0 where that input is broadcast), made at compile time.
 */
#ifndef TINYAOT_MUL_S8_H
#define TINYAOT_MUL_S8_H

#include "tinyaot_common.h"

#define TINYAOT_MUL_MAX_DIMS 6

struct tinyaot_mul_params {
    int32_t size;               /* output values */
    int32_t rank;               /* entries in dims/strides, 1..TINYAOT_MUL_MAX_DIMS */
    int32_t input1_offset;      /* -input 1 zero point */
    int32_t input2_offset;      /* -input 2 zero point */
    int32_t output_offset;      /* output zero point */
    int32_t output_multiplier;
    int32_t output_shift;       /* may be > 0: the product's scale can exceed the output's */
    int32_t act_min;
    int32_t act_max;
};

static inline int8_t tinyaot_mul_s8_one(const struct tinyaot_mul_params *p, int8_t x, int8_t y)
{
    /* |product| <= 255 * 255: no overflow before the rescale. */
    const int32_t prod = ((int32_t)x + p->input1_offset) * ((int32_t)y + p->input2_offset);
    const int32_t acc = tinyaot_requantize(prod, p->output_multiplier, p->output_shift) +
                        p->output_offset;
    return (int8_t)tinyaot_clamp_i32(acc, p->act_min, p->act_max);
}

static void tinyaot_mul_s8(const struct tinyaot_mul_params *p, const int32_t *dims,
                           const int32_t *strides1, const int32_t *strides2,
                           const int8_t *input1, const int8_t *input2, int8_t *output)
{
    int32_t index[TINYAOT_MUL_MAX_DIMS] = {0};
    const int32_t inner = dims[p->rank - 1];
    const int32_t s1 = strides1[p->rank - 1];
    const int32_t s2 = strides2[p->rank - 1];
    int32_t o1 = 0, o2 = 0, n, i, d;
    for (n = 0; n < p->size; n += inner) {
        const int8_t *x = input1 + o1;
        const int8_t *y = input2 + o2;
        for (i = 0; i < inner; i++) {
            output[n + i] = tinyaot_mul_s8_one(p, *x, *y);
            x += s1;
            y += s2;
        }
        /* Next row: count up the outer dimensions like an odometer. */
        for (d = p->rank - 2; d >= 0; d--) {
            o1 += strides1[d];
            o2 += strides2[d];
            if (++index[d] < dims[d]) {
                break;
            }
            o1 -= strides1[d] * dims[d];
            o2 -= strides2[d] * dims[d];
            index[d] = 0;
        }
    }
}

#endif /* TINYAOT_MUL_S8_H */
