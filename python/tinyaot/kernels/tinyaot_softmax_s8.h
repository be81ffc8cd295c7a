/*
 * tinyaot_softmax_s8.h - softmax over the last dimension, int8 input,
 * int8 output (scale 1/256, zero point -128) or int16 output (scale 1/65536,
 * zero point -32768).
 *
 * Matches TFLM's reference_ops::Softmax for quantized input (the gemmlowp
 * fixed-point path): exp of the scaled difference to the row maximum in Q5.26,
 * sum in Q12.19, one reciprocal per row, then a rounding shift to the output.
 */
#ifndef TINYAOT_SOFTMAX_S8_H
#define TINYAOT_SOFTMAX_S8_H

#include <stddef.h>

#include "tinyaot_common.h"

struct tinyaot_softmax_s8_params {
    int32_t outer_size;        /* rows */
    int32_t depth;             /* values per row (the last dimension) */
    int32_t input_multiplier;  /* beta * input scale, as Q31 multiplier ... */
    int32_t input_left_shift;  /* ... and left shift, into Q5.26 */
    int32_t diff_min;          /* differences below this contribute exp() = 0 */
};

/* Exactly one of output_s8 and output_s16 is non-NULL; it picks the output type. */
static void tinyaot_softmax_s8(const struct tinyaot_softmax_s8_params *p, const int8_t *input,
                               int8_t *output_s8, int16_t *output_s16)
{
    const int32_t out_bits = output_s8 != NULL ? 8 : 16;
    const int32_t out_min = output_s8 != NULL ? -128 : -32768;
    const int32_t out_max = output_s8 != NULL ? 127 : 32767;
    int32_t i, c;
    for (i = 0; i < p->outer_size; i++) {
        const int8_t *in = input + i * p->depth;
        int32_t max_in_row = -128;
        int32_t sum_of_exps = 0;  /* Q12.19 */
        int32_t headroom_plus_one, num_bits_over_unit, shifted_scale, exponent;
        for (c = 0; c < p->depth; c++) {
            max_in_row = tinyaot_max_i32(max_in_row, in[c]);
        }
        for (c = 0; c < p->depth; c++) {
            const int32_t diff = (int32_t)in[c] - max_in_row;
            if (diff >= p->diff_min) {
                /* MultiplyByQuantizedMultiplierGreaterThanOne: diff_min keeps the shift in range. */
                const int32_t scaled_diff = tinyaot_sat_rounding_doubling_high_mul(
                    (int32_t)((uint32_t)diff << p->input_left_shift), p->input_multiplier);
                sum_of_exps += tinyaot_rounding_divide_by_pot(
                    tinyaot_exp_on_negative_values(scaled_diff, 5), 12);
            }
        }
        /* TFLite's GetReciprocal: 1 / sum as Q0 scaled by 2^-num_bits_over_unit. */
        headroom_plus_one = tinyaot_count_leading_zeros((uint32_t)sum_of_exps);
        num_bits_over_unit = 12 - headroom_plus_one;
        shifted_scale = tinyaot_one_over_one_plus_x_for_x_in_0_1(
            (int32_t)(((uint32_t)sum_of_exps << headroom_plus_one) - 0x80000000u));
        exponent = num_bits_over_unit + 31 - out_bits;
        for (c = 0; c < p->depth; c++) {
            const int32_t diff = (int32_t)in[c] - max_in_row;
            int32_t out = out_min;
            if (diff >= p->diff_min) {
                const int32_t scaled_diff = tinyaot_sat_rounding_doubling_high_mul(
                    (int32_t)((uint32_t)diff << p->input_left_shift), p->input_multiplier);
                const int32_t exp_in_0 = tinyaot_exp_on_negative_values(scaled_diff, 5);
                const int32_t product = tinyaot_sat_rounding_doubling_high_mul(shifted_scale, exp_in_0);
                /* TFLM aborts for exponent > 31 (int8 rows of 512+ near-equal values);
                 * the rounded quotient of a 31-bit product by 2^32 or more is 0. */
                const int32_t unsat = exponent > 31 ? 0 : tinyaot_rounding_divide_by_pot(product, exponent);
                out = tinyaot_clamp_i32(unsat + out_min, out_min, out_max);
            }
            if (output_s8 != NULL) {
                output_s8[i * p->depth + c] = (int8_t)out;
            } else {
                output_s16[i * p->depth + c] = (int16_t)out;
            }
        }
    }
}

#endif /* TINYAOT_SOFTMAX_S8_H */
