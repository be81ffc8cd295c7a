/*
 * tinyaot_conv2d_1x1_s8_mve.h - int8 1x1 convolution for Helium (MVE) cores (NHWC input,
 * the model's own [output_ch][input_ch] filter, no groups): the numbers of
 * tinyaot_conv2d_1x1_s8.h (the input offset folded into the bias) with VMLADAVA, 16
 * multiply-accumulates an instruction.
 *
 * Four output pixels at a time, as tinyaot_conv2d_1x1_s8_dsp.h: their inputs are copied
 * into a buffer first (so all four are read before any output is written: the same
 * overlap, ops/overlap.py pointwise_quads), then for each output channel one load of 16
 * weights serves the four pixels' loads and VMLADAVAs (9 instructions for 64
 * multiply-accumulates, a depth % 16 on tail-predicated loads), and the channel's four
 * sums are requantized in one vector (CMSIS-NN's arm_requantize_mve, bit-exact with
 * TFLite's double rounding) and scattered to the four pixels.
 */
#ifndef TINYAOT_CONV2D_1X1_S8_MVE_H
#define TINYAOT_CONV2D_1X1_S8_MVE_H

#include <stddef.h>
#include <string.h>

#include "tinyaot_conv2d_1x1_params.h"
#include "tinyaot_mve.h"

/* One output channel's sums for the four pixels (their inputs at x, depth apart), added to a:
   whole vectors, then one tail-predicated step for depth % 16. A pointer for each row, so that
   every load post-increments its own (9 instructions per 16 values; no address arithmetic). */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_mve_sums(const int8_t *x, const int8_t *w, int32_t depth,
                                                              int32_t a[4])
{
    const int8_t *x0 = x, *x1 = x + depth, *x2 = x + 2 * depth, *x3 = x + 3 * depth;
    int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    int32_t n;
    for (n = depth >> 4; n > 0; n--) {
        const tinyaot_s8x16 wv = tinyaot_vld_s8(w);
        a0 = tinyaot_vmladava_s8(a0, tinyaot_vld_s8(x0), wv);
        a1 = tinyaot_vmladava_s8(a1, tinyaot_vld_s8(x1), wv);
        a2 = tinyaot_vmladava_s8(a2, tinyaot_vld_s8(x2), wv);
        a3 = tinyaot_vmladava_s8(a3, tinyaot_vld_s8(x3), wv);
        w += 16, x0 += 16, x1 += 16, x2 += 16, x3 += 16;
    }
    if (depth & 15) {
        const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(depth & 15));
        const tinyaot_s8x16 wv = tinyaot_vld_s8_z(w, lanes);
        a0 = tinyaot_vmladava_s8(a0, tinyaot_vld_s8_z(x0, lanes), wv);
        a1 = tinyaot_vmladava_s8(a1, tinyaot_vld_s8_z(x1, lanes), wv);
        a2 = tinyaot_vmladava_s8(a2, tinyaot_vld_s8_z(x2, lanes), wv);
        a3 = tinyaot_vmladava_s8(a3, tinyaot_vld_s8_z(x3, lanes), wv);
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
}

/*
 * Every output channel of four output pixels, their inputs (depth values each) copied to x;
 * filter: output_ch rows of depth; out0 at pixel 0's outputs, offset[k] from there to pixel
 * k's. The four sums of a channel are requantized together in one vector and scattered to
 * the four pixels. Also the general convolution's (tinyaot_conv2d_s8_mve.h), on its windows.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_mve_quad(int32_t depth, int32_t output_ch,
                                                         const struct tinyaot_channel_requant *r, const int8_t *x,
                                                         const int8_t *filter, const int32_t *bias, int8_t *out0,
                                                         tinyaot_u32x4 offset)
{
    const tinyaot_s32x4 act_min = tinyaot_vdup_s32(r->act_min), act_max = tinyaot_vdup_s32(r->act_max);
    const int8_t *w = filter;
    int32_t oc;
    for (oc = 0; oc < output_ch; oc++, w += depth) {
        const int32_t ch = oc & r->channel_mask;
        int32_t a[4];
        tinyaot_s32x4 v;
        a[0] = a[1] = a[2] = a[3] = bias[oc];
        tinyaot_conv2d_1x1_mve_sums(x, w, depth, a);
        v = tinyaot_vrequantize_s32(tinyaot_vld_s32(a), r->multiplier[ch], r->shift[ch]);
        v = tinyaot_vmin_s32(tinyaot_vmax_s32(tinyaot_vadd_n_s32(v, r->output_offset), act_min), act_max);
        tinyaot_vst_scatter_s8(out0 + oc, offset, v);
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
    int32_t b, n, k;
    for (b = 0; b < p->batches; b++) {
        const int8_t *next = input + b * p->input_h * p->input_w * depth;
        int32_t ox = 0;
        for (n = 0; n < pixels; n += 4) {
            uint32_t offset[4];
            for (k = 0; k < 4; k++) {
                if (n + k < pixels) {
                    memcpy(x + k * depth, next, (size_t)depth);
                    offset[k] = (uint32_t)(k * output_ch);
                    next = tinyaot_conv2d_1x1_next(p, next, &ox);
                } else {  /* past the image: the pixel before again */
                    memcpy(x + k * depth, x + (k - 1) * depth, (size_t)depth);
                    offset[k] = offset[k - 1];
                }
            }
            tinyaot_conv2d_1x1_mve_quad(depth, output_ch, &r, x, filter, bias, output,
                                        tinyaot_vld_u32(offset));
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
static inline void tinyaot_conv2d_1x1_s8_mve(const struct tinyaot_conv2d_1x1_params *p, const int32_t *multiplier,
                                             const int32_t *shift, const int8_t *input, const int8_t *filter,
                                             const int32_t *bias, int8_t *output)
{
    p->dsp_sized(p, multiplier, shift, input, filter, bias, output);
}

#endif /* TINYAOT_CONV2D_1X1_S8_MVE_H */
