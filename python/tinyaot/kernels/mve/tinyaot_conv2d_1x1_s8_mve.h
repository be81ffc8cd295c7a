/*
 * tinyaot_conv2d_1x1_s8_mve.h - int8 1x1 convolution for Helium (MVE) cores (NHWC input, no
 * groups): the numbers of tinyaot_conv2d_1x1_s8.h (the input offset folded into the bias) with
 * VMLADAVA, 16 multiply-accumulates an instruction.
 *
 * Four output pixels at a time: their inputs are copied first into a buffer of 16-byte
 * chunks, [chunk][pixel][16], each pixel's depth padded with zeros to whole chunks (so all four
 * are read before any output is written: the same overlap, ops/overlap.py pointwise_quads).
 * Tables built ahead (ops/conv_mve.py): the filters in pairs, [pair][chunk][filter][16] (each
 * row padded with zero weights to whole chunks, an odd last filter paired with zeros), and per
 * filter its requantization row {folded bias, multiplier, left shift, right shift}. A pair's
 * chunk is 6 loads and 8 VMLADAVAs (tinyaot_mve.h's tinyaot_vmladava_4x2_s8: 16 instructions
 * for 128 multiply-accumulates, CMSIS-NN's 4 x 1 loop about 22); then each filter's four sums
 * are requantized in one vector (CMSIS-NN's arm_requantize_mve, bit-exact with TFLite's double
 * rounding) and scattered to the pixels.
 */
#ifndef TINYAOT_CONV2D_1X1_S8_MVE_H
#define TINYAOT_CONV2D_1X1_S8_MVE_H

#include <stddef.h>

#include "tinyaot_conv2d_1x1_params.h"
#include "tinyaot_mve.h"

/* 16-byte chunks of a pixel's input in the buffer: its depth rounded up. */
#define TINYAOT_MVE_CHUNKS(depth) (((depth) + 15) / 16)

/* depth bytes of src to pixel k's lanes of the chunked buffer x, zeros after them. */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_mve_put(int8_t *x, int32_t k, const int8_t *src, int32_t depth)
{
    int32_t i;
    for (i = 0, x += 16 * k; i + 16 <= depth; i += 16, x += 64) {
        tinyaot_vst_s8(x, tinyaot_vld_s8(src + i));
    }
    if (i < depth) {  /* the last chunk's zeros: a predicated load */
        tinyaot_vst_s8(x, tinyaot_vld_s8_z(src + i, tinyaot_vctp8((uint32_t)(depth - i))));
    }
}

/* The requantization's output side, in locals: the outputs are int8_t, which may alias
   anything, and would have these reloaded after every store. */
struct tinyaot_conv2d_1x1_mve_out {
    int32_t output_offset;
    tinyaot_s32x4 act_min, act_max;
    int right_only;  /* every filter's left shift 0 and right shift < 0 (the common case) */
};

/* One filter's four sums (lanes: the pixels) requantized with its row {bias (in the sums
   already), multiplier, left shift, right shift} and stored at out + offset[k]; right_only: the
   rows' shifts are right ones only (no left shift to make, the rounding fix-up always on). */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_mve_out(const struct tinyaot_conv2d_1x1_mve_out *q,
                                                             tinyaot_s32x4 sums, const int32_t *row, int8_t *out,
                                                             tinyaot_u32x4 offset, int right_only)
{
    tinyaot_s32x4 v = right_only ? tinyaot_vrequantize_right_s32(sums, row[1], row[3])
                                 : tinyaot_vrequantize_s32(sums, row[1], row[2], row[3]);
    v = tinyaot_vmin_s32(tinyaot_vmax_s32(tinyaot_vadd_n_s32(v, q->output_offset), q->act_min), q->act_max);
    tinyaot_vst_scatter_s8(out, offset, v);
}

/* The quad's filters (below), right_only as tinyaot_conv2d_1x1_mve_out's: a constant where
   inlined, so that each way has its own loop. */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_1x1_mve_filters(int32_t chunks, int32_t output_ch,
                                                                 const struct tinyaot_conv2d_1x1_mve_out *q,
                                                                 const int8_t *x, const int8_t *w, const int32_t *rows,
                                                                 int8_t *out, tinyaot_u32x4 offset, int right_only)
{
    int32_t left;
    for (left = output_ch; left > 0; left -= 2, out += 2, rows += 8) {
        int32_t s[8];
        s[0] = s[1] = s[2] = s[3] = rows[0];  /* from the folded biases */
        s[4] = s[5] = s[6] = s[7] = rows[4];
        w = tinyaot_vmladava_4x2_s8(x, w, chunks, s);
        tinyaot_conv2d_1x1_mve_out(q, tinyaot_vcreate_s32(s[0], s[1], s[2], s[3]), rows, out, offset, right_only);
        if (left > 1) {  /* an odd count's last partner: zeros, not stored */
            tinyaot_conv2d_1x1_mve_out(q, tinyaot_vcreate_s32(s[4], s[5], s[6], s[7]), rows + 4, out + 1, offset,
                                       right_only);
        }
    }
}

/*
 * Every output channel of four output pixels, their inputs in the chunked buffer x (chunks
 * of 16 bytes each); filter: the filters in pairs (above); rows: each filter's requantization
 * row (an odd count's zero partner too); out0 at pixel 0's outputs, offset[k] from there to
 * pixel k's. Also the general convolution's (tinyaot_conv2d_s8_mve.h), on its windows.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_mve_quad(int32_t chunks, int32_t output_ch,
                                                         const struct tinyaot_conv2d_1x1_mve_out *o, const int8_t *x,
                                                         const int8_t *filter, const int32_t *rows, int8_t *out0,
                                                         tinyaot_u32x4 offset)
{
    const struct tinyaot_conv2d_1x1_mve_out q = *o;
    if (q.right_only) {
        tinyaot_conv2d_1x1_mve_filters(chunks, output_ch, &q, x, filter, rows, out0, offset, 1);
    } else {
        tinyaot_conv2d_1x1_mve_filters(chunks, output_ch, &q, x, filter, rows, out0, offset, 0);
    }
}

/* The output side of a layer's requantization; rows: its output_ch requantization rows. */
static inline struct tinyaot_conv2d_1x1_mve_out tinyaot_conv2d_1x1_mve_out_of(int32_t output_offset, int32_t act_min,
                                                                               int32_t act_max, const int32_t *rows,
                                                                               int32_t output_ch)
{
    struct tinyaot_conv2d_1x1_mve_out o;
    int32_t oc;
    o.output_offset = output_offset;
    o.act_min = tinyaot_vdup_s32(act_min);
    o.act_max = tinyaot_vdup_s32(act_max);
    o.right_only = 1;
    for (oc = 0; oc < output_ch; oc++) {
        o.right_only &= rows[4 * oc + 2] == 0 && rows[4 * oc + 3] < 0;
    }
    return o;
}

/*
 * The kernel, with x a buffer of 64 x TINYAOT_MVE_CHUNKS(input_ch) bytes. Output pixels four
 * at a time in raster order, each image's from its first pixel (a pixel short of four is the
 * one before again: the same values written twice).
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_mve_run(const struct tinyaot_conv2d_1x1_params *p,
                                                        const int8_t *input, const int8_t *filter,
                                                        const int32_t *rows, int8_t *output, int8_t *x)
{
    const int32_t pixels = p->output_h * p->output_w, output_ch = p->output_ch, depth = p->input_ch;
    const struct tinyaot_conv2d_1x1_mve_out o = tinyaot_conv2d_1x1_mve_out_of(p->output_offset, p->act_min,
                                                                               p->act_max, rows, output_ch);
    int32_t b, n, k;
    for (b = 0; b < p->batches; b++) {
        const int8_t *next = input + b * p->input_h * p->input_w * depth, *src = next;
        int32_t ox = 0;
        for (n = 0; n < pixels; n += 4) {
            uint32_t offset[4];
            for (k = 0; k < 4; k++) {
                if (n + k < pixels) {
                    src = next;
                    offset[k] = (uint32_t)(k * output_ch);
                    next = tinyaot_conv2d_1x1_next(p, next, &ox);
                } else {  /* past the image: the pixel before again */
                    offset[k] = offset[k - 1];
                }
                tinyaot_conv2d_1x1_mve_put(x, k, src, depth);
            }
            tinyaot_conv2d_1x1_mve_quad(TINYAOT_MVE_CHUNKS(depth), output_ch, &o, x, filter, rows, output,
                                        tinyaot_vld_u32(offset));
            output += (pixels - n < 4 ? pixels - n : 4) * output_ch;
        }
    }
}

/*
 * TINYAOT_CONV2D_1X1_MVE_DEPTH(depth) defines the kernel for that input depth with its
 * buffer on the stack (64 bytes a chunk), and TINYAOT_CONV2D_1X1_MVE(depth) names it for
 * p->dsp_sized: the generated code has one for each depth its 1x1 convolutions take.
 * multiplier and shift: NULL (the requantization rows hold them).
 */
#define TINYAOT_CONV2D_1X1_MVE_DEPTH(depth)                                                                      \
    static void tinyaot_conv2d_1x1_mve_##depth(const struct tinyaot_conv2d_1x1_params *p,                      \
                                               const int32_t *multiplier, const int32_t *shift,                \
                                               const int8_t *input, const int8_t *filter, const int32_t *rows, \
                                               int8_t *output)                                                 \
    {                                                                                                            \
        int8_t x[64 * TINYAOT_MVE_CHUNKS(depth)];                                                                \
        (void)multiplier, (void)shift;                                                                           \
        tinyaot_conv2d_1x1_mve_run(p, input, filter, rows, output, x);                                           \
    }
#define TINYAOT_CONV2D_1X1_MVE(depth) tinyaot_conv2d_1x1_mve_##depth

/* filter: the filter pairs; rows: the requantization rows (above); multiplier, shift: NULL. */
static inline void tinyaot_conv2d_1x1_s8_mve(const struct tinyaot_conv2d_1x1_params *p, const int32_t *multiplier,
                                             const int32_t *shift, const int8_t *input, const int8_t *filter,
                                             const int32_t *rows, int8_t *output)
{
    p->dsp_sized(p, multiplier, shift, input, filter, rows, output);
}

#endif /* TINYAOT_CONV2D_1X1_S8_MVE_H */
