/*
 * tinyaot_mul.h - int8 and int16 MUL with broadcasting.
 *
 * Matches TFLM's reference_integer_ops::MulElementwise / BroadcastMul6DSlow:
 * out = requant((x - x_zp) * (y - y_zp)) + out_zp, clamped; for int16 too
 * (zero points 0, as TFLM requires there). The broadcast is a table made at compile time, walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_MUL_H
#define TINYAOT_MUL_H

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
    int32_t int16;              /* 1: int16 inputs and output, 0: int8 */
};

/* One output value, clamped to the activation range. */
static inline int32_t tinyaot_mul_one(const struct tinyaot_mul_params *p, int32_t x, int32_t y)
{
    /* |product| <= 255 * 255 (int8) or 2^30 (int16, no offsets): no overflow before the rescale. */
    const int32_t prod = (x + p->input1_offset) * (y + p->input2_offset);
    return tinyaot_clamp_i32(tinyaot_requantize(prod, p->output_multiplier, p->output_shift) + p->output_offset,
                             p->act_min, p->act_max);
}

static void tinyaot_mul(const struct tinyaot_mul_params *params, const int32_t *dims,
                        const int32_t *strides1, const int32_t *strides2, const void *input1, const void *input2,
                        void *output)
{
    /* A local copy, not *params: the int8/int16 output stores may alias anything, so the
       compiler would reload every parameter for every element. */
    const struct tinyaot_mul_params local = *params;
    const struct tinyaot_mul_params *const p = &local;
    struct tinyaot_broadcast walk;
    const int32_t inner = dims[p->rank - 1];
    const int32_t s1 = strides1[p->rank - 1];
    const int32_t s2 = strides2[p->rank - 1];
    int32_t n, i;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        for (i = 0; i < inner; i++) {
            const int32_t k1 = walk.offset1 + i * s1;
            const int32_t k2 = walk.offset2 + i * s2;
            if (p->int16) {
                ((int16_t *)output)[n + i] = (int16_t)tinyaot_mul_one(p, ((const int16_t *)input1)[k1],
                                                                    ((const int16_t *)input2)[k2]);
            } else {
                ((int8_t *)output)[n + i] = (int8_t)tinyaot_mul_one(p, ((const int8_t *)input1)[k1],
                                                                  ((const int8_t *)input2)[k2]);
            }
        }
        tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
    }
}

#endif /* TINYAOT_MUL_H */
