/*
 * tinyaot_leaky_relu_s8.h - int8 LEAKY_RELU.
 *
 * Matches TFLM's reference_ops::QuantizeLeakyRelu: a value at or above the
 * input zero point is rescaled by input scale / output scale, one below it by
 * alpha * input scale / output scale (a negative multiplier for a negative
 * alpha, which the fixed-point multiply takes as it is).
 */
#ifndef TINYAOT_LEAKY_RELU_S8_H
#define TINYAOT_LEAKY_RELU_S8_H

#include "tinyaot_common.h"

struct tinyaot_leaky_relu_s8_params {
    int32_t size;                 /* number of values */
    int32_t input_zero_point;
    int32_t output_zero_point;
    int32_t identity_multiplier;  /* input scale / output scale */
    int32_t identity_shift;
    int32_t alpha_multiplier;     /* alpha * input scale / output scale */
    int32_t alpha_shift;
};

static void tinyaot_leaky_relu_s8(const struct tinyaot_leaky_relu_s8_params *p, const int8_t *input,
                                  int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const int32_t x = (int32_t)input[i] - p->input_zero_point;
        int32_t y;
        if (x >= 0) {
            y = tinyaot_requantize(x, p->identity_multiplier, p->identity_shift);
        } else {
            y = tinyaot_requantize(x, p->alpha_multiplier, p->alpha_shift);
        }
        output[i] = (int8_t)tinyaot_clamp_i32(p->output_zero_point + y, -128, 127);
    }
}

#endif /* TINYAOT_LEAKY_RELU_S8_H */
