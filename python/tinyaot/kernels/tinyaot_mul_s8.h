/*
 * tinyaot_mul_s8.h - int8 multiplication with broadcasting.
 *
 * Matches TFLM's reference_integer_ops::MulElementwise / BroadcastMul6DSlow:
 * out = requant((x - x_zp) * (y - y_zp)) + out_zp, clamped. The broadcast
 * is a table made at compile time, walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_MUL_S8_H
#define TINYAOT_MUL_S8_H

#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

struct tinyaot_mul_params {
    int32_t size;               /* output values */
    int32_t rank;               /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
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
    return tinyaot_requantize_s8(prod, p->output_multiplier, p->output_shift, p->output_offset,
                                 p->act_min, p->act_max);
}

static void tinyaot_mul_s8(const struct tinyaot_mul_params *p, const int32_t *dims,
                           const int32_t *strides1, const int32_t *strides2,
                           const int8_t *input1, const int8_t *input2, int8_t *output)
{
    struct tinyaot_broadcast walk;
    const int32_t inner = dims[p->rank - 1];
    const int32_t s1 = strides1[p->rank - 1];
    const int32_t s2 = strides2[p->rank - 1];
    int32_t n, i;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        const int8_t *x = input1 + walk.offset1;
        const int8_t *y = input2 + walk.offset2;
        for (i = 0; i < inner; i++) {
            output[n + i] = tinyaot_mul_s8_one(p, *x, *y);
            x += s1;
            y += s2;
        }
        tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
    }
}

#endif /* TINYAOT_MUL_S8_H */
