/*
 * tinyaot_fully_connected_s16.h - 16x8 FULLY_CONNECTED: int16 input and
 * output (zero point 0), int8 weights (zero point 0; per tensor or per
 * channel, as one multiplier per output), int64 or int32 bias.
 *
 * TFLM's reference_integer_ops::FullyConnected(PerChannel) for int16: per
 * output the products in input order, plus the bias, rescaled and clamped
 * (see tinyaot_s16.h for the sum's width).
 */
#ifndef TINYAOT_FULLY_CONNECTED_S16_H
#define TINYAOT_FULLY_CONNECTED_S16_H

#include "tinyaot_s16.h"

struct tinyaot_fully_connected_s16_params {
    int32_t batches;
    int32_t accum_depth;
    int32_t output_depth;
    int32_t act_min, act_max;
    int32_t mode;   /* TINYAOT_S16_BIAS64 or _BIAS32 */
    int32_t sum32;  /* 1: the products' sum is taken in 32 bits (see tinyaot_s16.h) */
};

static void tinyaot_fully_connected_s16(const struct tinyaot_fully_connected_s16_params *p,
                                        const int32_t *multipliers, const int32_t *shifts,
                                        const int16_t *input, const int8_t *weights, const void *bias,
                                        int16_t *output)
{
    int32_t b, c, d;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in = input + b * p->accum_depth;
        for (c = 0; c < p->output_depth; c++) {
            const int8_t *w = weights + c * p->accum_depth;
            int64_t sum64 = 0;
            uint32_t sum32 = 0;
            if (p->sum32) {
                for (d = 0; d < p->accum_depth; d++) {
                    sum32 += (uint32_t)((int32_t)w[d] * in[d]);
                }
            } else {
                for (d = 0; d < p->accum_depth; d++) {
                    sum64 += (int32_t)w[d] * in[d];
                }
            }
            *output++ = tinyaot_s16_output(p->mode, p->sum32 ? (int64_t)(int32_t)sum32 : sum64, bias, c,
                                           multipliers[c], shifts[c], p->act_min, p->act_max);
        }
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S16_H */
