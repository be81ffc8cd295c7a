/*
 * tinyaot_pool_s16.h - int16 AVERAGE_POOL_2D and MAX_POOL_2D (16x8).
 *
 * TFLM's reference_integer_ops::AveragePool and MaxPool for int16, which are
 * the int8 kernels' arithmetic on int16 values: the taps inside the input,
 * their int32 sum divided by their count rounding half away from zero (or
 * their maximum), clamped to the fused activation. No requantization.
 *
 * Each kind has its own loops (average a constant once inlined), and two
 * channels go through a window together: one pass of the tap pointer serves
 * both.
 */
#ifndef TINYAOT_POOL_S16_H
#define TINYAOT_POOL_S16_H

#include "tinyaot_pool.h"

/* The sum or maximum of one channel's window, or two adjacent channels' (pair: a constant). */
static TINYAOT_ALWAYS_INLINE void tinyaot_pool_s16_window(const int16_t *window, int32_t rows, int32_t cols,
                                                          int32_t channels, int32_t row_step, int32_t average,
                                                          int32_t pair, int32_t acc[2])
{
    int32_t a0 = average ? 0 : -32768, a1 = a0;  /* named: in registers */
    int32_t y, x;
    for (y = rows; y > 0; y--) {
        const int16_t *tap = window;
        for (x = cols; x > 0; x--) {
            if (average) {
                a0 += tap[0];
                a1 += pair ? tap[1] : 0;
            } else {
                a0 = tap[0] > a0 ? tap[0] : a0;
                a1 = pair && tap[1] > a1 ? tap[1] : a1;
            }
            tap += channels;
        }
        window += row_step;
    }
    acc[0] = a0;
    acc[1] = a1;
}

/* acc's value as TFLM's pools write it: the mean over count taps (C99 division truncates
   toward zero, as TFLM's does) or the maximum, clamped. */
static TINYAOT_ALWAYS_INLINE int16_t tinyaot_pool_s16_value(const struct tinyaot_pool_params *p, int32_t average,
                                                            int32_t acc, int32_t count, int32_t half)
{
    if (average) {
        acc = acc > 0 ? (acc + half) / count : (acc - half) / count;
    }
    return (int16_t)tinyaot_clamp_i32(acc, p->act_min, p->act_max);
}

static TINYAOT_ALWAYS_INLINE void tinyaot_pool_s16_of(const struct tinyaot_pool_params *p, int32_t average,
                                                      const int16_t *input, int16_t *output)
{
    const int32_t channels = p->channels, row_step = p->input_w * channels;
    int32_t b, oy, ox, c;
    for (b = 0; b < p->batches; b++) {
        const int16_t *image = input + b * p->input_h * row_step;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t rows, cols, count, half, acc[2];
                const int16_t *window = image + tinyaot_pool_window(p, oy, ox, &rows, &cols);
                count = rows * cols;  /* >= 1: checked by the lowering */
                half = count / 2;
                for (c = 0; c + 2 <= channels; c += 2) {
                    tinyaot_pool_s16_window(window + c, rows, cols, channels, row_step, average, 1, acc);
                    output[0] = tinyaot_pool_s16_value(p, average, acc[0], count, half);
                    output[1] = tinyaot_pool_s16_value(p, average, acc[1], count, half);
                    output += 2;
                }
                if (c < channels) {
                    tinyaot_pool_s16_window(window + c, rows, cols, channels, row_step, average, 0, acc);
                    *output++ = tinyaot_pool_s16_value(p, average, acc[0], count, half);
                }
            }
        }
    }
}

static void tinyaot_pool_s16(const struct tinyaot_pool_params *p, int32_t average, const int16_t *input,
                             int16_t *output)
{
    if (average) {
        tinyaot_pool_s16_of(p, 1, input, output);
    } else {
        tinyaot_pool_s16_of(p, 0, input, output);
    }
}

#endif /* TINYAOT_POOL_S16_H */
