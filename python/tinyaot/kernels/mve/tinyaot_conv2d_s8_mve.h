/*
 * tinyaot_conv2d_s8_mve.h - int8 CONV_2D (no groups; any filter size, stride, dilation and
 * padding) for Helium (MVE) cores: im2col and VMLADAVA, as CMSIS-NN's arm_convolve_s8 on
 * MVE (arm_nn_mat_mult_nt_t_s8), with the input offset folded into the bias (no VADDVA of
 * the filter's values) and the requantization rows built ahead.
 *
 * Four output pixels at a time, in raster order through the batch: each window gathered in
 * the filter's [filter_h][filter_w][channels] order, the input zero point for taps outside the
 * input (with the folded bias they add w * (zp - zp) = 0), into the scratch's chunked buffer
 * (tinyaot_conv2d_1x1_s8_mve.h's layout): straight there, 16 bytes a step, where input_ch is a
 * multiple of 16 (ResNet-8's 3x3 layers), else staged as one plain window, a filter row inside
 * the input one run of filter_w x input_ch bytes copied 16 at a time with predicated loads and
 * stores (3 runs of 9 bytes for a 3x3 window on 3 channels, the first layers of MobileNet and
 * person_detect; 10 of 8 for micro_speech's 10x8 on one channel), then put in whole chunks. Then each pair of filters (padded to whole chunks) against the four windows and
 * its four sums requantized in one vector (tinyaot_conv2d_1x1_s8_mve.h's quad). All four
 * windows are read before any of their outputs is written, so overlap.convolution holds; a
 * last quad short of four repeats its last pixel (the same values written twice).
 */
#ifndef TINYAOT_CONV2D_S8_MVE_H
#define TINYAOT_CONV2D_S8_MVE_H

#include <string.h>

#include "tinyaot_conv2d_1x1_s8_mve.h"
#include "tinyaot_conv2d_params.h"
#include "tinyaot_mve.h"

/*
 * A window's bytes [i, i + n) placed: at dst + i (staged: a plain window), or with whole chunks
 * (input_ch % 16 == 0, so i and n are multiples of 16) at their place in the chunked buffer,
 * dst + (i / 16) * 64 (dst: the pixel's lanes of chunk 0). From src, 16 bytes at a time (staged:
 * the last step predicated, no byte past either end).
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_mve_run(int8_t *dst, int32_t i, const int8_t *src, int32_t n,
                                                         int chunked)
{
    int32_t j;
    for (j = 0; j < n; j += 16) {
        if (chunked) {
            tinyaot_vst_s8(dst + ((i + j) >> 4) * 64, tinyaot_vld_s8(src + j));
        } else {
            const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(n - j));
            tinyaot_vst_s8_p(dst + i + j, tinyaot_vld_s8_z(src + j, lanes), lanes);
        }
    }
}

/* The same with n bytes of v's value (taps outside the input: the zero point). */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_mve_fill(int8_t *dst, int32_t i, tinyaot_s8x16 v, int32_t n,
                                                          int chunked)
{
    int32_t j;
    for (j = 0; j < n; j += 16) {
        tinyaot_vst_s8_p(chunked ? dst + ((i + j) >> 4) * 64 : dst + i + j, v, tinyaot_vctp8((uint32_t)(n - j)));
    }
}

/* Output pixel (oy, ox)'s window of the image, placed at dst as tinyaot_conv2d_mve_run. */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_mve_window(const struct tinyaot_conv2d_params *p,
                                                             const int8_t *image, int32_t oy, int32_t ox,
                                                             int8_t *dst, int chunked)
{
    /* Locals, not p->...: the window's stores are int8_t, which may alias anything. */
    const int32_t channels = p->input_ch, filter_w = p->filter_w, filter_h = p->filter_h;
    const int32_t input_w = p->input_w, input_h = p->input_h, dilation_w = p->dilation_w;
    const int32_t dilation_h = p->dilation_h, run = filter_w * channels;
    const int32_t y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    const int32_t x_last = x0 + (filter_w - 1) * dilation_w;
    const tinyaot_s8x16 zero_point = tinyaot_vdup_s8((int8_t)-p->input_offset);
    /* the row's taps side by side in the input: one run */
    const int whole_rows = dilation_w == 1 && x0 >= 0 && x_last < input_w;
    int32_t fy, fx, i = 0;
    for (fy = 0; fy < filter_h; fy++, i += run) {
        const int32_t y = y0 + fy * dilation_h;
        if (y < 0 || y >= input_h) {
            tinyaot_conv2d_mve_fill(dst, i, zero_point, run, chunked);
        } else if (whole_rows) {
            tinyaot_conv2d_mve_run(dst, i, image + (y * input_w + x0) * channels, run, chunked);
        } else {
            const int8_t *row = image + y * input_w * channels;
            for (fx = 0; fx < filter_w; fx++) {
                const int32_t x_in = x0 + fx * dilation_w;
                if (x_in >= 0 && x_in < input_w) {
                    tinyaot_conv2d_mve_run(dst, i + fx * channels, row + x_in * channels, channels, chunked);
                } else {
                    tinyaot_conv2d_mve_fill(dst, i + fx * channels, zero_point, channels, chunked);
                }
            }
        }
    }
}

/*
 * filter: the filter pairs; rows: each filter's requantization
 * row (both tinyaot_conv2d_1x1_s8_mve.h's, ops/conv_mve.py); multiplier, shift: NULL; x: the
 * scratch, the four windows in chunks (64 bytes a chunk), then (input_ch % 16 != 0) one window
 * staged, in whole chunks.
 */
static void tinyaot_conv2d_s8_mve(const struct tinyaot_conv2d_params *p, const int32_t *multiplier,
                                  const int32_t *shift, const int8_t *input, const int8_t *filter,
                                  const int32_t *rows, int8_t *output, int8_t *x)
{
    const int32_t depth = p->filter_h * p->filter_w * p->input_ch, output_ch = p->output_ch;
    const int32_t chunks = TINYAOT_MVE_CHUNKS(depth), pixels = p->batches * p->output_h * p->output_w;
    const int32_t image_size = p->input_h * p->input_w * p->input_ch;
    const struct tinyaot_conv2d_1x1_mve_out o = tinyaot_conv2d_1x1_mve_out_of(p->output_offset, p->act_min,
                                                                               p->act_max, rows, output_ch);
    /* whole chunks: straight into the chunked buffer; else through a window staged after it */
    const int chunked = (p->input_ch & 15) == 0;
    int8_t *staged = x + 64 * chunks;
    const int8_t *image = input;
    int32_t n, k, c, oy = 0, ox = 0;
    (void)multiplier, (void)shift;
    if (!chunked) {  /* the staged window's bytes after depth: zeros, for the whole chunks put */
        memset(staged + depth, 0, (size_t)(16 * chunks - depth));
    }
    for (n = 0; n < pixels; n += 4) {
        uint32_t offset[4];
        for (k = 0; k < 4; k++) {
            if (n + k < pixels) {
                if (chunked) {
                    tinyaot_conv2d_mve_window(p, image, oy, ox, x + 16 * k, 1);
                } else {
                    tinyaot_conv2d_mve_window(p, image, oy, ox, staged, 0);
                    tinyaot_conv2d_1x1_mve_put(x, k, staged, 16 * chunks);
                }
                offset[k] = (uint32_t)(k * output_ch);
                if (++ox == p->output_w) {
                    ox = 0;
                    if (++oy == p->output_h) {
                        oy = 0;
                        image += image_size;
                    }
                }
            } else {  /* past the last pixel: the one before again */
                for (c = 0; c < chunks; c++) {
                    tinyaot_vst_s8(x + 64 * c + 16 * k, tinyaot_vld_s8(x + 64 * c + 16 * (k - 1)));
                }
                offset[k] = offset[k - 1];
            }
        }
        tinyaot_conv2d_1x1_mve_quad(chunks, output_ch, &o, x, filter, rows, output, tinyaot_vld_u32(offset));
        output += (pixels - n < 4 ? pixels - n : 4) * output_ch;
    }
}

#endif /* TINYAOT_CONV2D_S8_MVE_H */
