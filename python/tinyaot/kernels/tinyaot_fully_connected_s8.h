/*
 * tinyaot_fully_connected_s8.h - int8 fully connected layer.
 *
 * Matches TFLM's reference_integer_ops::FullyConnected (per-tensor) and
 * FullyConnectedPerChannel: out = requant(sum((in - in_zp) * (w - w_zp)) + bias).
 */
#ifndef TINYAOT_FULLY_CONNECTED_S8_H
#define TINYAOT_FULLY_CONNECTED_S8_H

#include <stddef.h>

#include "tinyaot_fully_connected_s8_params.h"

/*
 * weights: [output_depth][accum_depth]. bias is bias + input_offset * sum(w + filter_offset)
 * per output, folded by the lowering (NULL when that is zero everywhere): then
 * sum((w + fo) * (x + io)) + bias = sum(w * x) + fo * sum(x) + folded bias,
 * and the inner loop is a plain multiply-accumulate.
 */
static void tinyaot_fully_connected_s8(const struct tinyaot_fully_connected_params *p,
                                       const int32_t *multiplier, const int32_t *shift,
                                       const int8_t *input, const int8_t *weights,
                                       const int32_t *bias, int8_t *output)
{
    const int32_t depth = p->accum_depth;
    /* Locals, not p->...: output is int8_t, which may alias anything, so the
       compiler would reload every field of p after each output store. */
    const int32_t output_depth = p->output_depth, per_channel = p->per_channel;
    const int32_t output_offset = p->output_offset, act_min = p->act_min, act_max = p->act_max;
    int32_t b, oc;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in = input + b * depth;
        int8_t *out = output + b * output_depth;
        const int32_t input_sum = tinyaot_fully_connected_input_sum(p, in, depth);
        for (oc = 0; oc + 1 < output_depth; oc += 2) {
            const int32_t ch0 = per_channel ? oc : 0;
            const int32_t ch1 = per_channel ? oc + 1 : 0;
            int32_t acc0 = (bias != NULL ? bias[oc] : 0) + input_sum;
            int32_t acc1 = (bias != NULL ? bias[oc + 1] : 0) + input_sum;
            const int8_t *w0 = weights + oc * depth;
            tinyaot_fully_connected_dot2(in, w0, w0 + depth, depth, &acc0, &acc1);
            out[oc] = tinyaot_requantize_s8(acc0, multiplier[ch0], shift[ch0], output_offset, act_min, act_max);
            out[oc + 1] = tinyaot_requantize_s8(acc1, multiplier[ch1], shift[ch1], output_offset, act_min, act_max);
        }
        if (oc < output_depth) {
            const int32_t ch = per_channel ? oc : 0;
            const int32_t acc = (bias != NULL ? bias[oc] : 0) + input_sum +
                                tinyaot_fully_connected_dot(in, weights + oc * depth, depth);
            out[oc] = tinyaot_requantize_s8(acc, multiplier[ch], shift[ch], output_offset, act_min, act_max);
        }
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S8_H */
