/*
 * tinyaot_log_softmax_s8.h - int8 LOG_SOFTMAX over the last axis, TFLM's
 * reference_ops::LogSoftmaxQuantized: per row, each difference from the row's
 * maximum (down to diff_min) scaled to Q5.26, exp'd (gemmlowp's
 * exp_on_negative_values) and summed in Q12.19; the sum's log in Q5.26
 * (TFLM's log_x_for_x_greater_than_or_equal_to_1, ported operation for
 * operation); each output (difference - log) in TFLM's fixed output scale
 * 16/256 with zero point 127, or -128 below the adjusted diff_min.
 */
#ifndef TINYAOT_LOG_SOFTMAX_S8_H
#define TINYAOT_LOG_SOFTMAX_S8_H

#include "tinyaot_common.h"

struct tinyaot_log_softmax_s8_params {
    int32_t rows;
    int32_t depth;
    int32_t input_multiplier, input_left_shift;                   /* difference -> Q5.26 */
    int32_t reverse_scaling_divisor, reverse_scaling_left_shift;  /* Q5.26 -> difference */
    int32_t diff_min;
};

static inline int32_t tinyaot_saturating_add_i32(int32_t a, int32_t b)
{
    const int64_t sum = (int64_t)a + b;
    return sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int32_t)sum;
}

/* log(x) for a Q12.19 x >= 1, result Q5.26: log_x_for_x_greater_than_or_equal_to_1_impl<5, 12>. */
static int32_t tinyaot_log_q12_to_q5(int32_t z_a)
{
    const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
    const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769, alpha_f = 638450708;
    const int32_t shifted_quarter = tinyaot_rounding_divide_by_pot(536870912, 6);  /* 1/4 in Q6 */
    const int32_t z_a_headroom_plus_1 = tinyaot_count_leading_zeros((uint32_t)z_a);
    const int32_t r_a_tmp = tinyaot_sat_shift_left(z_a, z_a_headroom_plus_1 - 1);
    const int32_t r_a = tinyaot_sat_shift_left(tinyaot_sat_rounding_doubling_high_mul(r_a_tmp, sqrt_half), 1);
    const int32_t z_a_pow_2_adj = tinyaot_saturating_add_i32(
        tinyaot_sat_shift_left(12 - z_a_headroom_plus_1, 25), shifted_quarter);
    const int32_t z_b = tinyaot_sat_rounding_doubling_high_mul(z_a, sqrt_half);
    const int32_t z_b_headroom = tinyaot_count_leading_zeros((uint32_t)z_b) - 1;
    const int32_t r_b = tinyaot_sat_shift_left(z_a, z_b_headroom);
    const int32_t z_b_pow_2_adj = tinyaot_saturating_add_i32(tinyaot_sat_shift_left(12 - z_b_headroom, 25),
                                                             -shifted_quarter);
    const int32_t r = r_a < r_b ? r_a : r_b;
    const int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;
    const int64_t half_sum = (int64_t)r + sqrt_sqrt_half;
    const int32_t p = (int32_t)((half_sum + (half_sum >= 0 ? 1 : -1)) / 2);  /* RoundingHalfSum */
    const int32_t q = (int32_t)(2u * (uint32_t)(r - sqrt_sqrt_half));
    const int32_t common_sq = tinyaot_sat_rounding_doubling_high_mul(q, q);
    const int32_t num = (int32_t)((uint32_t)tinyaot_sat_rounding_doubling_high_mul(q, r) +
                                  (uint32_t)tinyaot_sat_rounding_doubling_high_mul(
                                      tinyaot_sat_rounding_doubling_high_mul(q, common_sq), alpha_n));
    const int32_t denom_minus_one = (int32_t)(
        (uint32_t)tinyaot_sat_rounding_doubling_high_mul(
            p, (int32_t)((uint32_t)alpha_i + (uint32_t)q +
                         (uint32_t)tinyaot_sat_rounding_doubling_high_mul(alpha_d, common_sq))) +
        (uint32_t)tinyaot_sat_rounding_doubling_high_mul(alpha_f, q));
    const int32_t recip_denom = tinyaot_one_over_one_plus_x_for_x_in_0_1(denom_minus_one);
    const int32_t num_scaled = tinyaot_rounding_divide_by_pot(num, 6);
    const int32_t sum = (int32_t)((uint32_t)tinyaot_sat_rounding_doubling_high_mul(z_pow_2_adj, log_2) +
                                  (uint32_t)tinyaot_sat_rounding_doubling_high_mul(num_scaled, recip_denom));
    return tinyaot_sat_shift_left(sum, 1);  /* Q6 -> Q5 */
}

static void tinyaot_log_softmax_s8(const struct tinyaot_log_softmax_s8_params *p, const int8_t *input,
                                   int8_t *output)
{
    int32_t row, k;
    for (row = 0; row < p->rows; row++) {
        const int8_t *in = input + row * p->depth;
        int8_t *out = output + row * p->depth;
        int32_t max_in_row = -128, sum_of_exps = 0, log_sum, adjusted_diff_min;
        for (k = 0; k < p->depth; k++) {
            max_in_row = in[k] > max_in_row ? in[k] : max_in_row;
        }
        for (k = 0; k < p->depth; k++) {
            const int32_t diff = in[k] - max_in_row;
            if (diff >= p->diff_min) {
                const int32_t diff_q5 = tinyaot_requantize_exact(diff, p->input_multiplier, p->input_left_shift);
                sum_of_exps = (int32_t)((uint32_t)sum_of_exps +
                                        (uint32_t)tinyaot_rounding_divide_by_pot(
                                            tinyaot_exp_on_negative_values(diff_q5, 5), 12));
            }
        }
        log_sum = tinyaot_log_q12_to_q5(sum_of_exps);
        adjusted_diff_min = tinyaot_requantize_exact((int32_t)((uint32_t)log_sum + 0x80000000u),
                                                     p->reverse_scaling_divisor, p->reverse_scaling_left_shift);
        if (adjusted_diff_min < p->diff_min - 1) {
            adjusted_diff_min = p->diff_min - 1;
        }
        for (k = 0; k < p->depth; k++) {
            const int32_t diff = in[k] - max_in_row;
            if (diff > adjusted_diff_min) {
                const int32_t diff_q5 = tinyaot_requantize_exact(diff, p->input_multiplier, p->input_left_shift);
                const int32_t value = tinyaot_rounding_divide_by_pot(diff_q5 - log_sum, 22) + 127;
                out[k] = (int8_t)tinyaot_clamp_i32(value, -128, 127);
            } else {
                out[k] = -128;
            }
        }
    }
}

#endif /* TINYAOT_LOG_SOFTMAX_S8_H */
