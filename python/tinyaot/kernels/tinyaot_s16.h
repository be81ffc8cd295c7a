/*
 * tinyaot_s16.h - what the 16x8 kernels (int16 activations, int8 weights)
 * share: the end of a convolution or fully connected output value.
 *
 * TFLM sums int16 x int8 products in the bias's type: int64 for an int64
 * bias (or none), then rescales with the 64-bit MultiplyByQuantizedMultiplier;
 * int32 for an int32 bias, then the 32-bit one the int8 kernels use. The
 * lowering proves, from the constant weights and bias, when an int64 sum
 * cannot leave int32 (sum32): the kernels then add in 32 bits, which gives the
 * same value, and widen once per output.
 */
#ifndef TINYAOT_S16_H
#define TINYAOT_S16_H

#include "tinyaot_common.h"

#define TINYAOT_S16_BIAS64 0  /* int64 bias or none: int64 sum, 64-bit rescale */
#define TINYAOT_S16_BIAS32 1  /* int32 bias: int32 sum (wrapping as TFLM's), 32-bit rescale */
/* int64 bias or none, where the lowering proved that sum + bias stays in int32: the bias is
   an int32 table, the multiplier TFLM's Q15 one and the shift its total right shift (both
   worked out once), and the rescale's multiply is 32 x 32 -> 64 bits. */
#define TINYAOT_S16_FOLDED 2
/* FOLDED where every channel's total shift is 16..32 (the usual scales): the rescale in
   32-bit arithmetic, no 64-bit shift (tinyaot_s16_rescale_mid). */
#define TINYAOT_S16_FOLDED_MID 3

/* TFLM's MultiplyByQuantizedMultiplier(int64_t, ...): the Q31 multiplier
   rounded to Q15, one rounding right shift. */
static inline int32_t tinyaot_requantize_s64(int64_t x, int32_t multiplier, int32_t shift)
{
    const int32_t reduced = multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
    const int32_t total_shift = 15 - shift;
    return (int32_t)((x * reduced + ((int64_t)1 << (total_shift - 1))) >> total_shift);
}

/* (x * multiplier + 2^(shift - 1)) >> shift, for a Q15 multiplier (< 2^15) and shift 16..32:
   TFLM's 64-bit rescale of an int32 sum, exact. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_s16_rescale_mid(int32_t x, int32_t multiplier, int32_t shift)
{
#if TINYAOT_LONG_MULTIPLY
    /* The high word of x * (multiplier << (32 - shift)) + 2^31: one multiply-accumulate. */
    const int32_t scaled = (int32_t)((uint32_t)multiplier << (32 - shift));
    return (int32_t)(((int64_t)x * scaled + 0x80000000LL) >> 32);
#else
    /* x in 16-bit halves: either product, and the low one plus the rounding, fit 32 bits;
       floor((hi 2^16 + lo) / 2^s) = floor((hi + floor(lo / 2^16)) / 2^(s - 16)). */
    const uint32_t low = (uint32_t)(x & 0xFFFF) * (uint32_t)multiplier + (1u << (shift - 1));
    return ((x >> 16) * multiplier + (int32_t)(low >> 16)) >> (shift - 16);
#endif
}

/* sum (the products, in 32 bits when mode is BIAS32 or the lowering proved
   they fit), plus channel c's bias, rescaled and clamped to an int16 value
   (FOLDED: multiplier and shift as that mode says; FOLDED_MID: tinyaot_s16_output_mid). */
static inline int16_t tinyaot_s16_output(int32_t mode, int64_t sum, const void *bias, int32_t c,
                                         int32_t multiplier, int32_t shift, int32_t act_min, int32_t act_max)
{
    int32_t acc;
    if (mode == TINYAOT_S16_FOLDED) {
        const int32_t x = (int32_t)sum + (bias != 0 ? ((const int32_t *)bias)[c] : 0);
        acc = (int32_t)(((int64_t)x * multiplier + ((int64_t)1 << (shift - 1))) >> shift);
    } else if (mode == TINYAOT_S16_BIAS32) {
        uint32_t acc32 = (uint32_t)sum;  /* TFLM's int32 sum, wrapped */
        if (bias != 0) {
            acc32 += (uint32_t)((const int32_t *)bias)[c];
        }
        acc = tinyaot_requantize((int32_t)acc32, multiplier, shift);
    } else {
        if (bias != 0) {
            sum += tinyaot_load_i64(bias, c);
        }
        acc = tinyaot_requantize_s64(sum, multiplier, shift);
    }
    return (int16_t)tinyaot_clamp_i32(acc, act_min, act_max);
}

/* tinyaot_s16_output for FOLDED_MID, which the kernels taking it test for first (in
   tinyaot_s16_output, the larger body cost the fully connected loop its registers on Armv6-M). */
static TINYAOT_ALWAYS_INLINE int16_t tinyaot_s16_output_mid(int32_t sum, const int32_t *bias, int32_t c,
                                                            int32_t multiplier, int32_t shift, int32_t act_min,
                                                            int32_t act_max)
{
    const int32_t acc = tinyaot_s16_rescale_mid(sum + (bias != 0 ? bias[c] : 0), multiplier, shift);
    return (int16_t)tinyaot_clamp_i32(acc, act_min, act_max);
}

/* Four rows' 32-bit sums (w, w + step, w + 2 step, w + 3 step) of n products with in, added
   to a: each input value loaded serves four products. Unsigned: TFLM's int32 sum wraps
   (BIAS32), and an int64 one the lowering proved to stay in int32 (sum32). */
static TINYAOT_ALWAYS_INLINE void tinyaot_s16_dot4(const int16_t *in, const int8_t *w, int32_t n, int32_t step,
                                                   uint32_t a[4])
{
    uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];  /* named: in registers */
    int32_t k;
    for (k = 0; k < n; k++) {
        const int32_t x = in[k];
        a0 += (uint32_t)(w[k] * x);
        a1 += (uint32_t)(w[k + step] * x);
        a2 += (uint32_t)(w[k + 2 * step] * x);
        a3 += (uint32_t)(w[k + 3 * step] * x);
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
}

#endif /* TINYAOT_S16_H */
