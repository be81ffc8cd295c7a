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

/* filter: [output_ch][filter_h][filter_w][filter_ch]; bias may be NULL. */
static void tinyaot_conv2d_s8(const struct tinyaot_conv2d_params *p,
                              const int32_t *multiplier, const int32_t *shift,
                              const int8_t *input, const int8_t *filter,
                              const int32_t *bias, int8_t *output)
{
    const int32_t input_offset = p->input_offset;
    const int32_t filter_ch = p->filter_ch;
    const int32_t filters_per_group = p->filters_per_group;
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
    int32_t b, oy, ox, oc, g, k, fy, fx, ic;

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
                /* The first valid tap, channel 0. */
                const int8_t *window = in_image + (in_y * p->input_w + in_x) * p->input_ch;
                const int32_t tap_offset = fy_first * filter_row + fx_first * filter_ch;
                oc = 0;
                for (g = 0; g < p->groups; g++) {
                    const int8_t *group_window = window + g * filter_ch;
                    /* Two filters at a time, oc and oc1 (= oc + 1, or oc again for an odd
                       last one): each input value loaded serves both. */
                    for (k = 0; k < filters_per_group; k += 2, oc += 2) {
                        const int32_t oc1 = k + 1 < filters_per_group ? oc + 1 : oc;
                        const int8_t *in_row = group_window;
                        const int8_t *w_row0 = filter + oc * filter_size + tap_offset;
                        const int8_t *w_row1 = filter + oc1 * filter_size + tap_offset;
                        int32_t acc0 = 0, acc1 = 0;
                        for (fy = fy_first; fy < fy_end; fy++) {
                            const int8_t *in_tap = in_row;
                            const int8_t *w_tap0 = w_row0;
                            const int8_t *w_tap1 = w_row1;
                            for (fx = fx_first; fx < fx_end; fx++) {
                                for (ic = 0; ic < filter_ch; ic++) {
                                    const int32_t x = (int32_t)in_tap[ic] + input_offset;
                                    acc0 += (int32_t)w_tap0[ic] * x;
                                    acc1 += (int32_t)w_tap1[ic] * x;
                                }
                                in_tap += tap_step_x;
                                w_tap0 += filter_ch;
                                w_tap1 += filter_ch;
                            }
                            in_row += tap_step_y;
                            w_row0 += filter_row;
                            w_row1 += filter_row;
                        }
                        if (bias != NULL) {
                            acc0 += bias[oc];
                            acc1 += bias[oc1];
                        }
                        output[oc] = tinyaot_requantize_s8(acc0, multiplier[per_channel ? oc : 0],
                                                           shift[per_channel ? oc : 0], output_offset, act_min,
                                                           act_max);
                        output[oc1] = tinyaot_requantize_s8(acc1, multiplier[per_channel ? oc1 : 0],
                                                            shift[per_channel ? oc1 : 0], output_offset, act_min,
                                                            act_max);
                    }
                    oc = (g + 1) * filters_per_group;
                }
                output += p->output_ch;
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_S8_H */
