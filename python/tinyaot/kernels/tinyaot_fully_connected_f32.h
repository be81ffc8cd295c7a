/*
 * tinyaot_fully_connected_f32.h - float32 FULLY_CONNECTED.
 *
 * TFLM's float reference_ops::FullyConnected operation for operation: the
 * products summed in input order from 0.0f, then the bias (0.0f without
 * one) added, then min(max(x, lo), hi). Identical to TFLM wherever the
 * compiler does not fuse a multiply and an add (no -ffp-contract=fast with
 * an FMA unit; Cortex-M0/M3 soft-float never fuses).
 */
#ifndef TINYAOT_FULLY_CONNECTED_F32_H
#define TINYAOT_FULLY_CONNECTED_F32_H

#include <stdint.h>

#include "tinyaot_f32_compare.h"

struct tinyaot_fully_connected_f32_params {
    int32_t batches;
    int32_t accum_depth;
    int32_t output_depth;
    float act_min;
    float act_max;
};

static void tinyaot_fully_connected_f32(const struct tinyaot_fully_connected_f32_params *p, const float *input,
                                        const float *weights, const float *bias, float *output)
{
    int32_t b, c, d;
    for (b = 0; b < p->batches; b++) {
        const float *in = input + b * p->accum_depth;
        for (c = 0; c < p->output_depth; c++) {
            const float *w = weights + c * p->accum_depth;
            float total = 0.0f;
            float x;
            for (d = 0; d < p->accum_depth; d++) {
                total += in[d] * w[d];
            }
            x = total + (bias != 0 ? bias[c] : 0.0f);
            output[b * p->output_depth + c] = tinyaot_f32_clamp(x, p->act_min, p->act_max);
        }
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_F32_H */
