/*
 * tinyaot_transpose_conv_f32.h - float32 TRANSPOSE_CONV (NHWC, filter [out ch, h, w, in ch]).
 *
 * TFLM's float reference_ops::TransposeConv operation for operation: the
 * output is zeroed, every input value is multiplied into the filter window it
 * spreads over and added to the output in TFLM's scatter order (input row,
 * column, channel; filter row, column; output channel), so each output value
 * sums its products in TFLM's order; then the bias is added (nothing without
 * one) and min(max(x, lo), hi) applied. The output itself holds the sums (no
 * scratch). Identical to TFLM where the compiler does not fuse a multiply and
 * an add (Cortex-M0/M3 soft-float never fuses).
 */
#ifndef TINYAOT_TRANSPOSE_CONV_F32_H
#define TINYAOT_TRANSPOSE_CONV_F32_H

#include <stdint.h>

#include "tinyaot_f32_compare.h"

struct tinyaot_transpose_conv_f32_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t output_h, output_w, output_ch;
    int32_t filter_h, filter_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;
    float act_min, act_max;
};

static void tinyaot_transpose_conv_f32(const struct tinyaot_transpose_conv_f32_params *p, const float *input,
                                       const float *filter, const float *bias, float *output)
{
    const int32_t out_size = p->batches * p->output_h * p->output_w * p->output_ch;
    int32_t b, iy, ix, ic, fy, fx, oc, n;
    for (n = 0; n < out_size; n++) {
        output[n] = 0.0f;
    }
    for (b = 0; b < p->batches; b++) {
        float *acc = output + b * p->output_h * p->output_w * p->output_ch;
        for (iy = 0; iy < p->input_h; iy++) {
            for (ix = 0; ix < p->input_w; ix++) {
                const float *in = input + ((b * p->input_h + iy) * p->input_w + ix) * p->input_ch;
                for (ic = 0; ic < p->input_ch; ic++) {
                    for (fy = 0; fy < p->filter_h; fy++) {
                        const int32_t oy = iy * p->stride_h - p->pad_h + fy;
                        if (oy < 0 || oy >= p->output_h) {
                            continue;
                        }
                        for (fx = 0; fx < p->filter_w; fx++) {
                            const int32_t ox = ix * p->stride_w - p->pad_w + fx;
                            float *dst;
                            if (ox < 0 || ox >= p->output_w) {
                                continue;
                            }
                            dst = acc + (oy * p->output_w + ox) * p->output_ch;
                            for (oc = 0; oc < p->output_ch; oc++) {
                                dst[oc] += in[ic] * filter[((oc * p->filter_h + fy) * p->filter_w + fx) * p->input_ch + ic];
                            }
                        }
                    }
                }
            }
        }
    }
    for (n = 0; n < out_size; n++) {
        float x = output[n];
        if (bias != 0) {
            x += bias[n % p->output_ch];
        }
        output[n] = tinyaot_f32_clamp(x, p->act_min, p->act_max);
    }
}

#endif /* TINYAOT_TRANSPOSE_CONV_F32_H */
