/*
 * tinyaot_conv2d_gather_s8_dsp.h - int8 CONV_2D (no groups) whose window holds up to
 * TINYAOT_CONV2D_GATHER_DEPTH values (filter_h * filter_w * input channels), for cores
 * with the DSP extension (tinyaot_acle.h): ResNet-8's 3x3 layers, the first layers of
 * MobileNet and person_detect.
 *
 * Two output pixels at a time (the last of an odd row alone): both windows are gathered
 * once into a buffer in the filter's [filter_h][filter_w][channels] order (the input zero
 * point for taps outside the input: with the input offset folded into the bias they add
 * w * (zp - zp) = 0), four values to a word, each word spread by SXTB16 / SXTB16 ROR #8
 * into values 0 and 2, 1 and 3 as 16-bit halves. A filter's row, zero-padded to a whole
 * word, is read a word at a time and spread the same way: two SMLAD per word and pixel,
 * each weight word serving both pixels, two filters at a time (the sums, the pixels'
 * halves and a weight word fill the registers).
 */
#ifndef TINYAOT_CONV2D_GATHER_S8_DSP_H
#define TINYAOT_CONV2D_GATHER_S8_DSP_H

#include <string.h>

#include "tinyaot_acle.h"
#include "tinyaot_conv2d_params.h"

/* Values in the largest window (rounded up to 4); the two gathered windows take 6 bytes a
   value on the stack (3x3x64, ResNet-8's largest: 3.4 KB). */
#define TINYAOT_CONV2D_GATHER_DEPTH 576

/*
 * Two filters' sums for two pixels (acc: filter 0 of both pixels, then filter 1's) over
 * `words` words: x per word the first pixel's halves (values 0 and 2, then 1 and 3),
 * then the second's; w0, w1 the filters' rows.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_gather_block_dsp(const uint32_t *x, int32_t words, const int8_t *w0,
                                                             const int8_t *w1, int32_t acc[4])
{
    int32_t a0 = acc[0], b0 = acc[1], a1 = acc[2], b1 = acc[3];
    int32_t j;
    for (j = 0; j < words; j++) {
        const uint32_t ae = x[0], ao = x[1], be = x[2], bo = x[3];
        uint32_t ws = tinyaot_load_u32(w0), e = tinyaot_sxtb16(ws), o = tinyaot_sxtb16_ror8(ws);
        a0 = tinyaot_smlad(ae, e, a0);
        a0 = tinyaot_smlad(ao, o, a0);
        b0 = tinyaot_smlad(be, e, b0);
        b0 = tinyaot_smlad(bo, o, b0);
        ws = tinyaot_load_u32(w1), e = tinyaot_sxtb16(ws), o = tinyaot_sxtb16_ror8(ws);
        a1 = tinyaot_smlad(ae, e, a1);
        a1 = tinyaot_smlad(ao, o, a1);
        b1 = tinyaot_smlad(be, e, b1);
        b1 = tinyaot_smlad(bo, o, b1);
        x += 4;
        w0 += 4;
        w1 += 4;
    }
    acc[0] = a0, acc[1] = b0, acc[2] = a1, acc[3] = b1;
}

/* Output pixel (oy, ox)'s window into window[depth] (zero past the last value). */
static void tinyaot_conv2d_gather_window_dsp(const struct tinyaot_conv2d_params *p, const int8_t *in_image,
                                             int32_t oy, int32_t ox, int8_t *window)
{
    const int32_t channels = p->input_ch, y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    int32_t fy, fx;
    for (fy = 0; fy < p->filter_h; fy++) {
        const int32_t y = y0 + fy * p->dilation_h;
        for (fx = 0; fx < p->filter_w; fx++) {
            const int32_t x = x0 + fx * p->dilation_w;
            if (y >= 0 && y < p->input_h && x >= 0 && x < p->input_w) {
                memcpy(window, in_image + (y * p->input_w + x) * channels, (size_t)channels);
            } else {
                memset(window, -p->input_offset, (size_t)channels);
            }
            window += channels;
        }
    }
}

/*
 * filter: each filter's [filter_h][filter_w][channels] row zero-padded to a multiple of 4
 * (re-laid out by the lowering); bias: the bias with the input offset folded in. Output
 * pixels in raster order, two at a time: both windows are read before any of their
 * outputs is written (so overlap.convolution holds).
 */
static void tinyaot_conv2d_gather_s8_dsp(const struct tinyaot_conv2d_params *p, const int32_t *multiplier,
                                         const int32_t *shift, const int8_t *input, const int8_t *filter,
                                         const int32_t *bias, int8_t *output)
{
    const int32_t output_ch = p->output_ch;
    const int32_t depth = p->filter_h * p->filter_w * p->input_ch, words = (depth + 3) / 4;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    const int32_t folds = tinyaot_channel_requant_folds(&r, output_ch);
    int8_t window[2][TINYAOT_CONV2D_GATHER_DEPTH];
    uint32_t x[TINYAOT_CONV2D_GATHER_DEPTH];  /* per word: 4 halves words, see the block */
    int32_t b, oy, ox, j, oc, k;
    memset(window, 0, sizeof window);  /* past the last value: zero weights */
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox += 2) {
                const int32_t pixels = ox + 1 < p->output_w ? 2 : 1;
                int8_t *second = output + output_ch;
                tinyaot_conv2d_gather_window_dsp(p, in_image, oy, ox, window[0]);
                if (pixels == 2) {
                    tinyaot_conv2d_gather_window_dsp(p, in_image, oy, ox + 1, window[1]);
                }
                for (j = 0; j < words; j++) {
                    const uint32_t u = tinyaot_load_u32(window[0] + 4 * j), v = tinyaot_load_u32(window[1] + 4 * j);
                    x[4 * j] = tinyaot_sxtb16(u);
                    x[4 * j + 1] = tinyaot_sxtb16_ror8(u);
                    x[4 * j + 2] = tinyaot_sxtb16(v);
                    x[4 * j + 3] = tinyaot_sxtb16_ror8(v);
                }
                for (oc = 0; oc < output_ch; oc += 2) {
                    const int32_t n = output_ch - oc < 2 ? 1 : 2;
                    const int8_t *w0 = filter + oc * 4 * words;
                    int32_t acc[4];
                    acc[0] = acc[1] = bias[oc];
                    acc[2] = acc[3] = n == 2 ? bias[oc + 1] : 0;
                    /* a lone last filter: its row twice, the second copy's sums unused */
                    tinyaot_conv2d_gather_block_dsp(x, words, w0, n == 2 ? w0 + 4 * words : w0, acc);
                    for (k = 0; k < n; k++) {
                        int8_t unused;
                        int8_t *to_second = pixels == 2 ? &second[oc + k] : &unused;
                        if (folds) {
                            tinyaot_channel_requantize2_folded_s8(&r, oc + k, acc[2 * k], acc[2 * k + 1],
                                                                  &output[oc + k], to_second);
                        } else {
                            tinyaot_channel_requantize2_s8(&r, oc + k, acc[2 * k], acc[2 * k + 1], &output[oc + k],
                                                           to_second);
                        }
                    }
                }
                output += pixels * output_ch;
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_GATHER_S8_DSP_H */
