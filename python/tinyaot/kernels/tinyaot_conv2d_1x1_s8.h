/*
 * tinyaot_conv2d_1x1_s8.h - int8 2-D convolution with a 1x1 filter (NHWC input,
 * [output_ch][input_ch] filter re-laid out in blocks of four output channels), no groups.
 *
 * The same numbers as tinyaot_conv2d_s8 (TFLM's ConvPerChannel), computed as a
 * matrix product: a 1x1 window never leaves the input, so the lowering folds
 * the input offset into the bias (bias + input_offset * sum(w) per output
 * channel) and the inner loop is a plain multiply-accumulate.
 */
#ifndef TINYAOT_CONV2D_1X1_S8_H
#define TINYAOT_CONV2D_1X1_S8_H

#include <stddef.h>

#include "tinyaot_conv2d_1x1_params.h"

#if TINYAOT_PIXEL_PAIRS
/* One input channel's products for four output channels of two pixels, x0 and x1 their
   input values, w the four weights: added to s, pixel 0's four sums then pixel 1's. */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_pair_tap(int32_t s[8], int32_t x0, int32_t x1, const int8_t *w)
{
    const int32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    s[0] += w0 * x0;
    s[4] += w0 * x1;
    s[1] += w1 * x0;
    s[5] += w1 * x1;
    s[2] += w2 * x0;
    s[6] += w2 * x1;
    s[3] += w3 * x0;
    s[7] += w3 * x1;
}

/*
 * Four channels' sums over depth input values for two pixels (in0, in1), added to
 * acc (pixel 0's four, then pixel 1's): w at their weights for input channel 0, side
 * by side. Each input value loaded serves four products, each weight two. by4: depth
 * a multiple of 4 taken four input channels a step (a constant once inlined): a
 * quarter of the loop's own instructions for three times its code.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_pair_sums(const int8_t *in0, const int8_t *in1,
                                                               const int8_t *w, int32_t depth, int by4,
                                                               int32_t acc[8])
{
    const int8_t *const end = in0 + depth;
    int32_t s[8];  /* in registers */
    int32_t k;
    for (k = 0; k < 8; k++) {
        s[k] = acc[k];
    }
    while (in0 != end) {
        tinyaot_conv2d_1x1_pair_tap(s, in0[0], in1[0], w);
        if (by4) {
            tinyaot_conv2d_1x1_pair_tap(s, in0[1], in1[1], w + 4);
            tinyaot_conv2d_1x1_pair_tap(s, in0[2], in1[2], w + 8);
            tinyaot_conv2d_1x1_pair_tap(s, in0[3], in1[3], w + 12);
        }
        in0 += by4 ? 4 : 1;
        in1 += by4 ? 4 : 1;
        w += by4 ? 16 : 4;
    }
    for (k = 0; k < 8; k++) {
        acc[k] = s[k];
    }
}

/*
 * TINYAOT_CONV2D_1X1_PAIR_STEP(step) defines those sums for two pixels `step` bytes
 * apart (adjacent pixels of a stride-1 convolution: step = input_ch), and
 * TINYAOT_CONV2D_1X1_PAIR(step) names it for p->adjacent_pair: the generated code has
 * one for each depth its stride-1 1x1 convolutions take. A constant distance is an
 * immediate offset in the second pixel's loads, which leaves the loop a register
 * (Cortex-M3: 17 instructions per 8 multiply-accumulates instead of 18 with the
 * loop's end spilled); from depth 64 on, four input channels a step (63 per 32).
 * NULL on cores without pixel pairs.
 */
#define TINYAOT_CONV2D_1X1_PAIR_STEP(step)                                                                      \
    static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_pair_##step(const int8_t *in0, const int8_t *w,           \
                                                                int32_t acc[8])                               \
    {                                                                                                           \
        tinyaot_conv2d_1x1_pair_sums(in0, in0 + (step), w, step, (step) >= 64 && (step) % 4 == 0, acc);       \
    }
#define TINYAOT_CONV2D_1X1_PAIR(step) tinyaot_conv2d_1x1_pair_##step

/*
 * Every output channel of two output pixels (in0, in1; for an odd pixel out the
 * caller passes the same pixel twice), four channels at a time: each input value
 * loaded serves four products, each weight two. filter: per block of four output
 * channels [input_ch][4], the four weights side by side (re-laid out by the
 * lowering); the output_ch % 4 channels after the blocks as plain rows. r: the
 * kernel's requantization, set up once per call (a local there: inlined, no int8
 * store can alias it, so no copy here); folds: tinyaot_channel_requant_folds of it.
 */
static void tinyaot_conv2d_1x1_pixel_pair(const struct tinyaot_conv2d_1x1_params *p,
                                          const struct tinyaot_channel_requant *r, int32_t folds,
                                          const int8_t *in0, const int8_t *in1, const int8_t *filter,
                                          const int32_t *bias, int8_t *out0, int8_t *out1)
{
    const int32_t depth = p->input_ch;
    const int32_t output_ch = p->output_ch;
    const int32_t blocked = output_ch - output_ch % 4;
    /* Adjacent pixels (not the odd last one paired with itself) take p's loop for them. */
    void (*const adjacent_pair)(const int8_t *, const int8_t *, int32_t *) = p->adjacent_pair;
    const int adjacent = adjacent_pair != NULL && in1 == in0 + depth;
    int32_t acc[8];
    int32_t oc, ic;
    for (oc = 0; oc < blocked; oc += 4) {
        const int8_t *w = filter + oc * depth;
        acc[0] = acc[4] = bias[oc];
        acc[1] = acc[5] = bias[oc + 1];
        acc[2] = acc[6] = bias[oc + 2];
        acc[3] = acc[7] = bias[oc + 3];
        if (adjacent) {
            adjacent_pair(in0, w, acc);
        } else {
            tinyaot_conv2d_1x1_pair_sums(in0, in1, w, depth, 0, acc);
        }
        if (TINYAOT_RARELY(!folds)) {
            tinyaot_conv2d_1x1_requantize_pair(r, oc, 4, acc, out0, out1);
            continue;
        }
        {
            const struct tinyaot_channel_requant block = tinyaot_channel_requant_from(r, oc);
            tinyaot_channel_requantize2_folded_s8(&block, 0, acc[0], acc[4], &out0[oc], &out1[oc]);
            tinyaot_channel_requantize2_folded_s8(&block, 1, acc[1], acc[5], &out0[oc + 1], &out1[oc + 1]);
            tinyaot_channel_requantize2_folded_s8(&block, 2, acc[2], acc[6], &out0[oc + 2], &out1[oc + 2]);
            tinyaot_channel_requantize2_folded_s8(&block, 3, acc[3], acc[7], &out0[oc + 3], &out1[oc + 3]);
        }
    }
    for (; oc < output_ch; oc++) {
        const int8_t *w0 = filter + oc * depth;
        int32_t acc00 = bias[oc], acc01 = bias[oc];
        for (ic = 0; ic < depth; ic++) {
            acc00 += (int32_t)w0[ic] * in0[ic];
            acc01 += (int32_t)w0[ic] * in1[ic];
        }
        acc[0] = acc00, acc[4] = acc01;
        tinyaot_conv2d_1x1_requantize_pair(r, oc, 1, acc, out0, out1);
    }
}
#else
#define TINYAOT_CONV2D_1X1_PAIR_STEP(step)
#define TINYAOT_CONV2D_1X1_PAIR(step) NULL

/*
 * Four adjacent output channels' sums over one pixel's depth input values, added
 * to acc: w at their weights for input channel 0, side by side. A function of its
 * own: inlined into the pixel's loops, its sums would be spilled to the stack.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_dot4(const int8_t *in, const int8_t *w, int32_t depth,
                                                     int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t ic;
    for (ic = 0; ic < depth; ic++) {
        const int32_t x = in[ic];
        a0 += w[0] * x;
        a1 += w[1] * x;
        a2 += w[2] * x;
        a3 += w[3] * x;
        w += 4;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/*
 * Every output channel of one output pixel, four channels at a time (filter laid
 * out as above), for cores with eight low registers (Armv6-M, Armv8-M Baseline):
 * two pixels' eight sums would live on the stack (8.6 instructions per
 * multiply-accumulate on Cortex-M0, 5.5 here, each input value loaded once per
 * block of four channels).
 */
static void tinyaot_conv2d_1x1_pixel(const struct tinyaot_conv2d_1x1_params *p, const int32_t *multiplier,
                                     const int32_t *shift, const int8_t *in, const int8_t *filter,
                                     const int32_t *bias, int8_t *out)
{
    const int32_t depth = p->input_ch;
    const int32_t output_ch = p->output_ch;
    const int32_t blocked = output_ch - output_ch % 4;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    int32_t oc, ic, k;
    for (oc = 0; oc < blocked; oc += 4) {
        int32_t acc[4];
        for (k = 0; k < 4; k++) {
            acc[k] = bias[oc + k];
        }
        tinyaot_conv2d_1x1_dot4(in, filter + oc * depth, depth, acc);
        for (k = 0; k < 4; k++) {
            out[oc + k] = tinyaot_channel_requantize_s8(&r, oc + k, acc[k]);
        }
    }
    for (; oc < output_ch; oc++) {
        const int8_t *w = filter + oc * depth;
        int32_t acc = bias[oc];
        for (ic = 0; ic < depth; ic++) {
            acc += (int32_t)w[ic] * in[ic];
        }
        out[oc] = tinyaot_channel_requantize_s8(&r, oc, acc);
    }
}
#endif

/* filter: re-laid out as the pixel functions above read it; bias: the folded bias above (never NULL). */
static void tinyaot_conv2d_1x1_s8(const struct tinyaot_conv2d_1x1_params *p,
                                  const int32_t *multiplier, const int32_t *shift,
                                  const int8_t *input, const int8_t *filter,
                                  const int32_t *bias, int8_t *output)
{
    const int32_t pixels = p->output_h * p->output_w;
    const int32_t output_ch = p->output_ch;
    int32_t b, n;
#if TINYAOT_PIXEL_PAIRS
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    const int32_t folds = tinyaot_channel_requant_folds(&r, output_ch);
#endif

    for (b = 0; b < p->batches; b++) {
        const int8_t *in0 = input + b * p->input_h * p->input_w * p->input_ch;
        int32_t ox = 0;
#if TINYAOT_PIXEL_PAIRS
        for (n = 0; n < pixels; n += 2) {
            const int8_t *in1 = in0;
            int8_t *out1 = output;
            if (n + 1 < pixels) {
                in1 = tinyaot_conv2d_1x1_next(p, in0, &ox);
                out1 = output + output_ch;
            }
            tinyaot_conv2d_1x1_pixel_pair(p, &r, folds, in0, in1, filter, bias, output, out1);
            in0 = tinyaot_conv2d_1x1_next(p, in1, &ox);
            output = out1 + output_ch;
        }
#else
        for (n = 0; n < pixels; n++) {
            tinyaot_conv2d_1x1_pixel(p, multiplier, shift, in0, filter, bias, output);
            in0 = tinyaot_conv2d_1x1_next(p, in0, &ox);
            output += output_ch;
        }
#endif
    }
}

#endif /* TINYAOT_CONV2D_1X1_S8_H */
