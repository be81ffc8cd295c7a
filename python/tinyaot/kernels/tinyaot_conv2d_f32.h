/*
 * tinyaot_conv2d_f32.h - float32 CONV_2D (grouped filters included).
 *
 * TFLM's float reference_ops::Conv operation for operation: per output value
 * the products are summed from 0.0f over filter rows, filter columns and
 * input channels in that order, taps in the padding skipped; then the bias
 * (0.0f without one) is added and min(max(x, lo), hi) applied. Identical to
 * TFLM wherever the compiler does not fuse a multiply and an add (see
 * tinyaot_fully_connected_f32.h).
 */
#ifndef TINYAOT_CONV2D_F32_H
#define TINYAOT_CONV2D_F32_H

#include <stdint.h>

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
    int32_t b, oy, ox, oc, fy, fx, ic;
    for (b = 0; b < p->batches; b++) {
        const float *image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                for (oc = 0; oc < p->output_ch; oc++) {
                    const int32_t first_ch = (oc / p->filters_per_group) * p->filter_ch;
                    const float *w = filter + oc * p->filter_h * p->filter_w * p->filter_ch;
                    float total = 0.0f;
                    float x;
                    for (fy = 0; fy < p->filter_h; fy++) {
                        const int32_t y = y0 + fy * p->dilation_h;
                        for (fx = 0; fx < p->filter_w; fx++) {
                            const int32_t xx = x0 + fx * p->dilation_w;
                            const float *in, *wt;
                            if (y < 0 || y >= p->input_h || xx < 0 || xx >= p->input_w) {
                                continue;  /* zero padding: the tap is left out */
                            }
                            in = image + (y * p->input_w + xx) * p->input_ch + first_ch;
                            wt = w + (fy * p->filter_w + fx) * p->filter_ch;
                            for (ic = 0; ic < p->filter_ch; ic++) {
                                total += in[ic] * wt[ic];
                            }
                        }
                    }
                    x = total + (bias != 0 ? bias[oc] : 0.0f);
                    x = (x < p->act_min) ? p->act_min : x;
                    *output++ = (p->act_max < x) ? p->act_max : x;
                }
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_F32_H */
