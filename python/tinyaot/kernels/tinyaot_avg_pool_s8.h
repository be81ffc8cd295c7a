/*
 * tinyaot_avg_pool_s8.h - int8 2-D average pooling (NHWC).
 *
 * Matches TFLM's reference_integer_ops::AveragePool: the mean of the window's
 * taps that lie inside the input (padding is not counted), rounded half away
 * from zero, clamped to the fused activation. Input and output share scale and
 * zero point, so there is no requantization.
 */
#ifndef TINYAOT_AVG_POOL_S8_H
#define TINYAOT_AVG_POOL_S8_H

#include "tinyaot_common.h"
#include "tinyaot_pool.h"

static void tinyaot_avg_pool_s8(const struct tinyaot_pool_params *p, const int8_t *input, int8_t *output)
{
    const int32_t row_step = p->input_w * p->channels;
    int32_t b, oy, ox, c, y, x;

    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * row_step;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t rows, cols, count, half;
                const int8_t *window = in_image + tinyaot_pool_window(p, oy, ox, &rows, &cols);
                count = rows * cols; /* >= 1: the lowering checked that no window is empty */
                half = count / 2;
                for (c = 0; c < p->channels; c++) {
                    const int8_t *in_row = window + c;
                    int32_t acc = 0;
                    for (y = 0; y < rows; y++) {
                        const int8_t *in_tap = in_row;
                        for (x = 0; x < cols; x++) {
                            acc += *in_tap;
                            in_tap += p->channels;
                        }
                        in_row += row_step;
                    }
                    /* C99 division truncates toward zero, as TFLM's does. */
                    acc = acc > 0 ? (acc + half) / count : (acc - half) / count;
                    *output++ = (int8_t)tinyaot_clamp_i32(acc, p->act_min, p->act_max);
                }
            }
        }
    }
}

#endif /* TINYAOT_AVG_POOL_S8_H */
