/*
 * tinyaot_conv2d_s8.h - int8 2-D convolution (NHWC input, OHWI filter).
 *
 * Matches TFLM's reference_integer_ops::ConvPerChannel, grouped convolution
 * included: out = requant(sum(w * (in - in_zp)) + bias), clamped to the fused
 * activation. Taps outside the input are skipped (zero padding in real terms).
 */
#ifndef TINYAOT_CONV2D_S8_H
#define TINYAOT_CONV2D_S8_H

#include "tinyaot_common.h"

struct tinyaot_conv2d_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t filter_ch;          /* input channels each filter sees (input_ch / groups) */
    int32_t groups;             /* 1 for an ordinary convolution */
    int32_t filters_per_group;  /* output_ch / groups */
    int32_t output_h, output_w, output_ch;
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;       /* top and left padding */
    int32_t input_offset;       /* -input zero point */
    int32_t output_offset;      /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;        /* 1: multiplier/shift per output channel, 0: one for all */
};

/*
 * Four filters' sums of w * (x + input_offset) over a window of rows x cols taps,
 * added to acc: in points at the first tap, w at its four weights for input
 * channel 0 ([taps][filter_ch][4] from there). Each input value loaded serves four
 * products.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_window4(const int8_t *in, const int8_t *w, int32_t rows,
                                                         int32_t cols, int32_t filter_ch, int32_t input_offset,
                                                         int32_t in_x, int32_t in_y, int32_t w_y, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t fy, fx, ic;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = cols; fx > 0; fx--) {
            for (ic = 0; ic < filter_ch; ic++) {
                const int32_t x = (int32_t)in_tap[ic] + input_offset;
                a0 += (int32_t)w_tap[0] * x;
                a1 += (int32_t)w_tap[1] * x;
                a2 += (int32_t)w_tap[2] * x;
                a3 += (int32_t)w_tap[3] * x;
                w_tap += 4;
            }
            in_tap += in_x;
        }
        in += in_y;
        w += w_y;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* One filter's sum of w * (x + input_offset) over a window, w a plain [taps][filter_ch] row. */
static int32_t tinyaot_conv2d_window1(const int8_t *in, const int8_t *w, int32_t rows, int32_t cols,
                                      int32_t filter_ch, int32_t input_offset, int32_t in_x, int32_t in_y,
                                      int32_t w_y)
{
    int32_t acc = 0;
    int32_t fy, fx, ic;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = cols; fx > 0; fx--) {
            for (ic = 0; ic < filter_ch; ic++) {
                acc += (int32_t)w_tap[ic] * ((int32_t)in_tap[ic] + input_offset);
            }
            in_tap += in_x;
            w_tap += filter_ch;
        }
        in += in_y;
        w += w_y;
    }
    return acc;
}

/*
 * filter: in each group, each block of four filters as [filter_h][filter_w][filter_ch][4]
 * (re-laid out by the lowering), the filters_per_group % 4 left as plain
 * [filter_h][filter_w][filter_ch] rows; bias may be NULL. Output pixel by pixel,
 * each block written after it has read the pixel's window.
 */
static void tinyaot_conv2d_s8(const struct tinyaot_conv2d_params *p,
                              const int32_t *multiplier, const int32_t *shift,
                              const int8_t *input, const int8_t *filter,
                              const int32_t *bias, int8_t *output)
{
    const int32_t input_offset = p->input_offset;
    const int32_t filter_ch = p->filter_ch;
    const int32_t filters_per_group = p->filters_per_group;
    const int32_t blocked = filters_per_group - filters_per_group % 4;
    /* Distance in the input between horizontally and vertically adjacent taps. */
    const int32_t tap_step_x = p->dilation_w * p->input_ch;
    const int32_t tap_step_y = p->dilation_h * p->input_w * p->input_ch;
    const int32_t filter_row = p->filter_w * filter_ch;
    const int32_t filter_size = p->filter_h * filter_row;
    /* Locals, not p->...: output is int8_t, which may alias anything, so the
       compiler would reload every field of p after each output store. */
    const int32_t output_offset = p->output_offset;
    const int32_t act_min = p->act_min, act_max = p->act_max;
    const int32_t per_channel = p->per_channel;
    int32_t b, oy, ox, oc, g, k, j;

    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            int32_t fy_first, fy_end;
            const int32_t in_y = tinyaot_window(oy * p->stride_h - p->pad_h, p->dilation_h, p->filter_h,
                                                p->input_h, &fy_first, &fy_end);
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t fx_first, fx_end;
                const int32_t in_x = tinyaot_window(ox * p->stride_w - p->pad_w, p->dilation_w, p->filter_w,
                                                    p->input_w, &fx_first, &fx_end);
                const int32_t rows = fy_end - fy_first, cols = fx_end - fx_first;
                /* The first valid tap, channel 0, and where its weights start in a filter. */
                const int8_t *window = in_image + (in_y * p->input_w + in_x) * p->input_ch;
                const int32_t tap_offset = fy_first * filter_row + fx_first * filter_ch;
                oc = 0;
                for (g = 0; g < p->groups; g++) {
                    const int8_t *group_window = window + g * filter_ch;
                    for (k = 0; k < blocked; k += 4, oc += 4) {
                        int32_t acc[4];
                        for (j = 0; j < 4; j++) {
                            acc[j] = bias != NULL ? bias[oc + j] : 0;
                        }
                        tinyaot_conv2d_window4(group_window, filter + oc * filter_size + 4 * tap_offset, rows, cols,
                                               filter_ch, input_offset, tap_step_x, tap_step_y, 4 * filter_row,
                                               acc);
                        for (j = 0; j < 4; j++) {
                            const int32_t ch = per_channel ? oc + j : 0;
                            output[oc + j] = tinyaot_requantize_s8(acc[j], multiplier[ch], shift[ch], output_offset,
                                                                   act_min, act_max);
                        }
                    }
                    for (; k < filters_per_group; k++, oc++) {
                        const int32_t ch = per_channel ? oc : 0;
                        const int32_t acc = (bias != NULL ? bias[oc] : 0) +
                                            tinyaot_conv2d_window1(group_window, filter + oc * filter_size + tap_offset,
                                                                   rows, cols, filter_ch, input_offset, tap_step_x,
                                                                   tap_step_y, filter_row);
                        output[oc] = tinyaot_requantize_s8(acc, multiplier[ch], shift[ch], output_offset, act_min,
                                                           act_max);
                    }
                }
                output += p->output_ch;
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_S8_H */
