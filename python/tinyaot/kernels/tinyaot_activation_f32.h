/*
 * tinyaot_activation_f32.h - float32 RELU, RELU6 and LEAKY_RELU.
 *
 * The expressions of TFLM's ReluFloat, Relu6Float and reference_ops::LeakyRelu,
 * comparison for comparison, so results (NaN included) are TFLM's.
 */
#ifndef TINYAOT_ACTIVATION_F32_H
#define TINYAOT_ACTIVATION_F32_H

#include <stdint.h>

#define TINYAOT_ACT_RELU 0
#define TINYAOT_ACT_RELU6 1
#define TINYAOT_ACT_LEAKY_RELU 2

struct tinyaot_activation_f32_params {
    int32_t size;   /* number of values */
    int32_t kind;   /* TINYAOT_ACT_RELU, _RELU6 or _LEAKY_RELU */
    float alpha;    /* LEAKY_RELU's slope below zero */
};

static void tinyaot_activation_f32(const struct tinyaot_activation_f32_params *p, const float *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const float val = input[i];
        switch (p->kind) {
        case TINYAOT_ACT_RELU: output[i] = val < 0.0f ? 0.0f : val; break;
        case TINYAOT_ACT_RELU6: output[i] = val > 6.0f ? 6.0f : val < 0.0f ? 0.0f : val; break;
        default: output[i] = val > 0.0f ? val : val * p->alpha; break;
        }
    }
}

#endif /* TINYAOT_ACTIVATION_F32_H */
