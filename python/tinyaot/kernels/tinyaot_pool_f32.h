/*
 * tinyaot_pool_f32.h - float32 AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D.
 *
 * TFLM's float reference_ops::AveragePool, MaxPool and L2Pool operation for
 * operation: the window clamped to the image, the taps (L2: their squares)
 * summed from 0.0f row by row and divided by the tap count as a float (L2: then
 * sqrtf, exact everywhere), or folded with max = (max < v) ? v : max from
 * -FLT_MAX (std::max); then min(max(x, lo), hi). Max pooling does no float
 * arithmetic, and its compares work on the bits where they would be soft-float
 * calls (tinyaot_f32_compare.h: 150 -> 22 instructions a tap on the Cortex-M3).
 */
#ifndef TINYAOT_POOL_F32_H
#define TINYAOT_POOL_F32_H

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "tinyaot_f32_compare.h"

#define TINYAOT_POOL_F32_MAX 0
#define TINYAOT_POOL_F32_AVERAGE 1
#define TINYAOT_POOL_F32_L2 2

struct tinyaot_pool_f32_params {
    int32_t batches;
    int32_t input_h, input_w, channels;
    int32_t filter_h, filter_w;
    int32_t output_h, output_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;  /* top and left padding */
    int32_t kind;          /* TINYAOT_POOL_F32_MAX, _AVERAGE or _L2 */
    float act_min;
    float act_max;
};

static void tinyaot_pool_f32(const struct tinyaot_pool_f32_params *p, const float *input, float *output)
{
    int32_t b, oy, ox, c, y, x;
    for (b = 0; b < p->batches; b++) {
        const float *image = input + b * p->input_h * p->input_w * p->channels;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            const int32_t y_start = y0 < 0 ? 0 : y0;
            const int32_t y_end = y0 + p->filter_h < p->input_h ? y0 + p->filter_h : p->input_h;
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                const int32_t x_start = x0 < 0 ? 0 : x0;
                const int32_t x_end = x0 + p->filter_w < p->input_w ? x0 + p->filter_w : p->input_w;
                for (c = 0; c < p->channels; c++) {
                    float total = 0.0f, count = 0.0f, max = -FLT_MAX, v;
                    for (y = y_start; y < y_end; y++) {
                        for (x = x_start; x < x_end; x++) {
                            v = image[(y * p->input_w + x) * p->channels + c];
                            if (p->kind == TINYAOT_POOL_F32_MAX) {
                                max = tinyaot_f32_max(max, v);
                            } else {
                                total += p->kind == TINYAOT_POOL_F32_L2 ? v * v : v;
                                count += 1.0f;
                            }
                        }
                    }
                    v = p->kind == TINYAOT_POOL_F32_MAX ? max
                        : p->kind == TINYAOT_POOL_F32_AVERAGE ? total / count : sqrtf(total / count);
                    *output++ = tinyaot_f32_clamp(v, p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_POOL_F32_H */
