/*
 * tinyaot_l2norm_s8.h - int8 L2_NORMALIZATION over the last axis, TFLM's
 * reference_integer_ops::L2Normalization: per row the sum of squared
 * (v - zero point), its inverse square root as a multiplier and shift
 * (GetInvSqrtQuantizedMultiplierExp: gemmlowp's fixed-point Newton-Raphson,
 * five steps, ported operation for operation), each value rescaled by it to
 * the output's fixed 1/128 scale and clamped to int8.
 */
#ifndef TINYAOT_L2NORM_S8_H
#define TINYAOT_L2NORM_S8_H

#include "tinyaot_common.h"

struct tinyaot_l2norm_s8_params {
    int32_t rows;
    int32_t depth;
    int32_t input_zero_point;
};

/* GetInvSqrtQuantizedMultiplierExp(input, kReverseShift = -1): F3 fixed point throughout. */
static void tinyaot_inv_sqrt_multiplier_exp(int32_t input, int32_t *multiplier, int32_t *shift)
{
    int32_t out_shift = 11, pairs, half_input, x, i;
    if (input <= 1) {
        *multiplier = INT32_MAX;
        *shift = 0;
        return;
    }
    while (input >= (1 << 29)) {
        input /= 4;
        out_shift++;
    }
    pairs = (tinyaot_count_leading_zeros((uint32_t)input) - 1) / 2 - 1;
    out_shift -= pairs;
    input = (int32_t)((uint32_t)input << (2 * pairs));
    half_input = tinyaot_rounding_divide_by_pot(input >> 1, 1);
    x = 1 << 28;  /* F3 one */
    for (i = 0; i < 5; i++) {
        const int32_t x3 = tinyaot_sat_shift_left(
            tinyaot_sat_rounding_doubling_high_mul(tinyaot_sat_rounding_doubling_high_mul(x, x), x), 6);
        const uint32_t diff = (uint32_t)tinyaot_sat_rounding_doubling_high_mul((1 << 28) + (1 << 27), x) -
                              (uint32_t)tinyaot_sat_rounding_doubling_high_mul(half_input, x3);
        x = tinyaot_sat_shift_left((int32_t)diff, 3);
    }
    x = tinyaot_sat_rounding_doubling_high_mul(x, 1518500250);  /* times sqrt(2)/2 */
    if (out_shift < 0) {
        x = (int32_t)((uint32_t)x << -out_shift);
        out_shift = 0;
    }
    *multiplier = x;
    *shift = -out_shift;
}

static void tinyaot_l2norm_s8(const struct tinyaot_l2norm_s8_params *p, const int8_t *input, int8_t *output)
{
    int32_t r, k;
    for (r = 0; r < p->rows; r++) {
        const int8_t *row = input + r * p->depth;
        int32_t acc = 0, multiplier, shift;
        for (k = 0; k < p->depth; k++) {
            const int32_t v = row[k] - p->input_zero_point;
            acc += v * v;
        }
        tinyaot_inv_sqrt_multiplier_exp(acc, &multiplier, &shift);
        for (k = 0; k < p->depth; k++) {
            const int32_t v = tinyaot_requantize_exact(row[k] - p->input_zero_point, multiplier, shift + 7);
            output[r * p->depth + k] = (int8_t)tinyaot_clamp_i32(v, -128, 127);
        }
    }
}

#endif /* TINYAOT_L2NORM_S8_H */
