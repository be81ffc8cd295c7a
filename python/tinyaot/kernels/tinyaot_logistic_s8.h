/*
 * tinyaot_logistic_s8.h - int8 LOGISTIC (sigmoid; output scale 1/256, zero
 * point -128) and TANH (output scale 1/128, zero point 0).
 *
 * Matches TFLM's reference_integer_ops::Logistic and Tanh for int8: inputs
 * beyond +-input_range_radius saturate, the rest are scaled to Q4.27 and go
 * through gemmlowp's fixed-point logistic or tanh, whose Q0 result is rounded
 * to the output steps.
 */
#ifndef TINYAOT_LOGISTIC_S8_H
#define TINYAOT_LOGISTIC_S8_H

#include "tinyaot_common.h"

struct tinyaot_logistic_s8_params {
    int32_t size;               /* number of values */
    int32_t tanh;               /* 0: LOGISTIC, 1: TANH */
    int32_t input_zero_point;
    int32_t input_range_radius; /* |input - zero point| from here on saturates */
    int32_t input_multiplier;   /* input scale as Q31 multiplier ... */
    int32_t input_shift;        /* ... and shift, into Q4.27 */
};

/* gemmlowp::logistic for a Q4 input, result Q0. */
static inline int32_t tinyaot_logistic_q4(int32_t a)
{
    const int32_t abs_a = a > 0 ? a : -a;
    /* logistic(|a|) = 1 / (1 + exp(-|a|)); logistic(-|a|) = 1 - logistic(|a|) */
    const int32_t positive = tinyaot_one_over_one_plus_x_for_x_in_0_1(
        tinyaot_exp_on_negative_values(-abs_a, 4));
    if (a == 0) {
        return 1 << 30;  /* one half */
    }
    return a > 0 ? positive : INT32_MAX - positive;
}

/* gemmlowp::tanh for a Q4 input, result Q0. */
static inline int32_t tinyaot_tanh_q4(int32_t a)
{
    const int32_t negative_abs = a < 0 ? a : -a;
    /* tanh(|a|) = (1 - exp(-2|a|)) / (1 + exp(-2|a|)); -2|a| is the same raw value read as Q5. */
    const int32_t t = tinyaot_one_minus_x_over_one_plus_x_for_x_in_0_1(
        tinyaot_exp_on_negative_values(negative_abs, 5));
    if (a == 0) {
        return 0;
    }
    return a < 0 ? -t : t;
}

static void tinyaot_logistic_s8(const struct tinyaot_logistic_s8_params *p, const int8_t *input,
                                int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const int32_t x = (int32_t)input[i] - p->input_zero_point;
        int32_t out;
        if (x <= -p->input_range_radius) {
            out = -128;
        } else if (x >= p->input_range_radius) {
            out = 127;
        } else {
            const int32_t x_q4 = tinyaot_requantize(x, p->input_multiplier, p->input_shift);
            /* Q0 -> 1/128 steps (tanh), or 1/256 steps and the -128 zero point (logistic). */
            out = p->tanh ? tinyaot_rounding_divide_by_pot(tinyaot_tanh_q4(x_q4), 24)
                          : tinyaot_rounding_divide_by_pot(tinyaot_logistic_q4(x_q4), 23) - 128;
            out = tinyaot_clamp_i32(out, -128, 127);
        }
        output[i] = (int8_t)out;
    }
}

#endif /* TINYAOT_LOGISTIC_S8_H */
