/*
 * tinyaot_common.h - fixed-point helpers shared by the kernels.
 *
 * These reproduce TFLite Micro's reference arithmetic bit for bit
 * (gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT,
 * TFLite's MultiplyByQuantizedMultiplier with double rounding). Everything is
 * static inline: each generated model includes its own private copy.
 */
#ifndef TINYAOT_COMMON_H
#define TINYAOT_COMMON_H

#include <stdint.h>

static inline int32_t tinyaot_max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t tinyaot_min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

static inline int32_t tinyaot_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* (a * b * 2) >> 32, rounded to nearest, saturating the one overflow case. */
static inline int32_t tinyaot_sat_rounding_doubling_high_mul(int32_t a, int32_t b)
{
    int64_t ab;
    int32_t nudge;
    if (a == b && a == INT32_MIN) {
        return INT32_MAX;
    }
    ab = (int64_t)a * (int64_t)b;
    nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
    /* Division, not a shift: gemmlowp rounds toward zero here. */
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* x / 2^exponent, rounded to nearest with ties away from zero. */
static inline int32_t tinyaot_rounding_divide_by_pot(int32_t x, int32_t exponent)
{
    const int32_t mask = (int32_t)(((uint32_t)1 << exponent) - 1u);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x * multiplier * 2^shift, multiplier a Q31 value in [0.5, 1). */
static inline int32_t tinyaot_requantize(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t left_shift = shift > 0 ? shift : 0;
    const int32_t right_shift = shift > 0 ? 0 : -shift;
    return tinyaot_rounding_divide_by_pot(
        tinyaot_sat_rounding_doubling_high_mul((int32_t)((uint32_t)x << left_shift), multiplier),
        right_shift);
}

#endif /* TINYAOT_COMMON_H */
