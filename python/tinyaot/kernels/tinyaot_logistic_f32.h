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

struct tinyaot_logistic_f32_params {
    int32_t size;  /* number of values */
    int32_t tanh;  /* 1: TANH, 0: LOGISTIC */
};

static void tinyaot_logistic_f32(const struct tinyaot_logistic_f32_params *p, const float *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const float v = input[i];
        if (p->tanh) {
            output[i] = tanhf(v);
        } else if (v > 16.619047164916992188f) {
            output[i] = 1.0f;
        } else if (v < -9.0f) {
            output[i] = expf(v);
        } else {
            output[i] = 1.0f / (1.0f + expf(-v));
        }
    }
}

#endif /* TINYAOT_LOGISTIC_F32_H */
