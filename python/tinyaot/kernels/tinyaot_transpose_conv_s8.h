/*
 * tinyaot_transpose_conv_s8.h - int8 TRANSPOSE_CONV (NHWC, filter [out ch, h, w, in ch]).
 *
 * Matches TFLM's reference_integer_ops::TransposeConv: every input value,
 * offset by the input zero point, is multiplied into the filter window it
 * spreads over and summed into an int32 scratch copy of the output; then each
 * sum gets its bias and is rescaled per output channel (the filter's zero
 * point is not read, as in TFLM: the lowering requires it to be 0).
 */
#ifndef TINYAOT_TRANSPOSE_CONV_S8_H
#define TINYAOT_TRANSPOSE_CONV_S8_H

#include "tinyaot_transpose_conv.h"

static void tinyaot_transpose_conv_s8(const struct tinyaot_transpose_conv_params *p, const int32_t *multipliers,
                                      const int32_t *shifts, const int8_t *input, const int8_t *filter,
                                      const int32_t *bias, int8_t *output, int32_t *scratch)
{
    const int32_t out_size = p->batches * p->output_h * p->output_w * p->output_ch;
    int32_t b, iy, ix, ic, fy, fx, oc, n;
    for (n = 0; n < out_size; n++) {
        scratch[n] = 0;
    }
    for (b = 0; b < p->batches; b++) {
        int32_t *acc = scratch + b * p->output_h * p->output_w * p->output_ch;
        for (iy = 0; iy < p->input_h; iy++) {
            for (ix = 0; ix < p->input_w; ix++) {
                const int8_t *in = input + ((b * p->input_h + iy) * p->input_w + ix) * p->input_ch;
                for (ic = 0; ic < p->input_ch; ic++) {
                    const int32_t x = (int32_t)in[ic] + p->input_offset;
                    for (fy = 0; fy < p->filter_h; fy++) {
                        const int32_t oy = iy * p->stride_h - p->pad_h + fy;
                        if (oy < 0 || oy >= p->output_h) {
                            continue;
                        }
                        for (fx = 0; fx < p->filter_w; fx++) {
                            const int32_t ox = ix * p->stride_w - p->pad_w + fx;
                            int32_t *dst;
                            if (ox < 0 || ox >= p->output_w) {
                                continue;
                            }
                            dst = acc + (oy * p->output_w + ox) * p->output_ch;
                            for (oc = 0; oc < p->output_ch; oc++) {
                                dst[oc] += x * filter[((oc * p->filter_h + fy) * p->filter_w + fx) * p->input_ch + ic];
                            }
                        }
                    }
                }
            }
        }
    }
    for (n = 0; n < out_size; n++) {
        const int32_t c = n % p->output_ch;
        const int32_t k = p->per_channel ? c : 0;
        const int32_t sum = scratch[n] + (bias != 0 ? bias[c] : 0);
        output[n] = tinyaot_requantize_s8(sum, multipliers[k], shifts[k], p->output_offset, p->act_min, p->act_max);
    }
}

#endif /* TINYAOT_TRANSPOSE_CONV_S8_H */
