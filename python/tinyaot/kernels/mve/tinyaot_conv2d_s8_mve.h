/*
 * tinyaot_conv2d_s8_mve.h - int8 CONV_2D (no groups; any filter size, stride, dilation and
 * padding) for Helium (MVE) cores: im2col and VMLADAVA, as CMSIS-NN's arm_convolve_s8 on
 * MVE (arm_nn_mat_mult_nt_t_s8), with the input offset folded into the bias (no VADDVA of
 * the filter's values) and the requantization rows built ahead.
 *
 * Four output pixels at a time, in raster order through the batch: each window is gathered
 * into the scratch in the filter's [filter_h][filter_w][channels] order, the input zero point
 * for taps outside the input (with the folded bias they add w * (zp - zp) = 0), then put into
 * the four windows' chunked buffer (tinyaot_conv2d_1x1_s8_mve.h's layout, zeros after each
 * window). A filter row inside the input is one run of filter_w x input_ch bytes, copied 16 at
 * a time with predicated loads and stores: 3 runs of 9 bytes for a 3x3 window on 3 channels
 * (the first layers of MobileNet and person_detect), 10 of 8 for micro_speech's 10x8 on one
 * channel. Then each pair of filters (padded to whole chunks) against the four windows and
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

/* n bytes from src to dst, 16 at a time (the last step predicated: no byte past either end). */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_mve_copy(int8_t *dst, const int8_t *src, int32_t n)
{
    int32_t i;
    for (i = 0; i < n; i += 16) {
        const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(n - i));
        tinyaot_vst_s8_p(dst + i, tinyaot_vld_s8_z(src + i, lanes), lanes);
    }
}

/* Output pixel (oy, ox)'s window of the image into window. */
static void tinyaot_conv2d_mve_window(const struct tinyaot_conv2d_params *p, const int8_t *image, int32_t oy,
                                      int32_t ox, int8_t *window)
{
    const int32_t channels = p->input_ch, run = p->filter_w * channels;
    const int32_t y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    const int32_t x_last = x0 + (p->filter_w - 1) * p->dilation_w;
    const int zero_point = -p->input_offset;
    /* the row's taps side by side in the input: one run */
    const int whole_rows = p->dilation_w == 1 && x0 >= 0 && x_last < p->input_w;
    int32_t fy, fx;
    for (fy = 0; fy < p->filter_h; fy++, window += run) {
        const int32_t y = y0 + fy * p->dilation_h;
        if (y < 0 || y >= p->input_h) {
            memset(window, zero_point, (size_t)run);
        } else if (whole_rows) {
            tinyaot_conv2d_mve_copy(window, image + (y * p->input_w + x0) * channels, run);
        } else {
            const int8_t *row = image + y * p->input_w * channels;
            for (fx = 0; fx < p->filter_w; fx++) {
                const int32_t x = x0 + fx * p->dilation_w;
                if (x >= 0 && x < p->input_w) {
                    tinyaot_conv2d_mve_copy(window + fx * channels, row + x * channels, channels);
                } else {
                    memset(window + fx * channels, zero_point, (size_t)channels);
                }
            }
        }
    }
}

/*
 * filter: the filter pairs; rows: each filter's requantization
 * row (both tinyaot_conv2d_1x1_s8_mve.h's, ops/conv_mve.py); multiplier, shift: NULL; x: the
 * scratch, the four windows in chunks (64 bytes a chunk) and after them one window as gathered.
 */
static void tinyaot_conv2d_s8_mve(const struct tinyaot_conv2d_params *p, const int32_t *multiplier,
                                  const int32_t *shift, const int8_t *input, const int8_t *filter,
                                  const int32_t *rows, int8_t *output, int8_t *x)
{
    const int32_t depth = p->filter_h * p->filter_w * p->input_ch, output_ch = p->output_ch;
    const int32_t chunks = TINYAOT_MVE_CHUNKS(depth), pixels = p->batches * p->output_h * p->output_w;
    const int32_t image_size = p->input_h * p->input_w * p->input_ch;
    const struct tinyaot_conv2d_1x1_mve_out o = tinyaot_conv2d_1x1_mve_out_of(p->output_offset, p->act_min,
                                                                               p->act_max);
    int8_t *window = x + 64 * chunks;
    const int8_t *image = input;
    int32_t n, k, oy = 0, ox = 0;
    (void)multiplier, (void)shift;
    for (n = 0; n < pixels; n += 4) {
        uint32_t offset[4];
        for (k = 0; k < 4; k++) {
            if (n + k < pixels) {
                tinyaot_conv2d_mve_window(p, image, oy, ox, window);
                offset[k] = (uint32_t)(k * output_ch);
                if (++ox == p->output_w) {
                    ox = 0;
                    if (++oy == p->output_h) {
                        oy = 0;
                        image += image_size;
                    }
                }
            } else {  /* past the last pixel: the one before again (still in window) */
                offset[k] = offset[k - 1];
            }
            tinyaot_conv2d_1x1_mve_put(x, k, window, depth);
        }
        tinyaot_conv2d_1x1_mve_quad(chunks, output_ch, &o, x, filter, rows, output, tinyaot_vld_u32(offset));
        output += (pixels - n < 4 ? pixels - n : 4) * output_ch;
    }
}

#endif /* TINYAOT_CONV2D_S8_MVE_H */
