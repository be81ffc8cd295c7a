/*
 * tinyaot_conv2d_1x1_s8_mve.h - int8 1x1 convolution for Helium (MVE) cores (NHWC input,
 * the model's own [output_ch][input_ch] filter, no groups): the numbers of
 * tinyaot_conv2d_1x1_s8.h (the input offset folded into the bias) with VMLADAVA, 16
 * multiply-accumulates an instruction.
 *
 * Four output pixels at a time, as tinyaot_conv2d_1x1_s8_dsp.h: their inputs are copied
 * into a buffer first (so all four are read before any output is written: the same
 * overlap, ops/overlap.py pointwise_quads), then for each output channel one load of 16
 * weights serves the four pixels' loads and VMLADAVAs: about 10 instructions for 64
 * multiply-accumulates. A depth that is not a multiple of 16 ends on tail-predicated loads.
 */
#ifndef TINYAOT_CONV2D_1X1_S8_MVE_H
#define TINYAOT_CONV2D_1X1_S8_MVE_H

#include <stddef.h>
#include <string.h>

#include "tinyaot_conv2d_1x1_params.h"
#include "tinyaot_mve.h"

/* One output channel's sums for the four pixels (their inputs at x, depth apart), added to a. */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_mve_sums(const int8_t *x, const int8_t *w, int32_t depth,
                                                              int32_t a[4])
{
    int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    int32_t ic;
    for (ic = 0; ic < depth; ic += 16) {
        const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(depth - ic));
        const tinyaot_s8x16 wv = tinyaot_vld_s8_z(w + ic, lanes);
        a0 = tinyaot_vmladava_s8(a0, tinyaot_vld_s8_z(x + ic, lanes), wv);
        a1 = tinyaot_vmladava_s8(a1, tinyaot_vld_s8_z(x + depth + ic, lanes), wv);
        a2 = tinyaot_vmladava_s8(a2, tinyaot_vld_s8_z(x + 2 * depth + ic, lanes), wv);
        a3 = tinyaot_vmladava_s8(a3, tinyaot_vld_s8_z(x + 3 * depth + ic, lanes), wv);
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
}

/* Every output channel of four output pixels, their inputs copied to x; out[k] at pixel k's outputs. */
static void tinyaot_conv2d_1x1_mve_quad(const struct tinyaot_conv2d_1x1_params *p,
                                        const struct tinyaot_channel_requant *r, int32_t folds, const int8_t *x,
                                        const int8_t *filter, const int32_t *bias, int8_t *const out[4])
{
    const int32_t depth = p->input_ch, output_ch = p->output_ch;
    int8_t *const out0 = out[0], *const out1 = out[1], *const out2 = out[2], *const out3 = out[3];
    const int8_t *w = filter;
    int32_t oc;
    for (oc = 0; oc < output_ch; oc++, w += depth) {
        int32_t a[4];
        a[0] = a[1] = a[2] = a[3] = bias[oc];
        tinyaot_conv2d_1x1_mve_sums(x, w, depth, a);
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
 * The kernel, with x a buffer of 4 x input_ch bytes. Output pixels four at a time in raster
 * order, each image's from its first pixel (a pixel short of four is the one before again:
 * the same values written twice).
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_mve_run(const struct tinyaot_conv2d_1x1_params *p,
                                                        const int32_t *multiplier, const int32_t *shift,
                                                        const int8_t *input, const int8_t *filter,
                                                        const int32_t *bias, int8_t *output, int8_t *x)
{
    const int32_t pixels = p->output_h * p->output_w, output_ch = p->output_ch, depth = p->input_ch;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    const int32_t folds = tinyaot_channel_requant_folds(&r, output_ch);
    int32_t b, n, k;
    for (b = 0; b < p->batches; b++) {
        const int8_t *next = input + b * p->input_h * p->input_w * depth;
        int32_t ox = 0;
        for (n = 0; n < pixels; n += 4) {
            int8_t *out[4];
            for (k = 0; k < 4; k++) {
                if (n + k < pixels) {
                    memcpy(x + k * depth, next, (size_t)depth);
                    out[k] = output + k * output_ch;
                    next = tinyaot_conv2d_1x1_next(p, next, &ox);
                } else {  /* past the image: the pixel before again */
                    memcpy(x + k * depth, x + (k - 1) * depth, (size_t)depth);
                    out[k] = out[k - 1];
                }
            }
            tinyaot_conv2d_1x1_mve_quad(p, &r, folds, x, filter, bias, out);
            output += (pixels - n < 4 ? pixels - n : 4) * output_ch;
        }
    }
}

/*
 * TINYAOT_CONV2D_1X1_MVE_DEPTH(depth) defines the kernel for that input depth with its
 * buffer on the stack (4 * depth bytes), and TINYAOT_CONV2D_1X1_MVE(depth) names it for
 * p->dsp_sized: the generated code has one for each depth its 1x1 convolutions take.
 */
#define TINYAOT_CONV2D_1X1_MVE_DEPTH(depth)                                                                      \
    static void tinyaot_conv2d_1x1_mve_##depth(const struct tinyaot_conv2d_1x1_params *p,                      \
                                               const int32_t *multiplier, const int32_t *shift,                \
                                               const int8_t *input, const int8_t *filter, const int32_t *bias, \
                                               int8_t *output)                                                 \
    {                                                                                                            \
        int8_t x[4 * (depth)];                                                                                   \
        tinyaot_conv2d_1x1_mve_run(p, multiplier, shift, input, filter, bias, output, x);                       \
    }
#define TINYAOT_CONV2D_1X1_MVE(depth) tinyaot_conv2d_1x1_mve_##depth

/* filter: the model's [output_ch][input_ch]; bias: the folded bias (never NULL). */
static void tinyaot_conv2d_1x1_s8_mve(const struct tinyaot_conv2d_1x1_params *p, const int32_t *multiplier,
                                      const int32_t *shift, const int8_t *input, const int8_t *filter,
                                      const int32_t *bias, int8_t *output)
{
    p->dsp_sized(p, multiplier, shift, input, filter, bias, output);
}

#endif /* TINYAOT_CONV2D_1X1_S8_MVE_H */
