/*
 * tinyaot_relu_s16.h - int16 RELU and RELU6 (16x8): TFLM's ReluQuantized<int16_t> and
 * Relu6Quantized<int16_t>, the int8 kernels' arithmetic (tinyaot_relu.h).
 */
#ifndef TINYAOT_RELU_S16_H
#define TINYAOT_RELU_S16_H

#include "tinyaot_relu.h"

static void tinyaot_relu_s16(const struct tinyaot_relu_params *p, const int16_t *input, int16_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = (int16_t)tinyaot_relu_value(p, input[i]);
    }
}

#endif /* TINYAOT_RELU_S16_H */
