/*
 * tinyaot_depthwise_conv2d_s8.h - int8 depthwise 2-D convolution (NHWC input,
 * 1HWO filter).
 *
 * Matches TFLM's reference_integer_ops::DepthwiseConvPerChannel: output channel
 * c * depth_multiplier + m filters input channel c alone. Taps outside the
 * input are skipped (zero padding in real terms).
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_S8_H
#define TINYAOT_DEPTHWISE_CONV2D_S8_H

#include "tinyaot_common.h"

struct tinyaot_depthwise_conv2d_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t depth_multiplier;   /* output_ch = input_ch * depth_multiplier */
    int32_t output_h, output_w;
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
 * The sums of two output channels' weights (w0, w1 point at their first) over the
 * taps outside [fy_first, fy_end) x [fx_first, fx_end): what the folded bias
 * counts for the taps TFLM skips at the border. Visits only those taps, both
 * channels in one walk to halve the loop overhead.
 */
static void tinyaot_depthwise_outside_sums(const struct tinyaot_depthwise_conv2d_params *p,
                                           const int8_t *w0, const int8_t *w1, int32_t output_ch,
                                           int32_t fy_first, int32_t fy_end, int32_t fx_first, int32_t fx_end,
                                           int32_t *sum0, int32_t *sum1)
{
    const int32_t filter_row = p->filter_w * output_ch;
    int32_t s0 = 0, s1 = 0;
    int32_t fy, fx;
    for (fy = 0; fy < p->filter_h; fy++) {
        /* A row outside is skipped whole; a row inside only left and right of the window. */
        const int row_inside = fy >= fy_first && fy < fy_end;
        const int32_t left_end = row_inside ? fx_first : p->filter_w;
        const int32_t right_first = row_inside ? fx_end : p->filter_w;
        for (fx = 0; fx < left_end; fx++) {
            s0 += w0[fx * output_ch];
            s1 += w1[fx * output_ch];
        }
        for (fx = right_first; fx < p->filter_w; fx++) {
            s0 += w0[fx * output_ch];
            s1 += w1[fx * output_ch];
        }
        w0 += filter_row;
        w1 += filter_row;
    }
    *sum0 = s0;
    *sum1 = s1;
}

/*
 * The nine taps of a 3x3 window (dilation 1) for one channel, unrolled: the
 * common depthwise filter, away from the border, with no loop overhead.
 * in_x/in_y: distance between horizontally/vertically adjacent taps in the
 * input; w_x/w_y: the same in the filter.
 */
static inline int32_t tinyaot_depthwise_3x3_sum(const int8_t *in, const int8_t *w, int32_t in_x, int32_t in_y,
                                                int32_t w_x, int32_t w_y)
{
    int32_t acc = (int32_t)w[0] * in[0] + (int32_t)w[w_x] * in[in_x] + (int32_t)w[2 * w_x] * in[2 * in_x];
    in += in_y;
    w += w_y;
    acc += (int32_t)w[0] * in[0] + (int32_t)w[w_x] * in[in_x] + (int32_t)w[2 * w_x] * in[2 * in_x];
    in += in_y;
    w += w_y;
    acc += (int32_t)w[0] * in[0] + (int32_t)w[w_x] * in[in_x] + (int32_t)w[2 * w_x] * in[2 * in_x];
    return acc;
}

/*
 * filter: [filter_h][filter_w][output_ch]. bias: bias + input_offset * sum(w) per
 * output channel, folded by the lowering (never NULL), so the taps add plain
 * w * x; at the border the part of the fold for skipped taps is taken back.
 */
static void tinyaot_depthwise_conv2d_s8(const struct tinyaot_depthwise_conv2d_params *p,
                                        const int32_t *multiplier, const int32_t *shift,
                                        const int8_t *input, const int8_t *filter,
                                        const int32_t *bias, int8_t *output)
{
    const int32_t input_offset = p->input_offset;
    const int32_t mult = p->depth_multiplier;
    const int32_t output_ch = p->input_ch * mult;
    /* Distance in the input between horizontally and vertically adjacent taps,
       and in the filter between adjacent taps and rows. */
    const int32_t tap_step_x = p->dilation_w * p->input_ch;
    const int32_t tap_step_y = p->dilation_h * p->input_w * p->input_ch;
    const int32_t filter_row = p->filter_w * output_ch;
    const int is_3x3 = p->filter_h == 3 && p->filter_w == 3 && p->dilation_h == 1 && p->dilation_w == 1;
    /* Locals, not p->...: output is int8_t, which may alias anything, so the
       compiler would reload every field of p after each output store. */
    const int32_t output_offset = p->output_offset;
    const int32_t act_min = p->act_min, act_max = p->act_max;
    const int32_t per_channel = p->per_channel;
    int32_t b, oy, ox, ic, m, oc, fy, fx;

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
                const int32_t rows = fy_end - fy_first;
                const int32_t cols = fx_end - fx_first;
                const int border = rows != p->filter_h || cols != p->filter_w;
                /* The first valid tap, channel 0, in the input and in the filter. */
                const int8_t *window = in_image + (in_y * p->input_w + in_x) * p->input_ch;
                const int8_t *w_window = filter + fy_first * filter_row + fx_first * output_ch;
                /* Two output channels at a time, oc and oc1 (= oc + 1, or oc again for
                   an odd last one); ic and m say which input channel oc reads. */
                ic = 0;
                m = 0;
                for (oc = 0; oc < output_ch; oc += 2) {
                    const int32_t oc1 = oc + 1 < output_ch ? oc + 1 : oc;
                    const int8_t *in_row0 = window + ic;
                    const int32_t ic1 = m + 1 < mult || oc1 == oc ? ic : ic + 1;
                    const int8_t *in_row1 = window + ic1;
                    const int8_t *w_row0 = w_window + oc;
                    const int8_t *w_row1 = w_window + oc1;
                    int32_t acc0 = bias[oc];
                    int32_t acc1 = bias[oc1];
                    if (is_3x3 && !border) {
                        acc0 += tinyaot_depthwise_3x3_sum(in_row0, w_row0, tap_step_x, tap_step_y, output_ch,
                                                          filter_row);
                        acc1 += tinyaot_depthwise_3x3_sum(in_row1, w_row1, tap_step_x, tap_step_y, output_ch,
                                                          filter_row);
                    } else {
                        for (fy = rows; fy > 0; fy--) {
                            int32_t in_tap = 0, w_tap = 0;
                            /* Counting down frees the register cols would hold: 7% fewer instructions on Cortex-M3. */
                            for (fx = cols; fx > 0; fx--) {
                                acc0 += (int32_t)w_row0[w_tap] * in_row0[in_tap];
                                acc1 += (int32_t)w_row1[w_tap] * in_row1[in_tap];
                                in_tap += tap_step_x;
                                w_tap += output_ch;
                            }
                            in_row0 += tap_step_y;
                            in_row1 += tap_step_y;
                            w_row0 += filter_row;
                            w_row1 += filter_row;
                        }
                    }
                    if (border) {
                        int32_t outside0, outside1;
                        tinyaot_depthwise_outside_sums(p, filter + oc, filter + oc1, output_ch, fy_first, fy_end,
                                                       fx_first, fx_end, &outside0, &outside1);
                        acc0 -= input_offset * outside0;
                        acc1 -= input_offset * outside1;
                    }
                    output[oc] = tinyaot_requantize_s8(acc0, multiplier[per_channel ? oc : 0],
                                                       shift[per_channel ? oc : 0], output_offset, act_min, act_max);
                    output[oc1] = tinyaot_requantize_s8(acc1, multiplier[per_channel ? oc1 : 0],
                                                        shift[per_channel ? oc1 : 0], output_offset, act_min,
                                                        act_max);
                    for (m += 2; m >= mult; m -= mult) {
                        ic++;
                    }
                }
                output += output_ch;
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S8_H */
