/*
 * tinyaot_pool_s16.h - int16 AVERAGE_POOL_2D and MAX_POOL_2D (16x8).
 *
 * TFLM's reference_integer_ops::AveragePool and MaxPool for int16, which are
 * the int8 kernels' arithmetic on int16 values: the taps inside the input,
 * their int32 sum divided by their count rounding half away from zero (or
 * their maximum), clamped to the fused activation. No requantization.
 */
#ifndef TINYAOT_POOL_S16_H
#define TINYAOT_POOL_S16_H

#include "tinyaot_pool.h"

static void tinyaot_pool_s16(const struct tinyaot_pool_params *p, int32_t average, const int16_t *input,
                             int16_t *output)
{
    int32_t b, oy, ox, c, y, x;
    for (b = 0; b < p->batches; b++) {
        const int16_t *image = input + b * p->input_h * p->input_w * p->channels;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t rows, cols, count, half;
                const int16_t *window = image + tinyaot_pool_window(p, oy, ox, &rows, &cols);
                count = rows * cols;  /* >= 1: checked by the lowering */
                half = count / 2;
                for (c = 0; c < p->channels; c++) {
                    int32_t acc = average ? 0 : -32768;
                    for (y = 0; y < rows; y++) {
                        const int16_t *tap = window + y * p->input_w * p->channels + c;
                        for (x = 0; x < cols; x++) {
                            acc = average ? acc + *tap : (*tap > acc ? *tap : acc);
                            tap += p->channels;
                        }
                    }
                    if (average) {  /* C99 division truncates toward zero, as TFLM's does */
                        acc = acc > 0 ? (acc + half) / count : (acc - half) / count;
                    }
                    *output++ = (int16_t)tinyaot_clamp_i32(acc, p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_POOL_S16_H */
