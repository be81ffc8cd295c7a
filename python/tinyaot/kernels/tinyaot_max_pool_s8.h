/*
 * tinyaot_max_pool_s8.h - int8 2-D max pooling (NHWC).
 *
 * Matches TFLM's reference_integer_ops::MaxPool: the largest of the window's
 * taps that lie inside the input, clamped to the fused activation. Input and
 * output share scale and zero point, so there is no requantization.
 */
#ifndef TINYAOT_MAX_POOL_S8_H
#define TINYAOT_MAX_POOL_S8_H

#include "tinyaot_common.h"

struct tinyaot_max_pool_params {
    int32_t batches;
    int32_t input_h, input_w, channels;
    int32_t filter_h, filter_w;
    int32_t output_h, output_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;       /* top and left padding */
    int32_t act_min;
    int32_t act_max;
};

static void tinyaot_max_pool_s8(const struct tinyaot_max_pool_params *p, const int8_t *input, int8_t *output)
{
    const int32_t row_step = p->input_w * p->channels;
    int32_t b, oy, ox, c, fy, fx;

    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * row_step;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t in_y0 = oy * p->stride_h - p->pad_h;
            int32_t fy_first, fy_end;
            tinyaot_window(in_y0, 1, p->filter_h, p->input_h, &fy_first, &fy_end);
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t in_x0 = ox * p->stride_w - p->pad_w;
                int32_t fx_first, fx_end;
                const int8_t *window; /* first valid tap, channel 0 */
                tinyaot_window(in_x0, 1, p->filter_w, p->input_w, &fx_first, &fx_end);
                window = in_image + (in_y0 + fy_first) * row_step + (in_x0 + fx_first) * p->channels;
                for (c = 0; c < p->channels; c++) {
                    const int8_t *in_row = window + c;
                    int32_t max = -128;
                    for (fy = fy_first; fy < fy_end; fy++) {
                        const int8_t *in_tap = in_row;
                        for (fx = fx_first; fx < fx_end; fx++) {
                            max = tinyaot_max_i32(max, *in_tap);
                            in_tap += p->channels;
                        }
                        in_row += row_step;
                    }
                    *output++ = (int8_t)tinyaot_clamp_i32(max, p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_MAX_POOL_S8_H */
