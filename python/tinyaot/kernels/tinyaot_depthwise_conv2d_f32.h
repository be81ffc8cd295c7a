/*
 * tinyaot_depthwise_conv2d_f32.h - float32 DEPTHWISE_CONV_2D.
 *
 * TFLM's float reference_ops::DepthwiseConv operation for operation: per
 * output channel oc = ic * depth_multiplier + m the products are summed from
 * 0.0f over filter rows then columns, taps in the padding skipped; then the
 * bias (0.0f without one) is added and min(max(x, lo), hi) applied.
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_F32_H
#define TINYAOT_DEPTHWISE_CONV2D_F32_H

#include <stdint.h>

#include "tinyaot_f32_compare.h"

struct tinyaot_depthwise_conv2d_f32_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t depth_multiplier;
    int32_t output_h, output_w;  /* output channels: input_ch x depth_multiplier */
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;  /* top and left padding */
    float act_min;
    float act_max;
};

static void tinyaot_depthwise_conv2d_f32(const struct tinyaot_depthwise_conv2d_f32_params *p,
                                         const float *input, const float *filter, const float *bias,
                                         float *output)
{
    const int32_t out_ch = p->input_ch * p->depth_multiplier;
    int32_t b, oy, ox, oc, fy, fx;
    for (b = 0; b < p->batches; b++) {
        const float *image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (oc = 0; oc < out_ch; oc++) {
                    const int32_t ic = oc / p->depth_multiplier;
                    float total = 0.0f;
                    float x;
                    for (fy = 0; fy < p->filter_h; fy++) {
                        const int32_t y = y0 + fy * p->dilation_h;
                        for (fx = 0; fx < p->filter_w; fx++) {
                            const int32_t xx = x0 + fx * p->dilation_w;
                            if (y >= 0 && y < p->input_h && xx >= 0 && xx < p->input_w) {
                                total += image[(y * p->input_w + xx) * p->input_ch + ic]
                                         * filter[(fy * p->filter_w + fx) * out_ch + oc];
                            }
                        }
                    }
                    x = total + (bias != 0 ? bias[oc] : 0.0f);
                    *output++ = tinyaot_f32_clamp(x, p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_F32_H */
