/*
 * tinyaot_activation_f32.h - float32 RELU, RELU6, LEAKY_RELU and HARD_SWISH.
 *
 * The expressions of TFLM's ReluFloat, Relu6Float, reference_ops::LeakyRelu
 * and reference_ops::HardSwish<float> (x * min(6, max(0, x + 3)) / 6, with
 * std::min and std::max's comparisons), comparison for comparison, so results
 * (NaN included) are TFLM's.
 */
#ifndef TINYAOT_ACTIVATION_F32_H
#define TINYAOT_ACTIVATION_F32_H

#include <stdint.h>

#define TINYAOT_ACT_RELU 0
#define TINYAOT_ACT_RELU6 1
#define TINYAOT_ACT_LEAKY_RELU 2
#define TINYAOT_ACT_HARD_SWISH 3

struct tinyaot_activation_f32_params {
    int32_t size;   /* number of values */
    int32_t kind;   /* TINYAOT_ACT_RELU, _RELU6, _LEAKY_RELU or _HARD_SWISH */
    float alpha;    /* LEAKY_RELU's slope below zero */
};

static void tinyaot_activation_f32(const struct tinyaot_activation_f32_params *p, const float *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const float val = input[i];
        float relu6;
        switch (p->kind) {
        case TINYAOT_ACT_RELU: output[i] = val < 0.0f ? 0.0f : val; break;
        case TINYAOT_ACT_RELU6: output[i] = val > 6.0f ? 6.0f : val < 0.0f ? 0.0f : val; break;
        case TINYAOT_ACT_LEAKY_RELU: output[i] = val > 0.0f ? val : val * p->alpha; break;
        default:
            relu6 = val + 3.0f;
            relu6 = 0.0f < relu6 ? relu6 : 0.0f; /* std::max(0, x + 3) */
            relu6 = relu6 < 6.0f ? relu6 : 6.0f; /* std::min(6, ...) */
            output[i] = val * relu6 / 6.0f;
            break;
        }
    }
}

#endif /* TINYAOT_ACTIVATION_F32_H */
