/*
 * tinyaot_fully_connected_s8.h - int8 fully connected layer.
 *
 * Matches TFLM's reference_integer_ops::FullyConnected (per-tensor) and
 * FullyConnectedPerChannel: out = requant(sum((in - in_zp) * (w - w_zp)) + bias).
 */
#ifndef TINYAOT_FULLY_CONNECTED_S8_H
#define TINYAOT_FULLY_CONNECTED_S8_H

#include "tinyaot_common.h"

struct tinyaot_fully_connected_params {
    int32_t batches;
    int32_t accum_depth;      /* input values per batch */
    int32_t output_depth;
    int32_t input_offset;     /* -input zero point */
    int32_t filter_offset;    /* -filter zero point */
    int32_t output_offset;    /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;      /* 1: multiplier/shift per output channel, 0: one for all */
};

/* weights: [output_depth][accum_depth]; bias may be NULL. */
static void tinyaot_fully_connected_s8(const struct tinyaot_fully_connected_params *p,
                                       const int32_t *multiplier, const int32_t *shift,
                                       const int8_t *input, const int8_t *weights,
                                       const int32_t *bias, int8_t *output)
{
    int32_t b, oc, d;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in = input + b * p->accum_depth;
        for (oc = 0; oc < p->output_depth; oc++) {
            const int8_t *w = weights + oc * p->accum_depth;
            const int32_t ch = p->per_channel ? oc : 0;
            int32_t acc = 0;
            for (d = 0; d < p->accum_depth; d++) {
                acc += ((int32_t)w[d] + p->filter_offset) * ((int32_t)in[d] + p->input_offset);
            }
            if (bias != NULL) {
                acc += bias[oc];
            }
            output[b * p->output_depth + oc] = tinyaot_requantize_s8(acc, multiplier[ch], shift[ch],
                                                                     p->output_offset, p->act_min, p->act_max);
        }
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S8_H */
