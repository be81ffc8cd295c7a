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

#include <string.h>

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
 * One filter row's taps for two horizontally adjacent output pixels, the second
 * `stride` (1 or 2, a constant once inlined) input columns right of the first,
 * added to n channels' sum pairs in sums (the first pixel's, the second's): in
 * at the first channel's input in the row's first column inside the input,
 * x_col apart from column to column; w at its weight in the row's first column,
 * w_col apart; bias: NULL, or the sums start from it (the top row). The column
 * left of the input (edge -1) or right of it (edge 1) is read from zp_column
 * instead, and a row outside the input has in at zp_column
 * and x_col 0 (see tinyaot_depthwise_pair_sums). Channel by channel each
 * pointer steps by one. Each input value loaded serves both windows where they
 * overlap, each weight both. The sums stay in memory and the rows are done one
 * at a time: the loop's pointers and temporaries then (almost) fit the
 * registers, where all three rows at once spilled more than the sums' loads and
 * stores cost.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_pair_row(const int8_t *in, int32_t x_col, const int8_t *w,
                                                             int32_t w_col, int32_t stride, int32_t edge,
                                                             const int8_t *zp_column, const int32_t *bias,
                                                             int32_t n, int32_t *sums)
{
    /* The pair's columns, stride + 3 of them; one outside the input read from zp_column. */
    const int8_t *x0 = edge < 0 ? zp_column : in;
    const int8_t *x1 = edge < 0 ? in : in + x_col;
    const int8_t *x2 = x1 + x_col;
    const int8_t *x3 = stride == 1 && edge > 0 ? zp_column : x2 + x_col;
    const int8_t *x4 = stride == 1 ? x3 : edge > 0 ? zp_column : x3 + x_col;  /* stride 2 only */
    const int8_t *w0 = w, *w1 = w + w_col, *w2 = w1 + w_col;
    const int32_t *end = sums + 2 * n;
    for (; sums != end; sums += 2) {
        /* One product at a time into the loaded sums: multiply-accumulates, few temporaries. */
        int32_t s = bias ? *bias : sums[0], t = bias ? *bias++ : sums[1];
        const int32_t a = *w0++, b = *w1++, c = *w2++;
        const int32_t v1 = *x1++, v2 = *x2++, v3 = *x3++;
        s += a * *x0++;
        t += a * (stride == 1 ? v1 : v2);
        s += b * v1;
        t += b * (stride == 1 ? v2 : v3);
        s += c * v2;
        t += c * (stride == 1 ? v3 : *x4++);
        sums[0] = s;
        sums[1] = t;
    }
}

/*
 * Depth multiplier 1, a 3x3 window, stride_w 1 or 2, no dilation: n adjacent
 * channels' sums for two horizontally adjacent output pixels, from their folded
 * bias, into sums (see tinyaot_depthwise_pair_row): column at the first
 * channel's input in input row 0, in the pair's first column inside the input;
 * the windows' top row y0. Every column of the pair inside the input but maybe
 * its first (edge -1) or its last (edge 1); rows and columns outside are read
 * from zp_column, the input zero point zp for each of the n channels: with the
 * folded bias that adds what TFLM's skipped tap adds (w * (zp + input_offset)
 * = 0).
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_pair_sums(const struct tinyaot_depthwise_conv2d_params *p,
                                                              const int8_t *column, const int8_t *filter,
                                                              const int32_t *bias, int32_t n, int32_t y0,
                                                              int32_t edge, const int8_t *zp_column, int32_t *sums)
{
    const int32_t channels = p->input_ch;
    int32_t k, y;
    if (p->stride_w != 1) {
        for (k = 0; k < n; k++) {
            sums[2 * k] = bias[k];
            sums[2 * k + 1] = bias[k];
        }
    }
    for (y = y0; y < y0 + 3; y++) {
        const int inside = y >= 0 && y < p->input_h;
        const int8_t *in = inside ? column + y * p->input_w * channels : zp_column;
        const int32_t x_col = inside ? channels : 0;
        /* stride a constant in each call, its taps known in each loop; at stride 1 (most
           layers) the top row's sums start from the bias, a third loop (flash for the second) */
        if (p->stride_w == 1 && y == y0) {
            tinyaot_depthwise_pair_row(in, x_col, filter, channels, 1, edge, zp_column, bias, n, sums);
        } else if (p->stride_w == 1) {
            tinyaot_depthwise_pair_row(in, x_col, filter, channels, 1, edge, zp_column, NULL, n, sums);
        } else {
            tinyaot_depthwise_pair_row(in, x_col, filter, channels, 2, edge, zp_column, NULL, n, sums);
        }
        filter += 3 * channels;
    }
}

/* Channels whose pair sums are worked out before one requantization loop turns them into outputs:
   the loop then exists once, not in each case's loop (flash). 64 (512 B of sums on the stack): 32
   cost ds_cnn_kws (64 channels) 0.5% more instructions on qemu_cortex_m3 (the rows' set-up per
   chunk) for 304 B less stack. */
#define TINYAOT_PAIR_CHUNK 64

/* The pairs' requantization where it does not fold (a scale of 1/4 or more, or below 2^-24):
   out of line, its code once (inline in the pairs, 0.5 KB of flash). */
static TINYAOT_NOINLINE int8_t tinyaot_depthwise_requantize_unfolded(const struct tinyaot_channel_requant *r,
                                                                     int32_t oc, int32_t acc)
{
    return tinyaot_channel_requantize_s8(r, oc, acc);
}

/*
 * Every channel of two horizontally adjacent output pixels (see
 * tinyaot_depthwise_pair_sums). Chunk by chunk of channels: the first pixel's
 * outputs written after the chunk's windows are read, the second's after the
 * last channel's. folds: tinyaot_channel_requant_folds of *r.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_pixel_pair3x3(const struct tinyaot_depthwise_conv2d_params *p,
                                                             const struct tinyaot_channel_requant *r, int32_t folds,
                                                             const int8_t *column, const int8_t *filter,
                                                             const int32_t *bias, int32_t y0, int32_t edge,
                                                             int8_t *output)
{
    /* Copies: the int8_t output stores may alias anything, *p and *r too. */
    const struct tinyaot_channel_requant rq = *r;
    const struct tinyaot_depthwise_conv2d_params pp = *p;
    const int32_t channels = pp.input_ch;
    int8_t second[TINYAOT_PAIR_MAX_CH];
    int8_t zp_column[TINYAOT_PAIR_CHUNK];  /* the same for every chunk */
    int32_t sums[2 * TINYAOT_PAIR_CHUNK];
    int32_t c, k;
    if (channels > TINYAOT_PAIR_MAX_CH) {
        /* Never (the caller pairs up to that many): said here for GCC 12, which, with the
           function specialised to a wider layer's constants, warned of second[]'s bounds. */
        return;
    }
    if (edge || y0 < 0 || y0 + 3 > pp.input_h) {  /* read only there */
        memset(zp_column, -pp.input_offset, sizeof zp_column);
    }
    for (c = 0; c < channels; c += TINYAOT_PAIR_CHUNK) {
        const int32_t n = channels - c < TINYAOT_PAIR_CHUNK ? channels - c : TINYAOT_PAIR_CHUNK;
        tinyaot_depthwise_pair_sums(&pp, column + c, filter + c, bias + c, n, y0, edge, zp_column, sums);
        /* a loop each: the test out of the channel loop */
        if (folds) {
            for (k = 0; k < n; k++) {
                tinyaot_channel_requantize2_folded_s8(&rq, c + k, sums[2 * k], sums[2 * k + 1], &output[c + k],
                                                      &second[c + k]);
            }
        } else {
            for (k = 0; k < n; k++) {
                output[c + k] = tinyaot_depthwise_requantize_unfolded(&rq, c + k, sums[2 * k]);
                second[c + k] = tinyaot_depthwise_requantize_unfolded(&rq, c + k, sums[2 * k + 1]);
            }
        }
    }
    memcpy(output + channels, second, (size_t)channels);
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
    const int32_t folds = pairs && tinyaot_channel_requant_folds(&r, output_ch);
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
                if (pairs && ox + 1 < p->output_w && pair_first >= -1 && pair_last <= p->input_w &&
                    (pair_first >= 0 || pair_last < p->input_w)) {
                    tinyaot_depthwise_pixel_pair3x3(p, &r, folds, in_image + (edge < 0 ? 0 : pair_first) * p->input_ch,
                                                    filter, bias, oy * p->stride_h - p->pad_h, edge, output);
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
