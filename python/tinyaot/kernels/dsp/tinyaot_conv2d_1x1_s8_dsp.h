/*
 * tinyaot_conv2d_1x1_s8_dsp.h - int8 1x1 convolution for cores with the DSP extension
 * (NHWC input, the model's own [output_ch][input_ch] filter, no groups).
 *
 * The numbers of tinyaot_conv2d_1x1_s8.h (the input offset folded into the bias), with
 * SMLAD: two 16-bit multiply-accumulates an instruction. Four output pixels at a time:
 * their input values are widened to 16 bits once (SXTB16: bytes 0 and 2 of a word, then
 * 1 and 3) into a buffer on the stack, interleaved so that one group of four input
 * channels of the four pixels is 8 consecutive words; then for each output channel
 * one word of four weights, widened (2 SXTB16), serves the four pixels' 8 SMLADs: 15
 * instructions for 16 multiply-accumulates (a weight load, 2 widenings, 4 LDRDs, 8
 * SMLADs), where widening both sides every time (CMSIS-NN's arm_nn_mat_mult_nt_t_s8)
 * takes 20. The
 * weights need no re-layout: one output channel's are consecutive in the model's filter.
 */
#ifndef TINYAOT_CONV2D_1X1_S8_DSP_H
#define TINYAOT_CONV2D_1X1_S8_DSP_H

#include <stddef.h>

#include "tinyaot_acle.h"
#include "tinyaot_conv2d_1x1_params.h"

/* Words of one group of four input channels of the four pixels: per pixel, bytes 0 and 2
   widened, then bytes 1 and 3 (one LDRD). */
#define TINYAOT_CONV2D_1X1_DSP_GROUP 8

/* The n < 4 bytes at p as a word, zeros above (an input channel group cut by the depth). */
static inline uint32_t tinyaot_conv2d_1x1_dsp_tail_word(const int8_t *p, int32_t n)
{
    uint32_t v = 0;
    int32_t i;
    for (i = 0; i < n; i++) {
        v |= (uint32_t)(uint8_t)p[i] << (8 * i);
    }
    return v;
}

/* One pixel's 2 SMLADs of a group, its words at *q (moved past them): even and odd the
   widened weights. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_conv2d_1x1_dsp_pixel(const uint32_t **q, uint32_t even, uint32_t odd,
                                                                  int32_t a)
{
    uint32_t x_even, x_odd;
    tinyaot_load2_next(q, &x_even, &x_odd);
    return tinyaot_smlad(x_odd, odd, tinyaot_smlad(x_even, even, a));
}

/* One group's 8 multiply-accumulates into each pixel's sum a[k]: *q at the group's words
   (moved past them), wv its four weights. */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_dsp_group(const uint32_t **q, uint32_t wv, int32_t a[4])
{
    const uint32_t even = tinyaot_sxtb16(wv), odd = tinyaot_sxtb16_ror8(wv);
    a[0] = tinyaot_conv2d_1x1_dsp_pixel(q, even, odd, a[0]);
    a[1] = tinyaot_conv2d_1x1_dsp_pixel(q, even, odd, a[1]);
    a[2] = tinyaot_conv2d_1x1_dsp_pixel(q, even, odd, a[2]);
    a[3] = tinyaot_conv2d_1x1_dsp_pixel(q, even, odd, a[3]);
}

/*
 * One output channel's sums for the four pixels, added to a: w at its weights, quad at
 * the widened inputs of `groups` whole groups, then (tail: depth % 4) one cut group.
 * Four groups a step after the groups % 4 first (a quarter of the loop's own instructions).
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_dsp_sums(const uint32_t *quad, const int8_t *w, int32_t groups,
                                                              int32_t tail, int32_t a[4])
{
    const uint32_t *const end = quad + TINYAOT_CONV2D_1X1_DSP_GROUP * groups;
    const uint32_t *const by4 = quad + TINYAOT_CONV2D_1X1_DSP_GROUP * (groups % 4);
    const uint32_t *q = quad;
    while (q != by4) {
        tinyaot_conv2d_1x1_dsp_group(&q, tinyaot_load_u32(w), a);
        w += 4;
    }
    while (q != end) {
        tinyaot_conv2d_1x1_dsp_group(&q, tinyaot_load_u32(w), a);
        tinyaot_conv2d_1x1_dsp_group(&q, tinyaot_load_u32(w + 4), a);
        tinyaot_conv2d_1x1_dsp_group(&q, tinyaot_load_u32(w + 8), a);
        tinyaot_conv2d_1x1_dsp_group(&q, tinyaot_load_u32(w + 12), a);
        w += 16;
    }
    if (TINYAOT_RARELY(tail)) {
        tinyaot_conv2d_1x1_dsp_group(&q, tinyaot_conv2d_1x1_dsp_tail_word(w, tail), a);
    }
}

/* The four pixels' input values (in[k]) widened into quad, groups as above, a cut last
   group padded with zeros. */
static void tinyaot_conv2d_1x1_dsp_widen(const int8_t *const in[4], int32_t depth, uint32_t *quad)
{
    int32_t ic, k;
    for (ic = 0; ic < depth; ic += 4) {
        for (k = 0; k < 4; k++) {
            const uint32_t x = depth - ic >= 4 ? tinyaot_load_u32(in[k] + ic)
                                               : tinyaot_conv2d_1x1_dsp_tail_word(in[k] + ic, depth - ic);
            quad[2 * k] = tinyaot_sxtb16(x);
            quad[2 * k + 1] = tinyaot_sxtb16_ror8(x);
        }
        quad += TINYAOT_CONV2D_1X1_DSP_GROUP;
    }
}

/*
 * Every output channel of four output pixels, whose inputs are widened in quad; out[k]
 * at pixel k's outputs (a pixel short of four is one of the others again: the same
 * values written twice). r: the kernel's requantization; folds: tinyaot_channel_requant_folds.
 */
static void tinyaot_conv2d_1x1_dsp_quad(const struct tinyaot_conv2d_1x1_params *p,
                                        const struct tinyaot_channel_requant *r, int32_t folds,
                                        const uint32_t *quad, const int8_t *filter, const int32_t *bias,
                                        int8_t *const out[4])
{
    const int32_t depth = p->input_ch, output_ch = p->output_ch;
    const int32_t groups = depth / 4, tail = depth % 4;
    int8_t *const out0 = out[0], *const out1 = out[1], *const out2 = out[2], *const out3 = out[3];
    const int8_t *w = filter;
    int32_t oc;
    for (oc = 0; oc < output_ch; oc++, w += depth) {
        int32_t a[4];
        a[0] = a[1] = a[2] = a[3] = bias[oc];
        tinyaot_conv2d_1x1_dsp_sums(quad, w, groups, tail, a);
        if (TINYAOT_RARELY(!folds)) {
            const int32_t pair01[8] = {a[0], 0, 0, 0, a[1], 0, 0, 0}, pair23[8] = {a[2], 0, 0, 0, a[3], 0, 0, 0};
            tinyaot_conv2d_1x1_requantize_pair(r, oc, 1, pair01, out0, out1);
            tinyaot_conv2d_1x1_requantize_pair(r, oc, 1, pair23, out2, out3);
            continue;
        }
        {
#if TINYAOT_LONG_MULTIPLY
            const struct tinyaot_channel_fold f = tinyaot_channel_fold_of(r, oc);
            out0[oc] = tinyaot_channel_fold_s8(r, &f, a[0]);
            out1[oc] = tinyaot_channel_fold_s8(r, &f, a[1]);
            out2[oc] = tinyaot_channel_fold_s8(r, &f, a[2]);
            out3[oc] = tinyaot_channel_fold_s8(r, &f, a[3]);
#else
            tinyaot_channel_requantize2_folded_s8(r, oc, a[0], a[1], &out0[oc], &out1[oc]);
            tinyaot_channel_requantize2_folded_s8(r, oc, a[2], a[3], &out2[oc], &out3[oc]);
#endif
        }
    }
}

/*
 * The kernel, with quad a buffer of TINYAOT_CONV2D_1X1_DSP_GROUP words per group of
 * four input channels. Output pixels four at a time in raster order, each image's
 * from its first pixel: all four pixels' inputs are read (widened) before any of
 * their outputs is written (ops/overlap.py pointwise_quads).
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_dsp_run(const struct tinyaot_conv2d_1x1_params *p,
                                                        const int32_t *multiplier, const int32_t *shift,
                                                        const int8_t *input, const int8_t *filter,
                                                        const int32_t *bias, int8_t *output, uint32_t *quad)
{
    const int32_t pixels = p->output_h * p->output_w, output_ch = p->output_ch;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    const int32_t folds = tinyaot_channel_requant_folds(&r, output_ch);
    int32_t b, n, k;
    for (b = 0; b < p->batches; b++) {
        const int8_t *next = input + b * p->input_h * p->input_w * p->input_ch;
        int32_t ox = 0;
        for (n = 0; n < pixels; n += 4) {
            const int8_t *in[4];
            int8_t *out[4];
            in[0] = next;
            out[0] = output;
            next = tinyaot_conv2d_1x1_next(p, next, &ox);
            for (k = 1; k < 4; k++) {
                if (n + k < pixels) {
                    in[k] = next;
                    out[k] = output + k * output_ch;
                    next = tinyaot_conv2d_1x1_next(p, next, &ox);
                } else {  /* past the image: the pixel before again */
                    in[k] = in[k - 1];
                    out[k] = out[k - 1];
                }
            }
            tinyaot_conv2d_1x1_dsp_widen(in, p->input_ch, quad);
            tinyaot_conv2d_1x1_dsp_quad(p, &r, folds, quad, filter, bias, out);
            output += (pixels - n < 4 ? pixels - n : 4) * output_ch;
        }
    }
}

/*
 * TINYAOT_CONV2D_1X1_DSP_DEPTH(depth) defines the kernel for that input depth with its
 * buffer on the stack (8 * depth bytes, rounded up to whole groups), and
 * TINYAOT_CONV2D_1X1_DSP(depth) names it for p->dsp_sized: the generated code has one
 * for each depth its 1x1 convolutions take.
 */
#define TINYAOT_CONV2D_1X1_DSP_DEPTH(depth)                                                                      \
    static void tinyaot_conv2d_1x1_dsp_##depth(const struct tinyaot_conv2d_1x1_params *p,                      \
                                               const int32_t *multiplier, const int32_t *shift,                \
                                               const int8_t *input, const int8_t *filter, const int32_t *bias, \
                                               int8_t *output)                                                 \
    {                                                                                                            \
        uint32_t quad[TINYAOT_CONV2D_1X1_DSP_GROUP * (((depth) + 3) / 4)];                                       \
        tinyaot_conv2d_1x1_dsp_run(p, multiplier, shift, input, filter, bias, output, quad);                    \
    }
#define TINYAOT_CONV2D_1X1_DSP(depth) tinyaot_conv2d_1x1_dsp_##depth

/* filter: the model's [output_ch][input_ch]; bias: the folded bias (never NULL). */
static void tinyaot_conv2d_1x1_s8_dsp(const struct tinyaot_conv2d_1x1_params *p, const int32_t *multiplier,
                                      const int32_t *shift, const int8_t *input, const int8_t *filter,
                                      const int32_t *bias, int8_t *output)
{
    p->dsp_sized(p, multiplier, shift, input, filter, bias, output);
}

#endif /* TINYAOT_CONV2D_1X1_S8_DSP_H */
