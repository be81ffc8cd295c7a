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
#include "tinyaot_pool.h"

static void tinyaot_max_pool_s8(const struct tinyaot_pool_params *p, const int8_t *input, int8_t *output)
{
    const int32_t row_step = p->input_w * p->channels;
    int32_t b, oy, ox, c, y, x;

    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * row_step;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t rows, cols;
                const int8_t *window = in_image + tinyaot_pool_window(p, oy, ox, &rows, &cols);
                for (c = 0; c < p->channels; c++) {
                    const int8_t *in_row = window + c;
                    int32_t max = -128;
                    for (y = 0; y < rows; y++) {
                        const int8_t *in_tap = in_row;
                        for (x = 0; x < cols; x++) {
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
