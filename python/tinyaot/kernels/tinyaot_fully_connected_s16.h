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
    int32_t mode;   /* TINYAOT_S16_BIAS64, _BIAS32 or _FOLDED */
    int32_t sum32;  /* 1: the products' sum is taken in 32 bits (see tinyaot_s16.h) */
};

/* Output c's sum over one batch's input. */
static int64_t tinyaot_fully_connected_s16_sum(const struct tinyaot_fully_connected_s16_params *p,
                                               const int16_t *in, const int8_t *w)
{
    int64_t sum64 = 0;
    uint32_t sum32 = 0;
    int32_t d;
    if (p->sum32) {
        for (d = 0; d < p->accum_depth; d++) {
            sum32 += (uint32_t)((int32_t)w[d] * in[d]);
        }
        return (int32_t)sum32;
    }
    for (d = 0; d < p->accum_depth; d++) {
        sum64 += (int32_t)w[d] * in[d];
    }
    return sum64;
}

/* With 32-bit sums, four outputs a step (tinyaot_s16_dot4), the rest one by one. */
static void tinyaot_fully_connected_s16(const struct tinyaot_fully_connected_s16_params *p,
                                        const int32_t *multipliers, const int32_t *shifts,
                                        const int16_t *input, const int8_t *weights, const void *bias,
                                        int16_t *output)
{
    const int32_t depth = p->accum_depth, outputs = p->output_depth;
    const int32_t quads_end = p->sum32 ? outputs - outputs % 4 : 0;
    int32_t b, c, k;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in = input + b * depth;
        for (c = 0; c < quads_end; c += 4) {
            uint32_t a[4] = {0, 0, 0, 0};
            tinyaot_s16_dot4(in, weights + c * depth, depth, depth, a);
            for (k = 0; k < 4; k++) {
                output[c + k] = tinyaot_s16_output(p->mode, (int32_t)a[k], bias, c + k, multipliers[c + k],
                                                   shifts[c + k], p->act_min, p->act_max);
            }
        }
        for (; c < outputs; c++) {
            output[c] = tinyaot_s16_output(p->mode, tinyaot_fully_connected_s16_sum(p, in, weights + c * depth), bias,
                                           c, multipliers[c], shifts[c], p->act_min, p->act_max);
        }
        output += outputs;
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S16_H */
