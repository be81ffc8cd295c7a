/*
 * tinyaot_conv2d_f32.h - float32 CONV_2D (grouped filters included).
 *
 * TFLM's float reference_ops::Conv operation for operation: per output value
 * the products are summed from 0.0f over filter rows, filter columns and
 * input channels in that order, taps in the padding skipped; then the bias
 * (0.0f without one) is added and min(max(x, lo), hi) applied (the window's
 * taps inside the input found once per output pixel). Identical to
 * TFLM wherever the compiler does not fuse a multiply and an add (see
 * tinyaot_fully_connected_f32.h).
 */
#ifndef TINYAOT_CONV2D_F32_H
#define TINYAOT_CONV2D_F32_H

#include <stdint.h>

#include "tinyaot_common.h"
#include "tinyaot_f32_compare.h"

struct tinyaot_conv2d_f32_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w, filter_ch;  /* filter_ch: input channels per group */
    int32_t filters_per_group;
    int32_t output_h, output_w, output_ch;
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;  /* top and left padding */
    float act_min;
    float act_max;
};

static void tinyaot_conv2d_f32(const struct tinyaot_conv2d_f32_params *p, const float *input,
                               const float *filter, const float *bias, float *output)
{
    const int32_t tap_stride = p->dilation_w * p->input_ch;
    /* No dilation, no groups: a window row's taps and their weights are adjacent values. */
    const int row_adjacent = tap_stride == p->filter_ch;
    int32_t b, oy, ox, oc, fy, fx, ic;
    for (b = 0; b < p->batches; b++) {
        const float *image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            int32_t fy_first, fy_end;
            tinyaot_window(y0, p->dilation_h, p->filter_h, p->input_h, &fy_first, &fy_end);
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                int32_t fx_first, fx_end;
                tinyaot_window(x0, p->dilation_w, p->filter_w, p->input_w, &fx_first, &fx_end);
                if (fx_first == fx_end) {
                    fx_first = fx_end = 0;  /* no column inside: no row either (and no pointer outside) */
                }
                for (oc = 0; oc < p->output_ch; oc++) {
                    const int32_t first_ch = (oc / p->filters_per_group) * p->filter_ch;
                    const float *w = filter + oc * p->filter_h * p->filter_w * p->filter_ch;
                    float total = 0.0f;
                    for (fy = fy_first; fy < fy_end && fx_first < fx_end; fy++) {
                        const float *in = image + ((y0 + fy * p->dilation_h) * p->input_w
                                                   + x0 + fx_first * p->dilation_w) * p->input_ch + first_ch;
                        const float *wt = w + (fy * p->filter_w + fx_first) * p->filter_ch;
                        if (row_adjacent) {  /* the row's taps one run of values: one loop */
                            const float *const end = wt + (fx_end - fx_first) * p->filter_ch;
                            while (wt != end) {
                                total += *in++ * *wt++;
                            }
                            continue;
                        }
                        for (fx = fx_first; fx < fx_end; fx++) {
                            for (ic = 0; ic < p->filter_ch; ic++) {
                                total += in[ic] * wt[ic];
                            }
                            in += tap_stride;
                            wt += p->filter_ch;
                        }
                    }
                    *output++ = tinyaot_f32_clamp(total + (bias != 0 ? bias[oc] : 0.0f), p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_F32_H */
