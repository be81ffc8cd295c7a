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

/*
 * An int8 input's MultiplyByQuantizedMultiplierSmallerThanOneExp(v << 20, m, -r), v the
 * input plus its offset (|v| <= 255), in 32-bit arithmetic: gemmlowp's doubling high
 * multiply rounds v * 2^20 * m / 2^31 to h = floor((v * m + 2^10) / 2^11) for either
 * sign, which with m = mh * 2^11 + ml is v * mh + floor((v * ml + 2^10) / 2^11), every
 * term within int32; then h / 2^r to nearest, ties away from zero, is
 * floor((h + 2^(r-1) - [h < 0]) / 2^r) for r > 0, where [h < 0] is [v < 0] (m >= 0: a
 * negative v gives h <= 0, and h = 0 rounds to 0 either way). The input of the larger
 * scale has m = 2^30 and r = 0 (TFLite's 0.5): h = v * 2^19 (tests/host/test_requantize.py
 * checks every v against the two-step reference).
 */
struct tinyaot_add_input_scale {
    int32_t offset, mh, ml, r, half, negative;  /* negative: -1 where r > 0, else 0 */
};

static inline struct tinyaot_add_input_scale tinyaot_add_input_scale_of(int32_t offset, int32_t multiplier,
                                                                       int32_t shift)
{
    struct tinyaot_add_input_scale s;
    s.offset = offset;
    s.mh = multiplier >> 11;
    s.ml = multiplier & 0x7FF;
    s.r = -shift;
    s.half = (int32_t)((1u << s.r) >> 1);
    s.negative = s.r > 0 ? -1 : 0;
    return s;
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_add_scale_input(const struct tinyaot_add_input_scale *s, int32_t x)
{
    const int32_t v = x + s->offset;
    const int32_t h = v * s->mh + ((v * s->ml + 1024) >> 11);
    return (h + s->half + ((v >> 31) & s->negative)) >> s->r;
}

/*
 * ADD of contiguous int8 rows, n values: the input of the larger scale (offset
 * larger_offset, m = 2^30, r = 0) is v * 2^19, the other scaled as above, the output
 * through the per-tensor fold (q). A function of its own, so that its loop has the
 * registers to itself: resnet8's ADDs 77 -> 37 instructions a value on Cortex-M3.
 */
static TINYAOT_NOINLINE void tinyaot_add_s8_row(const struct tinyaot_add_input_scale *scaled, int32_t larger_offset,
                                                const struct tinyaot_tensor_requant *q, const int8_t *larger,
                                                const int8_t *other, int8_t *out, int32_t n)
{
    const struct tinyaot_add_input_scale a = *scaled;
    const struct tinyaot_tensor_requant fold = *q;
    const int8_t *const end = out + n;
    while (out != end) {
        const int32_t u = (int32_t)((uint32_t)(*larger++ + larger_offset) << 19);
        *out++ = tinyaot_tensor_requantize_s8(&fold, u + tinyaot_add_scale_input(&a, *other++));
    }
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
    /* int8 ADD of contiguous rows with TFLite's multipliers (the larger scale's input at 2^30, no
       shift; the other's >= 0, shift <= 0) where the output folds: tinyaot_add_s8_row. */
    struct tinyaot_tensor_requant fold;
    const int32_t order = p->input2_multiplier == 0x40000000 && p->input2_shift == 0;  /* 1: input 2 the larger */
    const struct tinyaot_add_input_scale scaled =
        order ? tinyaot_add_input_scale_of(p->input1_offset, p->input1_multiplier, p->input1_shift)
              : tinyaot_add_input_scale_of(p->input2_offset, p->input2_multiplier, p->input2_shift);
    const int fast = !p->int16 && !p->square && !p->subtract && p->left_shift == 20 && s1 == 1 && s2 == 1 &&
                     (order || (p->input1_multiplier == 0x40000000 && p->input1_shift == 0)) &&
                     scaled.mh >= 0 && scaled.r >= 0 && scaled.r < 31 &&
                     tinyaot_tensor_requant_of(&fold, p->output_multiplier, p->output_shift, p->output_offset,
                                               p->act_min, p->act_max);
    int32_t n, i;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        if (fast) {
            const int8_t *x = (const int8_t *)input1 + walk.offset1, *y = (const int8_t *)input2 + walk.offset2;
            tinyaot_add_s8_row(&scaled, order ? p->input2_offset : p->input1_offset, &fold, order ? y : x,
                               order ? x : y, (int8_t *)output + n, inner);
            tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
            continue;
        }
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
