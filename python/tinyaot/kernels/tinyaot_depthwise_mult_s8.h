/*
 * tinyaot_depthwise_mult_s8.h - int8 depthwise 2-D convolution with a depth
 * multiplier above 1 (NHWC input), bit-exact with TFLM's
 * reference_integer_ops::DepthwiseConvPerChannel like tinyaot_depthwise_conv2d_s8.h.
 *
 * The multiplier's output channels of one input channel read the same input
 * values, so they are computed together, up to 8 at a time: each input value
 * is loaded once for all of them. The generator lays the filter out in that
 * order (ops/conv.py, depthwise_mult_filter): per input channel, its outputs
 * in chunks of 8, then one of 4, 2 and 1 for the multiplier's remainder, each
 * chunk as [filter_h][filter_w][n], every weight stored as w + 128 in a
 * uint8_t. Armv6-M loads a byte with a constant offset only unsigned (LDRB;
 * LDRSB takes a register offset), and sum(x * w) = sum(x * (w + 128)) -
 * 128 * sum(x), where sum(x) serves the whole chunk.
 *
 * The input offset is added to each input value read (once per chunk), as
 * TFLM adds it, so taps outside the input are simply skipped: no bias fold,
 * no take-back at the borders. The generator uses this kernel only while
 * filter_h * filter_w * 255 * 255 stays below 2^31 (the sum of x * (w + 128)).
 */
#ifndef TINYAOT_DEPTHWISE_MULT_S8_H
#define TINYAOT_DEPTHWISE_MULT_S8_H

#include "tinyaot_depthwise_conv2d_params.h"

/*
 * acc[k] = sum((x + input_offset) * w) over a window of rows x cols taps for
 * the n (8, 4, 2 or 1: a constant once inlined) channels of a chunk; w points at
 * the weights of the window's first tap, w_skip weights follow a window row.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mult_window(const int8_t *in, const uint8_t *w, int32_t n,
                                                                int32_t rows, int32_t cols, int32_t in_x,
                                                                int32_t in_y, int32_t w_skip,
                                                                int32_t input_offset, int32_t acc[8])
{
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    int32_t sum_x = 0;
    int32_t fy;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *tap = in;
        const int8_t *const end = in + cols * in_x;
        while (tap != end) {
            const int32_t x = *tap + input_offset;
            tap += in_x;
            sum_x += x;
            a0 += w[0] * x;
            if (n > 1) {
                a1 += w[1] * x;
            }
            if (n > 2) {
                a2 += w[2] * x;
                a3 += w[3] * x;
            }
            if (n > 4) {
                a4 += w[4] * x;
                a5 += w[5] * x;
                a6 += w[6] * x;
                a7 += w[7] * x;
            }
            w += n;
        }
        w += w_skip;
        in += in_y;
    }
    sum_x *= 128;
    acc[0] = a0 - sum_x;
    acc[1] = a1 - sum_x;
    acc[2] = a2 - sum_x;
    acc[3] = a3 - sum_x;
    acc[4] = a4 - sum_x;
    acc[5] = a5 - sum_x;
    acc[6] = a6 - sum_x;
    acc[7] = a7 - sum_x;
}

/*
 * The window of a chunk of 8, functions of their own on every core: inlined
 * into the pixel loop, whose own variables hold most of the registers, its
 * sums would live on the stack (Cortex-M0: 8 low registers; Cortex-M3: 4 of
 * the 8 sums, 34 instructions a tap instead of 21 in the _full loop). _full:
 * a whole window of adjacent taps (input depth 1, no dilation) with the input
 * offset folded into the bias, which leaves the loop two registers.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_mult_window8(const int8_t *in, const uint8_t *w, int32_t rows,
                                                            int32_t cols, int32_t in_x, int32_t in_y, int32_t w_skip,
                                                            int32_t input_offset, int32_t acc[8])
{
    tinyaot_depthwise_mult_window(in, w, 8, rows, cols, in_x, in_y, w_skip, input_offset, acc);
}

static TINYAOT_NOINLINE void tinyaot_depthwise_mult_window8_full(const int8_t *in, const uint8_t *w, int32_t rows,
                                                                 int32_t cols, int32_t in_y, int32_t acc[8])
{
    tinyaot_depthwise_mult_window(in, w, 8, rows, cols, 1, in_y, 0, 0, acc);
}

/*
 * One pixel's chunk of n output channels (a constant once inlined): the sums
 * of its window from the first valid tap (`in`, and the chunk's weights w),
 * plus bias, requantized into out[oc ...]. full: the whole window, adjacent taps
 * (see tinyaot_depthwise_mult_window8_full), with bias from the folded table.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mult_chunk(const struct tinyaot_depthwise_conv2d_params *p,
                                                               const int8_t *in, const uint8_t *w, int32_t n,
                                                               int full, int32_t rows, int32_t cols,
                                                               const int32_t *bias,
                                                               const struct tinyaot_channel_requant *r, int32_t oc,
                                                               int8_t *out)
{
    const int32_t in_x = p->dilation_w * p->input_ch, in_y = p->dilation_h * p->input_w * p->input_ch;
    const int32_t w_skip = (p->filter_w - cols) * n;
    int32_t acc[8];
    int32_t k;
    if (full && n == 8) {
        tinyaot_depthwise_mult_window8_full(in, w, rows, cols, in_y, acc);
    } else if (full) {
        tinyaot_depthwise_mult_window(in, w, n, rows, cols, 1, in_y, 0, 0, acc);
    } else if (n == 8) {
        tinyaot_depthwise_mult_window8(in, w, rows, cols, in_x, in_y, w_skip, p->input_offset, acc);
    } else {
        tinyaot_depthwise_mult_window(in, w, n, rows, cols, in_x, in_y, w_skip, p->input_offset, acc);
    }
    for (k = 0; k < n; k++) {
        out[oc + k] = tinyaot_channel_requantize_s8(r, oc + k, bias[oc + k] + acc[k]);
    }
}

/*
 * A whole window of adjacent taps of more than one row, read by more than one chunk
 * (a multiplier above 8), is copied into one run of up to this many bytes (on the
 * stack) once per pixel: every chunk then walks one row, not `rows` of them (each
 * row's set-up, with the window loop's registers all taken, cost about as much as
 * four taps: cnn_kws_small's 10x4, multiplier 28, on a Cortex-M3). For one chunk the
 * copy costs about what it saves (micro_speech's 10x8, multiplier 8: on a Cortex-M0
 * 1.90 M instructions in place, 1.92 M gathered).
 */
#define TINYAOT_DW_MULT_GATHER_MAX 96

/*
 * filter: see above. bias: [2][output_ch], first with the input offset folded
 * in (bias + input_offset * sum(w), for whole windows of adjacent taps), then
 * as the model has it (zeros for none).
 * Output pixel by pixel, channels in increasing order, each chunk written
 * after every input its window reads (the order ops/overlap.py's depthwise
 * declares).
 */
static void tinyaot_depthwise_mult_s8(const struct tinyaot_depthwise_conv2d_params *p,
                                      const int32_t *multiplier, const int32_t *shift,
                                      const int8_t *input, const uint8_t *filter,
                                      const int32_t *bias, int8_t *output)
{
    /* A local copy: output is int8_t, which may alias anything, so p's fields would be reloaded. */
    const struct tinyaot_depthwise_conv2d_params q = *p;
    const int32_t mult = q.depth_multiplier, output_ch = q.input_ch * q.depth_multiplier;
    const int32_t taps = q.filter_h * q.filter_w;
    const int adjacent = q.input_ch == 1 && q.dilation_w == 1;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, q.per_channel,
                                                                        q.output_offset, q.act_min, q.act_max);
    const int gather = adjacent && q.filter_h > 1 && mult > 8 && taps <= TINYAOT_DW_MULT_GATHER_MAX;
    int8_t gathered[TINYAOT_DW_MULT_GATHER_MAX];
    int32_t b, oy, ox, ic, j;

    for (b = 0; b < q.batches; b++) {
        const int8_t *in_image = input + b * q.input_h * q.input_w * q.input_ch;
        for (oy = 0; oy < q.output_h; oy++) {
            int32_t fy_first, fy_end;
            const int32_t in_y = tinyaot_window(oy * q.stride_h - q.pad_h, q.dilation_h, q.filter_h, q.input_h,
                                                &fy_first, &fy_end);
            for (ox = 0; ox < q.output_w; ox++) {
                int32_t fx_first, fx_end;
                const int32_t in_x = tinyaot_window(ox * q.stride_w - q.pad_w, q.dilation_w, q.filter_w, q.input_w,
                                                    &fx_first, &fx_end);
                int32_t rows = fy_end - fy_first, cols = fx_end - fx_first;
                const int full = adjacent && rows == q.filter_h && cols == q.filter_w;
                const int32_t *b_table = full ? bias : bias + output_ch;
                const int32_t first_tap = fy_first * q.filter_w + fx_first;
                const int8_t *window = in_image + (in_y * q.input_w + in_x) * q.input_ch;
                const uint8_t *w = filter;
                int32_t oc = 0;
                if (full && gather) {
                    const int8_t *row = window;
                    int8_t *to = gathered;
                    int32_t fy, fx;
                    for (fy = 0; fy < rows; fy++, row += q.dilation_h * q.input_w) {
                        for (fx = 0; fx < cols; fx++) {
                            *to++ = row[fx];
                        }
                    }
                    window = gathered;
                    cols = taps;
                    rows = 1;
                }
                /* Per input channel its chunks: of 8 while 8 are left, then the remainder's bits. */
                for (ic = 0; ic < q.input_ch; ic++) {
                    for (j = mult; j >= 8; j -= 8) {
                        tinyaot_depthwise_mult_chunk(&q, window + ic, w + first_tap * 8, 8, full, rows, cols,
                                                     b_table, &r, oc, output);
                        w += taps * 8;
                        oc += 8;
                    }
                    if (mult & 4) {
                        tinyaot_depthwise_mult_chunk(&q, window + ic, w + first_tap * 4, 4, full, rows, cols,
                                                     b_table, &r, oc, output);
                        w += taps * 4;
                        oc += 4;
                    }
                    if (mult & 2) {
                        tinyaot_depthwise_mult_chunk(&q, window + ic, w + first_tap * 2, 2, full, rows, cols,
                                                     b_table, &r, oc, output);
                        w += taps * 2;
                        oc += 2;
                    }
                    if (mult & 1) {
                        tinyaot_depthwise_mult_chunk(&q, window + ic, w + first_tap, 1, full, rows, cols,
                                                     b_table, &r, oc, output);
                        w += taps;
                        oc += 1;
                    }
                }
                output += output_ch;
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_MULT_S8_H */
