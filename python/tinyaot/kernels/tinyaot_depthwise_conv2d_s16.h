/*
 * tinyaot_depthwise_conv2d_s16.h - 16x8 DEPTHWISE_CONV_2D: int16 input and
 * output (zero point 0), int8 weights (per channel), int64 bias.
 *
 * TFLM's reference_integer_ops::DepthwiseConvPerChannel for int16: per output
 * channel oc = ic * depth_multiplier + m the products over filter rows then
 * columns (taps in the padding skipped), plus the bias, rescaled per channel
 * and clamped (see tinyaot_s16.h for the sum's width and the modes).
 *
 * Each pixel's window is clipped to the input once (not tap by tap), and where
 * the sums are 32-bit four adjacent output channels are summed a step: their
 * weights are adjacent, and their inputs four adjacent channels (multiplier
 * 1), two (multiplier 2) or one (a multiple of 4), each value loaded serving
 * every output that reads it.
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_S16_H
#define TINYAOT_DEPTHWISE_CONV2D_S16_H

#include "tinyaot_s16.h"

struct tinyaot_depthwise_conv2d_s16_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t depth_multiplier;
    int32_t output_h, output_w;  /* output channels: input_ch x depth_multiplier */
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;  /* top and left padding */
    int32_t act_min, act_max;
    int32_t mode;   /* TINYAOT_S16_BIAS64, _FOLDED or _FOLDED_MID (tinyaot_s16.h) */
    int32_t sum32;  /* 1: the products' sum is taken in 32 bits (see tinyaot_s16.h) */
};

/* A pixel's window clipped to the input: rows x cols taps, in at the first one's
   channel 0, w at its weights; steps from tap to tap (x) and row to row (y). */
struct tinyaot_depthwise_s16_window {
    const int16_t *in;
    const int8_t *w;
    int32_t rows, cols, in_x, in_y, w_x, w_y;
};

/*
 * Four adjacent output channels' sums over the window, added to acc: lane k
 * reads in[o_k] (o_0 = 0; constants once inlined, so a lane sharing its
 * input with the one before reuses the load). Unsigned: the lowering proved
 * the sums stay in int32.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_s16_window4(const struct tinyaot_depthwise_s16_window *win,
                                                                const int16_t *in, const int8_t *w, int32_t o1,
                                                                int32_t o2, int32_t o3, uint32_t acc[4])
{
    uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];  /* named: in registers */
    const int32_t cols = win->cols, in_x = win->in_x, w_x = win->w_x;
    int32_t fy, fx;
    for (fy = win->rows; fy > 0; fy--) {
        const int16_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = cols; fx > 0; fx--) {
            a0 += (uint32_t)((int32_t)w_tap[0] * in_tap[0]);
            a1 += (uint32_t)((int32_t)w_tap[1] * in_tap[o1]);
            a2 += (uint32_t)((int32_t)w_tap[2] * in_tap[o2]);
            a3 += (uint32_t)((int32_t)w_tap[3] * in_tap[o3]);
            in_tap += in_x;
            w_tap += w_x;
        }
        in += win->in_y;
        w += win->w_y;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* One output channel's sum over the window (in and w at its input channel and weight):
   32-bit where the lowering proved it fits, else int64 as TFLM's. */
static int64_t tinyaot_depthwise_s16_window1(const struct tinyaot_depthwise_s16_window *win, const int16_t *in,
                                             const int8_t *w, int32_t sum32)
{
    int64_t sum64 = 0;
    uint32_t sum = 0;
    int32_t fy, fx;
    for (fy = win->rows; fy > 0; fy--) {
        if (sum32) {
            for (fx = 0; fx < win->cols; fx++) {
                sum += (uint32_t)((int32_t)w[fx * win->w_x] * in[fx * win->in_x]);
            }
        } else {
            for (fx = 0; fx < win->cols; fx++) {
                sum64 += (int32_t)w[fx * win->w_x] * in[fx * win->in_x];
            }
        }
        in += win->in_y;
        w += win->w_y;
    }
    return sum32 ? (int64_t)(int32_t)sum : sum64;
}

static int16_t tinyaot_depthwise_s16_output(const struct tinyaot_depthwise_conv2d_s16_params *p,
                                            const int32_t *multipliers, const int32_t *shifts, const void *bias,
                                            int64_t sum, int32_t oc)
{
    return tinyaot_s16_output(p->mode, sum, bias, oc, multipliers[oc], shifts[oc], p->act_min, p->act_max);
}

/* Output channel oc's value from its sum: FOLDED_MID's rescale inline, the other modes' called. */
static TINYAOT_ALWAYS_INLINE int16_t tinyaot_depthwise_s16_value(const struct tinyaot_depthwise_conv2d_s16_params *p,
                                                                 const int32_t *multipliers, const int32_t *shifts,
                                                                 const void *bias, int64_t sum, int32_t oc)
{
    if (p->mode == TINYAOT_S16_FOLDED_MID) {
        return tinyaot_s16_output_mid((int32_t)sum, (const int32_t *)bias, oc, multipliers[oc], shifts[oc], p->act_min,
                                      p->act_max);
    }
    return tinyaot_depthwise_s16_output(p, multipliers, shifts, bias, sum, oc);
}

/* Output channels [oc, oc + 4) of one pixel, lane k reading input channel in + o_k. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_s16_quad(const struct tinyaot_depthwise_conv2d_s16_params *p,
                                                             const struct tinyaot_depthwise_s16_window *win,
                                                             const int32_t *multipliers, const int32_t *shifts,
                                                             const void *bias, const int16_t *in, int32_t o1,
                                                             int32_t o2, int32_t o3, int32_t oc, int16_t *out)
{
    uint32_t acc[4] = {0, 0, 0, 0};
    int32_t k;
    tinyaot_depthwise_s16_window4(win, in, win->w + oc, o1, o2, o3, acc);
    for (k = 0; k < 4; k++) {
        out[oc + k] = tinyaot_depthwise_s16_value(p, multipliers, shifts, bias, (int32_t)acc[k], oc + k);
    }
}

/* Every output channel of the pixel whose clipped window is win. */
static void tinyaot_depthwise_s16_pixel(const struct tinyaot_depthwise_conv2d_s16_params *p,
                                        const struct tinyaot_depthwise_s16_window *win, const int32_t *multipliers,
                                        const int32_t *shifts, const void *bias, int16_t *out)
{
    const int32_t mult = p->depth_multiplier, out_ch = p->input_ch * mult;
    int32_t oc = 0, ic, m;  /* oc: the output channels done */
    if (p->sum32 && mult == 1) {
        for (; oc + 4 <= out_ch; oc += 4) {
            tinyaot_depthwise_s16_quad(p, win, multipliers, shifts, bias, win->in + oc, 1, 2, 3, oc, out);
        }
    } else if (p->sum32 && mult == 2) {
        for (; oc + 4 <= out_ch; oc += 4) {
            tinyaot_depthwise_s16_quad(p, win, multipliers, shifts, bias, win->in + (oc >> 1), 0, 1, 1, oc, out);
        }
    } else if (p->sum32 && mult % 4 == 0) {
        for (ic = 0; ic < p->input_ch; ic++) {
            for (m = 0; m < mult; m += 4, oc += 4) {
                tinyaot_depthwise_s16_quad(p, win, multipliers, shifts, bias, win->in + ic, 0, 0, 0, oc, out);
            }
        }
    }
    /* The rest one by one, output channel oc the m-th of input channel ic's (no division:
       Armv6-M has none in hardware; quads of multiplier 4k left no rest). */
    ic = mult == 1 ? oc : oc >> 1;
    for (m = oc - ic * mult; oc < out_ch; oc++) {
        out[oc] = tinyaot_depthwise_s16_value(
            p, multipliers, shifts, bias, tinyaot_depthwise_s16_window1(win, win->in + ic, win->w + oc, p->sum32), oc);
        if (++m == mult) {
            m = 0;
            ic++;
        }
    }
}

static void tinyaot_depthwise_conv2d_s16(const struct tinyaot_depthwise_conv2d_s16_params *p,
                                         const int32_t *multipliers, const int32_t *shifts, const int16_t *input,
                                         const int8_t *filter, const void *bias, int16_t *output)
{
    const int32_t out_ch = p->input_ch * p->depth_multiplier;
    struct tinyaot_depthwise_s16_window win;
    int32_t b, oy, ox;
    win.in_x = p->dilation_w * p->input_ch;
    win.in_y = p->dilation_h * p->input_w * p->input_ch;
    win.w_x = out_ch;
    win.w_y = p->filter_w * out_ch;
    for (b = 0; b < p->batches; b++) {
        const int16_t *image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            int32_t fy_first, fy_end;
            const int32_t y = tinyaot_window(oy * p->stride_h - p->pad_h, p->dilation_h, p->filter_h, p->input_h,
                                             &fy_first, &fy_end);
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t fx_first, fx_end;
                const int32_t x = tinyaot_window(ox * p->stride_w - p->pad_w, p->dilation_w, p->filter_w,
                                                 p->input_w, &fx_first, &fx_end);
                win.rows = fy_end - fy_first;
                win.cols = fx_end - fx_first;
                if (win.rows > 0 && win.cols > 0) {
                    win.in = image + (y * p->input_w + x) * p->input_ch;
                    win.w = filter + (fy_first * p->filter_w + fx_first) * out_ch;
                } else {  /* the window lies in the padding: nothing is read */
                    win.rows = 0;
                    win.in = image;
                    win.w = filter;
                }
                tinyaot_depthwise_s16_pixel(p, &win, multipliers, shifts, bias, output);
                output += out_ch;
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S16_H */
