/*
 * tinyaot_arith_div_s8.h - int8 DIV with broadcasting.
 *
 * TFLM's reference_ops::DivElementwise / BroadcastDivSlow: the divisor made positive
 * (both signs flipped), its reciprocal by GetReciprocal (Newton-Raphson, Q0 with
 * recip_shift = floor(log2 divisor)), the dividend normalised by its headroom
 * (CountLeadingSignBits), their product rescaled by output_multiplier and
 * 2^(output_shift - recip_shift - headroom), then the output zero point and the
 * activation's clamp. Where TFLM's C++ is undefined this is defined (the README's DIV row):
 * - a divisor of 0 after its offset (GetReciprocal shifts by 32): x / 0 gives act_max
 *   for x > 0, act_min for x < 0, and 0 / 0 the output zero point (clamped);
 * - a right shift of 32 or more (small dividends, 0 above all: RoundingDivideByPOT
 *   shifts an int32 by it): the rounded quotient, which is 0 (the value is below 2^31);
 * - a dividend of -1 (headroom 31: -1 * (1 << 31) overflows): -2^31, the value it stands for.
 * The lowering refuses an output_shift above 22, so the shift is at least 1 and adding the
 * zero point cannot overflow. The broadcast is walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_ARITH_DIV_S8_H
#define TINYAOT_ARITH_DIV_S8_H

#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

struct tinyaot_arith_div_s8_params {
    int32_t size;               /* output values */
    int32_t rank;               /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t input1_offset;      /* -input 1 zero point */
    int32_t input2_offset;      /* -input 2 zero point */
    int32_t output_offset;      /* output zero point */
    int32_t output_multiplier;  /* input 1 scale / (input 2 scale * output scale), QuantizeMultiplier */
    int32_t output_shift;       /* at most 22 (ops/elementwise.py) */
    int32_t act_min;
    int32_t act_max;
};

/* Redundant sign bits of x (31 for 0 and -1), as TFLite's CountLeadingSignBits. */
static inline int32_t tinyaot_leading_sign_bits(int32_t x)
{
    return tinyaot_count_leading_zeros((uint32_t)(x < 0 ? ~x : x)) - 1;
}

/* x / y for the offset int8 values x and y (|x|, |y| <= 255), before the zero point and clamp. */
static inline int32_t tinyaot_div_s8_quotient(const struct tinyaot_arith_div_s8_params *p, int32_t x, int32_t y)
{
    int32_t clz, recip_shift, reciprocal, headroom, unscaled, exponent;
    if (y < 0) {
        x = -x;
        y = -y;
    }
    /* GetReciprocal(y, 31): 1 / (y / 2^recip_shift) in Q0. */
    clz = tinyaot_count_leading_zeros((uint32_t)y);
    recip_shift = 31 - clz;
    reciprocal = tinyaot_one_over_one_plus_x_for_x_in_0_1((int32_t)(((uint32_t)y << clz) - 0x80000000u));
    headroom = tinyaot_leading_sign_bits(x);
    /* MultiplyByQuantizedMultiplierGreaterThanOne: the shift in uint32_t (-1 << 31 is -2^31). */
    unscaled = tinyaot_sat_rounding_doubling_high_mul((int32_t)((uint32_t)x << headroom), reciprocal);
    /* >= 1: headroom >= 23 for |x| <= 255, output_shift <= 22 */
    exponent = recip_shift + headroom - p->output_shift;
    if (exponent > 31) {
        return 0;  /* |high_mul| < 2^31: its rounded quotient by 2^32 or more */
    }
    return tinyaot_rounding_divide_by_pot(tinyaot_sat_rounding_doubling_high_mul(unscaled, p->output_multiplier),
                                          exponent);
}

static inline void tinyaot_arith_div_s8_value(const void *params, const void *input1, const void *input2,
                                              void *output, int32_t n, int32_t i, int32_t j)
{
    const struct tinyaot_arith_div_s8_params *p = (const struct tinyaot_arith_div_s8_params *)params;
    const int32_t x = ((const int8_t *)input1)[i] + p->input1_offset;
    const int32_t y = ((const int8_t *)input2)[j] + p->input2_offset;
    int32_t result;
    if (y == 0) {
        result = x > 0 ? p->act_max : (x < 0 ? p->act_min : p->output_offset);
    } else {
        result = p->output_offset + tinyaot_div_s8_quotient(p, x, y);
    }
    ((int8_t *)output)[n] = (int8_t)tinyaot_clamp_i32(result, p->act_min, p->act_max);
}

static void tinyaot_arith_div_s8(const struct tinyaot_arith_div_s8_params *p, const int32_t *dims,
                                 const int32_t *strides1, const int32_t *strides2, const int8_t *input1,
                                 const int8_t *input2, int8_t *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, strides1, strides2, input1, input2, output,
                           tinyaot_arith_div_s8_value);
}

#endif /* TINYAOT_ARITH_DIV_S8_H */
