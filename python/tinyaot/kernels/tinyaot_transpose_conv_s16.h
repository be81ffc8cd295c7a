/*
 * tinyaot_transpose_conv_s16.h - 16x8 TRANSPOSE_CONV: int16 input and output
 * (zero point 0), int8 weights [out ch, h, w, in ch] (zero point 0), int64 bias
 * (an int16 one is widened by the generator, as TFLM widens it at Eval) or none.
 *
 * TFLM's reference_integer_ops::TransposeConv for int16 scatters every input
 * value's products into an int64 scratch copy of the output, then adds the bias
 * and rescales (64-bit MultiplyByQuantizedMultiplier). Integer sums do not
 * depend on their order, so this gathers instead: per output value, the
 * products of the input values whose windows reach it, in one local sum, and no
 * scratch. The sum is int64, or int32 where the lowering proved it fits (sum32).
 */
#ifndef TINYAOT_TRANSPOSE_CONV_S16_H
#define TINYAOT_TRANSPOSE_CONV_S16_H

#include "tinyaot_s16.h"
#include "tinyaot_transpose_conv.h"

/* Output channel oc at (oy, ox) of batch image `in`: sum over the filter taps
   (fy, fx) whose input position (oy + pad - fy) / stride is whole and inside. */
static inline int64_t tinyaot_transpose_conv_s16_sum(const struct tinyaot_transpose_conv_params *p,
                                                     int32_t sum32, const int16_t *in, const int8_t *filter,
                                                     int32_t oy, int32_t ox, int32_t oc)
{
    int64_t sum64 = 0;
    uint32_t sum = 0;
    int32_t fy, fx, ic;
    for (fy = (oy + p->pad_h) % p->stride_h; fy < p->filter_h && fy <= oy + p->pad_h; fy += p->stride_h) {
        const int32_t iy = (oy + p->pad_h - fy) / p->stride_h;
        if (iy >= p->input_h) {
            continue;
        }
        for (fx = (ox + p->pad_w) % p->stride_w; fx < p->filter_w && fx <= ox + p->pad_w; fx += p->stride_w) {
            const int32_t ix = (ox + p->pad_w - fx) / p->stride_w;
            const int16_t *x;
            const int8_t *w;
            if (ix >= p->input_w) {
                continue;
            }
            x = in + (iy * p->input_w + ix) * p->input_ch;
            w = filter + ((oc * p->filter_h + fy) * p->filter_w + fx) * p->input_ch;
            if (sum32) {
                for (ic = 0; ic < p->input_ch; ic++) {
                    sum += (uint32_t)((int32_t)w[ic] * x[ic]);
                }
            } else {
                for (ic = 0; ic < p->input_ch; ic++) {
                    sum64 += (int32_t)w[ic] * x[ic];
                }
            }
        }
    }
    return sum32 ? (int64_t)(int32_t)sum : sum64;
}

static void tinyaot_transpose_conv_s16(const struct tinyaot_transpose_conv_params *p, int32_t sum32,
                                       const int32_t *multipliers, const int32_t *shifts, const int16_t *input,
                                       const int8_t *filter, const void *bias, int16_t *output)
{
    int32_t b, oy, ox, oc;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox++) {
                for (oc = 0; oc < p->output_ch; oc++) {
                    const int64_t sum = tinyaot_transpose_conv_s16_sum(p, sum32, in, filter, oy, ox, oc);
                    *output++ = tinyaot_s16_output(TINYAOT_S16_BIAS64, sum, bias, oc, multipliers[oc], shifts[oc],
                                                   p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_TRANSPOSE_CONV_S16_H */
