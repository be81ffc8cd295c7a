/*
 * tinyaot_relu_s8.h - int8 RELU and RELU6 (tinyaot_relu.h).
 */
#ifndef TINYAOT_RELU_S8_H
#define TINYAOT_RELU_S8_H

#include "tinyaot_relu.h"

static void tinyaot_relu_s8(const struct tinyaot_relu_params *p, const int8_t *input, int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = (int8_t)tinyaot_relu_value(p, input[i]);
    }
}

#endif /* TINYAOT_RELU_S8_H */
