/*
 * tinyaot_add.h - int8 and int16 ADD, SUB and SQUARED_DIFFERENCE, with broadcasting.
 *
 * Matches TFLM's reference_integer_ops::AddFunc: both inputs are brought to a
 * common scale with 20 (int8) or 15 (int16) bits of headroom (left_shift),
 * added, and rescaled to the output. SUB (reference_ops::SubElementwise /
 * BroadcastQuantSubSlow) is the same arithmetic with the scaled second input
 * subtracted, and SQUARED_DIFFERENCE (squared_difference.cc) squares that
 * difference, with 7 bits of headroom (int8) instead of 20, or none (int16,
 * zero points 0), so that the square fits in 32 bits. The broadcast is a table
 * made at compile time, walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_ADD_H
#define TINYAOT_ADD_H

#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

struct tinyaot_add_params {
    int32_t size;               /* output values */
    int32_t rank;               /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t left_shift;
    int32_t subtract;           /* 1 for SUB: the scaled input 2 is subtracted */
    int32_t square;             /* 1 for SQUARED_DIFFERENCE: the difference is squared */
    int32_t input1_offset;      /* -input 1 zero point */
    int32_t input1_multiplier;
    int32_t input1_shift;       /* <= 0 */
    int32_t input2_offset;      /* -input 2 zero point */
    int32_t input2_multiplier;
    int32_t input2_shift;       /* <= 0 */
    int32_t output_offset;      /* output zero point */
    int32_t output_multiplier;
    int32_t output_shift;       /* <= 0 */
    int32_t act_min;
    int32_t act_max;
    int32_t int16;              /* 1: int16 inputs and output, 0: int8 */
};

/* One output value, clamped to the activation range. */
static inline int32_t tinyaot_add_one(const struct tinyaot_add_params *p, int32_t x, int32_t y)
{
    /* |x + offset| <= 255 (int8) or 65535 (int16), so shifting by 20 or 15 stays
       inside int32, and by 7 the square of an int8 difference does (int16: no shift,
       zero offsets, the rescaled inputs within +-16384). */
    const int32_t a = ((int32_t)x + p->input1_offset) * ((int32_t)1 << p->left_shift);
    const int32_t b = ((int32_t)y + p->input2_offset) * ((int32_t)1 << p->left_shift);
    const int32_t scaled1 = tinyaot_requantize(a, p->input1_multiplier, p->input1_shift);
    const int32_t scaled2 = tinyaot_requantize(b, p->input2_multiplier, p->input2_shift);
    int32_t sum = p->subtract ? scaled1 - scaled2 : scaled1 + scaled2;
    if (p->square) {
        sum = sum * sum;
    }
    sum = tinyaot_requantize(sum, p->output_multiplier, p->output_shift) + p->output_offset;
    return tinyaot_clamp_i32(sum, p->act_min, p->act_max);
}

static void tinyaot_add(const struct tinyaot_add_params *params, const int32_t *dims,
                        const int32_t *strides1, const int32_t *strides2, const void *input1, const void *input2,
                        void *output)
{
    /* A local copy, not *params: the int8/int16 output stores may alias anything, so the
       compiler would reload every parameter for every element. */
    const struct tinyaot_add_params local = *params;
    const struct tinyaot_add_params *const p = &local;
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
                ((int16_t *)output)[n + i] = (int16_t)tinyaot_add_one(p, ((const int16_t *)input1)[k1],
                                                                   ((const int16_t *)input2)[k2]);
            } else {
                ((int8_t *)output)[n + i] = (int8_t)tinyaot_add_one(p, ((const int8_t *)input1)[k1],
                                                                 ((const int8_t *)input2)[k2]);
            }
        }
        tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
    }
}

#endif /* TINYAOT_ADD_H */
