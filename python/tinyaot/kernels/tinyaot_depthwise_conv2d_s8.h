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

#include "tinyaot_depthwise_conv2d_params.h"

/*
 * Four adjacent output channels' sums of w * (x + offset) over a window of rows
 * x cols taps, added to acc. w points at their first weights; in at the input
 * they read: four adjacent channels (in_step 1, depth multiplier 1) or one
 * channel all four share (in_step 0). offset: 0 where the bias has the input
 * offset folded in, else the input offset. Always inlined, so each in_step and
 * offset gets its own loop: one input load per tap serves all four when they
 * share it, and a 0 offset costs nothing.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_window4(const int8_t *in, const int8_t *w, int32_t in_step,
                                                            int32_t rows, int32_t cols, int32_t in_x,
                                                            int32_t in_y, int32_t w_x, int32_t w_y,
                                                            int32_t offset, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t fy, fx;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = cols; fx > 0; fx--) {
            a0 += (int32_t)w_tap[0] * (in_tap[0] + offset);
            a1 += (int32_t)w_tap[1] * (in_tap[in_step] + offset);
            a2 += (int32_t)w_tap[2] * (in_tap[2 * in_step] + offset);
            a3 += (int32_t)w_tap[3] * (in_tap[3 * in_step] + offset);
            in_tap += in_x;
            w_tap += w_x;
        }
        in += in_y;
        w += w_y;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/*
 * The window of four outputs sharing one input channel (depth multiplier 4k),
 * a function of its own on Armv6-M and Armv8-M Baseline (Cortex-M0/M0+/M23):
 * inlined into the pixel loop, whose own variables hold most of their eight
 * low registers, its sums spilled to the stack (33 instructions per tap, 25
 * here).
 */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
static TINYAOT_NOINLINE
#else
static TINYAOT_ALWAYS_INLINE
#endif
void tinyaot_depthwise_window4_shared(const int8_t *in, const int8_t *w, int32_t rows, int32_t cols, int32_t in_x,
                                      int32_t in_y, int32_t w_x, int32_t w_y, int32_t offset, int32_t acc[4])
{
    tinyaot_depthwise_window4(in, w, 0, rows, cols, in_x, in_y, w_x, w_y, offset, acc);
}

/* One output channel's sum of w * (x + offset) over a window of rows x cols taps. */
static int32_t tinyaot_depthwise_window1(const int8_t *in, const int8_t *w, int32_t rows, int32_t cols,
                                         int32_t in_x, int32_t in_y, int32_t w_x, int32_t w_y, int32_t offset)
{
    int32_t acc = 0;
    int32_t fy, fx;
    for (fy = rows; fy > 0; fy--) {
        for (fx = 0; fx < cols; fx++) {
            acc += (int32_t)w[fx * w_x] * (in[fx * in_x] + offset);
        }
        in += in_y;
        w += w_y;
    }
    return acc;
}

/* folded - input_offset * sum, wrapping as the lowering wrapped the fold. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_depthwise_unfold(int32_t folded, int32_t input_offset, int32_t sum)
{
    return (int32_t)((uint32_t)folded - (uint32_t)(input_offset * sum));
}

/*
 * The bias as the model has it of n (4, or 1) adjacent channels from c (even
 * for 4) into acc: the folded one less input_offset times the sum of the
 * channel's weights, stored after the folded bias (output_ch values) as int16
 * pairs in int32 words, the even channel in the low half.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_plain_bias(const int32_t *bias, int32_t output_ch,
                                                               int32_t input_offset, int32_t c, int32_t n,
                                                               int32_t acc[4])
{
    const uint32_t *pairs = (const uint32_t *)bias + output_ch + (c >> 1);
    /* Written out, not looped: GCC kept a loop over a stack array of the sums. */
    if (n == 4) {
        const uint32_t p0 = pairs[0], p1 = pairs[1];
        acc[0] = tinyaot_depthwise_unfold(bias[c], input_offset, (int32_t)(p0 << 16) >> 16);
        acc[1] = tinyaot_depthwise_unfold(bias[c + 1], input_offset, (int32_t)p0 >> 16);
        acc[2] = tinyaot_depthwise_unfold(bias[c + 2], input_offset, (int32_t)(p1 << 16) >> 16);
        acc[3] = tinyaot_depthwise_unfold(bias[c + 3], input_offset, (int32_t)p1 >> 16);
    } else {
        acc[0] = tinyaot_depthwise_unfold(bias[c], input_offset, (int32_t)(c & 1 ? pairs[0] : pairs[0] << 16) >> 16);
    }
}

/*
 * One channel's 3x3 sums for two horizontally adjacent output pixels, the second
 * `stride` (1 or 2) input columns right of the first, added to *a and *b: in at
 * the first window's top-left input, col apart from column to column, rows in_y;
 * w at the channel's top-left weight, w_x apart. The windows overlap, so each
 * input value loaded serves both where they do, and each weight both.
 * edge (a constant once inlined): 0, every column inside the input; -1, the
 * first column left of it, 1, the last right of it, read as the input zero
 * point zp, which with the folded bias adds what TFLM's skipped tap adds
 * (w * (zp + input_offset) = 0); in then at the first column inside.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_pair3x3(const int8_t *in, const int8_t *w, int32_t col,
                                                            int32_t in_y, int32_t w_x, int32_t stride,
                                                            int32_t edge, int32_t zp, int32_t *a, int32_t *b)
{
    const int32_t shift = edge < 0 ? 1 : 0;  /* columns in is right of the window's first */
    int32_t s = *a, t = *b, fy;
    for (fy = 3; fy > 0; fy--) {
        const int32_t x0 = edge < 0 ? zp : in[0];
        const int32_t x1 = in[(1 - shift) * col], x2 = in[(2 - shift) * col];
        const int32_t x3 = stride == 1 && edge > 0 ? zp : in[(3 - shift) * col];
        const int32_t w0 = w[0], w1 = w[w_x], w2 = w[2 * w_x];
        s += w0 * x0 + w1 * x1 + w2 * x2;
        if (stride == 1) {
            t += w0 * x1 + w1 * x2 + w2 * x3;
        } else {
            t += w0 * x2 + w1 * x3 + w2 * (edge > 0 ? zp : in[(4 - shift) * col]);
        }
        in += in_y;
        w += 3 * w_x;
    }
    *a = s;
    *b = t;
}

/* One channel's pair sums with stride and edge constants in the taps: the channel loop around it
   stays one, its requantization not repeated six times (a loop per case doubled the kernel's code). */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_pair_cases(const int8_t *in, const int8_t *w, int32_t channels,
                                                               int32_t in_y, int32_t stride, int32_t edge,
                                                               int32_t zp, int32_t *a, int32_t *b)
{
    if (edge == 0 && stride == 1) {
        tinyaot_depthwise_pair3x3(in, w, channels, in_y, channels, 1, 0, zp, a, b);
    } else if (edge == 0) {
        tinyaot_depthwise_pair3x3(in, w, channels, in_y, channels, 2, 0, zp, a, b);
    } else if (edge < 0 && stride == 1) {
        tinyaot_depthwise_pair3x3(in, w, channels, in_y, channels, 1, -1, zp, a, b);
    } else if (edge < 0) {
        tinyaot_depthwise_pair3x3(in, w, channels, in_y, channels, 2, -1, zp, a, b);
    } else if (stride == 1) {
        tinyaot_depthwise_pair3x3(in, w, channels, in_y, channels, 1, 1, zp, a, b);
    } else {
        tinyaot_depthwise_pair3x3(in, w, channels, in_y, channels, 2, 1, zp, a, b);
    }
}

/*
 * Depth multiplier 1, a 3x3 window, stride 1 or 2, no dilation: every channel of
 * two horizontally adjacent output pixels whose windows have every row inside
 * the input and every column but the pair's first or last (edge, see
 * tinyaot_depthwise_pair3x3), window at the first column inside in the first's
 * top row. Channel by channel, the first pixel's output written at once, the
 * second's after the last channel.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_pixel_pair3x3(const struct tinyaot_depthwise_conv2d_params *p,
                                                             const struct tinyaot_channel_requant *r,
                                                             const int8_t *window, const int8_t *filter,
                                                             const int32_t *bias, int32_t edge, int8_t *output)
{
    /* Copies: the int8_t output stores may alias anything, *p and *r too. */
    const struct tinyaot_channel_requant rq = *r;
    const int32_t channels = p->input_ch;
    const int32_t in_y = p->input_w * channels;
    const int32_t zp = -p->input_offset;
    const int32_t stride = p->stride_w;
    int8_t second[TINYAOT_PAIR_MAX_CH];
    int32_t c;
    for (c = 0; c < channels; c++) {
        int32_t a = bias[c], b = bias[c];
        tinyaot_depthwise_pair_cases(window + c, filter + c, channels, in_y, stride, edge, zp, &a, &b);
        tinyaot_channel_requantize2_s8(&rq, c, a, b, &output[c], &second[c]);
    }
    for (c = 0; c < channels; c++) {
        output[channels + c] = second[c];
    }
}

/*
 * filter: [filter_h][filter_w][output_ch]. bias, with p->packed_sums: the bias
 * with the input offset folded in (bias + input_offset * sum(w)), so whole
 * windows' taps add a plain w * x, then the weight sums (see
 * tinyaot_depthwise_plain_bias); windows cut by the border start from the plain
 * bias and add the input offset to each input value they read, as TFLM does, so
 * the taps outside need nothing. Without (sums beyond int16): the plain bias,
 * every window adding the offset.
 * Output pixel by pixel, channels in increasing order, or two pixels at a time
 * (tinyaot_depthwise_pixel_pair3x3): each output byte is written after every
 * input its pixel's window reads.
 */
static void tinyaot_depthwise_conv2d_s8(const struct tinyaot_depthwise_conv2d_params *p,
                                        const int32_t *multiplier, const int32_t *shift,
                                        const int8_t *input, const int8_t *filter,
                                        const int32_t *bias, int8_t *output)
{
    const int32_t input_offset = p->input_offset;
    const int32_t mult = p->depth_multiplier;
    const int32_t output_ch = p->input_ch * mult;
    /* Channels done four at a time: all with multiplier 1 or a multiple of 4 (four
       outputs then read one input channel), the rest one at a time. */
    const int32_t in_step = mult == 1 ? 1 : 0;
    const int32_t blocked = mult == 1 || mult % 4 == 0 ? output_ch - output_ch % 4 : 0;
    /* Distance in the input between horizontally and vertically adjacent taps,
       and in the filter between adjacent taps and rows. */
    const int32_t tap_step_x = p->dilation_w * p->input_ch;
    const int32_t tap_step_y = p->dilation_h * p->input_w * p->input_ch;
    const int32_t filter_row = p->filter_w * output_ch;
    /* A local, not p->...: output is int8_t, which may alias anything, so the
       compiler would reload every field of p after each output store. */
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    /* Pairs of 3x3 windows, stride 1 or 2, from the folded bias (where: tinyaot_depthwise_pixel_pair3x3). */
    const int32_t packed_sums = p->packed_sums;
    const int pairs = TINYAOT_PIXEL_PAIRS && packed_sums && mult == 1 && output_ch <= TINYAOT_PAIR_MAX_CH &&
                      p->filter_h == 3 && p->filter_w == 3 && p->dilation_h == 1 && p->dilation_w == 1 &&
                      (p->stride_w == 1 || p->stride_w == 2);
    int32_t b, oy, ox, ic, m, oc, k;

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
                /* A window cut by the border (or every window, the bias unfolded) adds the input offset. */
                const int border = rows != p->filter_h || cols != p->filter_w || !packed_sums;
                /* The first valid tap, channel 0, in the input and in the filter. */
                const int8_t *window = in_image + (in_y * p->input_w + in_x) * p->input_ch;
                const int8_t *w_window = filter + fy_first * filter_row + fx_first * output_ch;
                int32_t acc[4];
                /* The pair's first and last input columns, and whether one lies outside the input. */
                const int32_t pair_first = ox * p->stride_w - p->pad_w, pair_last = pair_first + p->stride_w + 2;
                const int32_t edge = pair_first < 0 ? -1 : pair_last >= p->input_w ? 1 : 0;
                if (pairs && rows == 3 && ox + 1 < p->output_w && pair_first >= -1 && pair_last <= p->input_w &&
                    (pair_first >= 0 || pair_last < p->input_w)) {
                    tinyaot_depthwise_pixel_pair3x3(p, &r, window, filter, bias, edge, output);
                    output += 2 * output_ch;
                    ox++;
                    continue;
                }
                const int plain = border && packed_sums;  /* the plain bias from the folded one */
                const int32_t offset = border ? input_offset : 0;
                /* ic and m: the input channel oc reads, and which of its mult outputs oc is. */
                ic = 0;
                m = 0;
                for (oc = 0; oc < blocked; oc += 4) {
                    if (plain) {
                        tinyaot_depthwise_plain_bias(bias, output_ch, input_offset, oc, 4, acc);
                    } else {
                        for (k = 0; k < 4; k++) {
                            acc[k] = bias[oc + k];
                        }
                    }
                    /* The common 3x3 window inside the input gets its taps unrolled (constant trip counts). */
                    if (in_step && !border && rows == 3 && cols == 3) {
                        tinyaot_depthwise_window4(window + ic, w_window + oc, 1, 3, 3, tap_step_x, tap_step_y,
                                                  output_ch, filter_row, 0, acc);
                    } else if (in_step && !border) {
                        tinyaot_depthwise_window4(window + ic, w_window + oc, 1, rows, cols, tap_step_x, tap_step_y,
                                                  output_ch, filter_row, 0, acc);
                    } else if (in_step) {
                        tinyaot_depthwise_window4(window + ic, w_window + oc, 1, rows, cols, tap_step_x, tap_step_y,
                                                  output_ch, filter_row, input_offset, acc);
                    } else {
                        tinyaot_depthwise_window4_shared(window + ic, w_window + oc, rows, cols, tap_step_x,
                                                         tap_step_y, output_ch, filter_row, offset, acc);
                    }
                    for (k = 0; k < 4; k++) {
                        output[oc + k] = tinyaot_channel_requantize_s8(&r, oc + k, acc[k]);
                    }
                    if (in_step) {
                        ic += 4;
                    } else if ((m += 4) == mult) {  /* mult is a multiple of 4 */
                        m = 0;
                        ic++;
                    }
                }
                for (; oc < output_ch; oc++) {
                    int32_t acc1[4];
                    acc1[0] = bias[oc];
                    if (plain) {
                        tinyaot_depthwise_plain_bias(bias, output_ch, input_offset, oc, 1, acc1);
                    }
                    acc1[0] += tinyaot_depthwise_window1(window + ic, w_window + oc, rows, cols, tap_step_x,
                                                         tap_step_y, output_ch, filter_row, offset);
                    output[oc] = tinyaot_channel_requantize_s8(&r, oc, acc1[0]);
                    if (++m == mult) {
                        m = 0;
                        ic++;
                    }
                }
                output += output_ch;
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S8_H */
