/*
 * tinyaot_logistic_f32.h - float32 LOGISTIC and TANH.
 *
 * TFLM's float reference_ops::Logistic (1 above 16.619047f, expf(x) below
 * -9, else 1 / (1 + expf(-x))) and reference_ops::Tanh (tanhf), with the C
 * library's expf and tanhf as TFLM's std::exp and std::tanh of a float:
 * identical to TFLM built with the same libm.
 */
#ifndef TINYAOT_LOGISTIC_F32_H
#define TINYAOT_LOGISTIC_F32_H

#include <math.h>
#include <stdint.h>

#include "tinyaot_sigmoid.h"

struct tinyaot_logistic_f32_params {
    int32_t size;  /* number of values */
    int32_t tanh;  /* 1: TANH, 0: LOGISTIC */
};

static void tinyaot_logistic_f32(const struct tinyaot_logistic_f32_params *p, const float *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = p->tanh ? tanhf(input[i]) : tinyaot_sigmoid_f32(input[i]);
    }
}

#endif /* TINYAOT_LOGISTIC_F32_H */
