/*
 * tinyaot_leaky_relu_s16.h - int16 LEAKY_RELU (16x8): TFLM's QuantizeLeakyRelu<int16_t>
 * (tinyaot_leaky_relu.h; zero points too), clamped to int16.
 */
#ifndef TINYAOT_LEAKY_RELU_S16_H
#define TINYAOT_LEAKY_RELU_S16_H

#include "tinyaot_leaky_relu.h"

static void tinyaot_leaky_relu_s16(const struct tinyaot_leaky_relu_params *p, const int16_t *input,
                                   int16_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = (int16_t)tinyaot_clamp_i32(tinyaot_leaky_relu_value(p, input[i]), -32768, 32767);
    }
}

#endif /* TINYAOT_LEAKY_RELU_S16_H */
