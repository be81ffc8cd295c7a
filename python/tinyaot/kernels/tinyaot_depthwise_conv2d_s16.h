/*
 * tinyaot_depthwise_conv2d_s16.h - 16x8 DEPTHWISE_CONV_2D: int16 input and
 * output (zero point 0), int8 weights (per channel), int64 bias.
 *
 * TFLM's reference_integer_ops::DepthwiseConvPerChannel for int16: per output
 * channel oc = ic * depth_multiplier + m the products over filter rows then
 * columns (taps in the padding skipped), plus the bias, rescaled per channel
 * and clamped (see tinyaot_s16.h for the sum's width).
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_S16_H
#define TINYAOT_DEPTHWISE_CONV2D_S16_H

#include "tinyaot_s16.h"

struct tinyaot_depthwise_conv2d_s16_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t depth_multiplier;
    int32_t output_h, output_w;  /* output channels: input_ch x depth_multiplier */
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;  /* top and left padding */
    int32_t act_min, act_max;
    int32_t sum32;  /* 1: the products' sum is taken in 32 bits (see tinyaot_s16.h) */
};

static void tinyaot_depthwise_conv2d_s16(const struct tinyaot_depthwise_conv2d_s16_params *p,
                                         const int32_t *multipliers, const int32_t *shifts,
                                         const int16_t *input, const int8_t *filter, const int64_t *bias,
                                         int16_t *output)
{
    const int32_t out_ch = p->input_ch * p->depth_multiplier;
    int32_t b, oy, ox, oc, fy, fx;
    for (b = 0; b < p->batches; b++) {
        const int16_t *image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (oc = 0; oc < out_ch; oc++) {
                    const int32_t ic = oc / p->depth_multiplier;
                    int64_t sum64 = 0;
                    uint32_t sum32 = 0;
                    for (fy = 0; fy < p->filter_h; fy++) {
                        const int32_t y = y0 + fy * p->dilation_h;
                        for (fx = 0; fx < p->filter_w; fx++) {
                            const int32_t x = x0 + fx * p->dilation_w;
                            int32_t product;
                            if (y < 0 || y >= p->input_h || x < 0 || x >= p->input_w) {
                                continue;
                            }
                            product = (int32_t)filter[(fy * p->filter_w + fx) * out_ch + oc]
                                      * image[(y * p->input_w + x) * p->input_ch + ic];
                            if (p->sum32) {
                                sum32 += (uint32_t)product;
                            } else {
                                sum64 += product;
                            }
                        }
                    }
                    *output++ = tinyaot_s16_output(TINYAOT_S16_BIAS64, p->sum32 ? (int64_t)(int32_t)sum32 : sum64,
                                                   bias, oc, multipliers[oc], shifts[oc], p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S16_H */
