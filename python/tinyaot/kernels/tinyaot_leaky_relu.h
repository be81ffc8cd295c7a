/*
 * tinyaot_leaky_relu.h - LEAKY_RELU's arithmetic, shared by the int8 and int16 kernels.
 *
 * Matches TFLM's reference_ops::QuantizeLeakyRelu: a value at or above the
 * input zero point is rescaled by input scale / output scale, one below it by
 * alpha * input scale / output scale (a negative multiplier for a negative
 * alpha, which the fixed-point multiply takes as it is).
 */
#ifndef TINYAOT_LEAKY_RELU_H
#define TINYAOT_LEAKY_RELU_H

#include "tinyaot_common.h"

struct tinyaot_leaky_relu_params {
    int32_t size;                 /* number of values */
    int32_t input_zero_point;
    int32_t output_zero_point;
    int32_t identity_multiplier;  /* input scale / output scale */
    int32_t identity_shift;
    int32_t alpha_multiplier;     /* alpha * input scale / output scale */
    int32_t alpha_shift;
};

/* One value, before the clamp to the output type (int8 or int16). */
static inline int32_t tinyaot_leaky_relu_value(const struct tinyaot_leaky_relu_params *p, int32_t value)
{
    const int32_t x = value - p->input_zero_point;
    if (x >= 0) {
        return p->output_zero_point + tinyaot_requantize(x, p->identity_multiplier, p->identity_shift);
    }
    return p->output_zero_point + tinyaot_requantize(x, p->alpha_multiplier, p->alpha_shift);
}

#endif /* TINYAOT_LEAKY_RELU_H */
