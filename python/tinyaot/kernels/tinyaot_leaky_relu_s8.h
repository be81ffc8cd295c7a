/*
 * tinyaot_leaky_relu_s8.h - int8 LEAKY_RELU: TFLM's QuantizeLeakyRelu<int8_t>
 * (tinyaot_leaky_relu.h), clamped to int8.
 */
#ifndef TINYAOT_LEAKY_RELU_S8_H
#define TINYAOT_LEAKY_RELU_S8_H

#include "tinyaot_leaky_relu.h"

static void tinyaot_leaky_relu_s8(const struct tinyaot_leaky_relu_params *p, const int8_t *input, int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = (int8_t)tinyaot_clamp_i32(tinyaot_leaky_relu_value(p, input[i]), -128, 127);
    }
}

#endif /* TINYAOT_LEAKY_RELU_S8_H */
