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
/*
 * An int16 input (offset 0, |v| <= 2^15, shifted by 15) the same way with m split at
 * 2^16: h = floor((v * m + 2^15) / 2^16) = v * mh + floor((v * ml + 2^15) / 2^16), and
 * v * ml + 2^15 stays below 2^31. split: 31 minus the headroom shift, 11 or 16.
 */
struct tinyaot_add_input_scale {
    int32_t offset, mh, ml, r, half, negative;  /* negative: -1 where r > 0, else 0 */
};

static inline struct tinyaot_add_input_scale tinyaot_add_input_scale_of(int32_t offset, int32_t multiplier,
                                                                       int32_t shift, int32_t split)
{
    struct tinyaot_add_input_scale s;
    s.offset = offset;
    s.mh = multiplier >> split;
    s.ml = multiplier & ((1 << split) - 1);
    s.r = -shift;
    s.half = (int32_t)((1u << s.r) >> 1);
    s.negative = s.r > 0 ? -1 : 0;
    return s;
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_add_scale_input(const struct tinyaot_add_input_scale *s, int32_t x,
                                                             int32_t split)
{
    const int32_t v = x + s->offset;
    const int32_t h = v * s->mh + ((v * s->ml + (1 << (split - 1))) >> split);
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
        *out++ = tinyaot_tensor_requantize_s8(&fold, u + tinyaot_add_scale_input(&a, *other++, 11));
    }
}

/*
 * int16 ADD or SUB of contiguous rows, n values: both inputs scaled as above (split
 * 16), the output as tinyaot_add_one does it. A function of its own as the int8 row:
 * unet_block_16x8's ADD on Cortex-M0 265 -> 73 instructions a value.
 */
static TINYAOT_NOINLINE void tinyaot_add_s16_row(const struct tinyaot_add_params *p,
                                                 const struct tinyaot_add_input_scale *scaled1,
                                                 const struct tinyaot_add_input_scale *scaled2, const int16_t *x,
                                                 const int16_t *y, int16_t *out, int32_t n)
{
    const struct tinyaot_add_input_scale a = *scaled1, b = *scaled2;
    const int32_t sign = p->subtract ? -1 : 1, multiplier = p->output_multiplier, shift = p->output_shift;
    const int32_t offset = p->output_offset, act_min = p->act_min, act_max = p->act_max;
    const int16_t *const end = out + n;
    while (out != end) {
        const int32_t sum = tinyaot_add_scale_input(&a, *x++, 16) + sign * tinyaot_add_scale_input(&b, *y++, 16);
        *out++ = (int16_t)tinyaot_clamp_i32(tinyaot_requantize(sum, multiplier, shift) + offset, act_min, act_max);
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
        order ? tinyaot_add_input_scale_of(p->input1_offset, p->input1_multiplier, p->input1_shift, 11)
              : tinyaot_add_input_scale_of(p->input2_offset, p->input2_multiplier, p->input2_shift, 11);
    /* int16 ADD or SUB of contiguous rows (zero points 0, TFLite's multipliers >= 0, shifts in
       [-30, 0]) on cores without a long multiply: tinyaot_add_s16_row. (With one, tinyaot_add_one's
       64-bit products take fewer instructions: 33 a value on Cortex-M3 against the row's 49.) */
    const struct tinyaot_add_input_scale scaled1 =
        tinyaot_add_input_scale_of(0, p->input1_multiplier, p->input1_shift, 16);
    const struct tinyaot_add_input_scale scaled2 =
        tinyaot_add_input_scale_of(0, p->input2_multiplier, p->input2_shift, 16);
    const int fast16 = !TINYAOT_LONG_MULTIPLY && p->int16 && !p->square && p->left_shift == 15 && s1 == 1 && s2 == 1 &&
                       p->input1_offset == 0 && p->input2_offset == 0 && scaled1.mh >= 0 && scaled2.mh >= 0 &&
                       scaled1.r >= 0 && scaled1.r < 31 && scaled2.r >= 0 && scaled2.r < 31;
    const int fast = !p->int16 && !p->square && !p->subtract && p->left_shift == 20 && s1 == 1 && s2 == 1 &&
                     (order || (p->input1_multiplier == 0x40000000 && p->input1_shift == 0)) &&
                     scaled.mh >= 0 && scaled.r >= 0 && scaled.r < 31 &&
                     tinyaot_tensor_requant_of(&fold, p->output_multiplier, p->output_shift, p->output_offset,
                                               p->act_min, p->act_max);
    int32_t n, i;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        if (fast16) {
            tinyaot_add_s16_row(p, &scaled1, &scaled2, (const int16_t *)input1 + walk.offset1,
                                (const int16_t *)input2 + walk.offset2, (int16_t *)output + n, inner);
            tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
            continue;
        }
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
