/*
 * tinyaot_depthwise_mult_s8_dsp.h - int8 depthwise convolution of a one-channel input
 * (depth multiplier = output channels; also CONV_2D on one input channel, ops/conv.py)
 * with a window of up to TINYAOT_DEPTHWISE_MULT_DSP_TAPS taps, for cores with the DSP
 * extension (tinyaot_acle.h): DS-CNN's and micro_speech's first layers.
 *
 * Per output pixel the window's taps are gathered once into a buffer (the input zero
 * point for taps outside the input: with the input offset folded into the bias they add
 * w * (zp - zp) = 0), four taps to a word, each word spread by SXTB16 / SXTB16 ROR #8
 * into taps 0 and 2, 1 and 3 as 16-bit halves. The filter is laid out so that one 32-bit
 * load brings one output channel's weights of the same four taps: two SXTB16 and two
 * SMLAD then add four multiply-accumulates, four output channels at a time.
 */
#ifndef TINYAOT_DEPTHWISE_MULT_S8_DSP_H
#define TINYAOT_DEPTHWISE_MULT_S8_DSP_H

#include <string.h>

#include "tinyaot_acle.h"
#include "tinyaot_depthwise_conv2d_params.h"

/* Taps of the largest window (filter_h * filter_w, rounded up to 4): the gathered window
   lives on the stack, 2 bytes a tap. */
#define TINYAOT_DEPTHWISE_MULT_DSP_TAPS 128

/*
 * Four output channels' sums over a window of words words of four taps: x02/x13 the taps'
 * halves, w the four channels' weight words of each, [words][4 channels]; acc from the bias.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_mult_dsp_block(const uint32_t *x02, const uint32_t *x13, int32_t words,
                                                              const int8_t *w, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t j;
    for (j = 0; j < words; j++) {
        const uint32_t e = x02[j], o = x13[j];
        uint32_t ws = tinyaot_load_u32(w);
        a0 = tinyaot_smlad(e, tinyaot_sxtb16(ws), a0);
        a0 = tinyaot_smlad(o, tinyaot_sxtb16_ror8(ws), a0);
        ws = tinyaot_load_u32(w + 4);
        a1 = tinyaot_smlad(e, tinyaot_sxtb16(ws), a1);
        a1 = tinyaot_smlad(o, tinyaot_sxtb16_ror8(ws), a1);
        ws = tinyaot_load_u32(w + 8);
        a2 = tinyaot_smlad(e, tinyaot_sxtb16(ws), a2);
        a2 = tinyaot_smlad(o, tinyaot_sxtb16_ror8(ws), a2);
        ws = tinyaot_load_u32(w + 12);
        a3 = tinyaot_smlad(e, tinyaot_sxtb16(ws), a3);
        a3 = tinyaot_smlad(o, tinyaot_sxtb16_ror8(ws), a3);
        w += 16;
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/*
 * filter: per block of four output channels, per word of four taps (the window's taps
 * in [filter_h][filter_w] order, zero weights past the last), the four channels' four
 * weights ([blocks][words][4][4]; the last block's missing channels 0: re-laid out by
 * the lowering); bias: the bias with the input offset folded in. Output pixels in
 * raster order, each pixel's outputs written after its whole window is read.
 */
static void tinyaot_depthwise_mult_s8_dsp(const struct tinyaot_depthwise_conv2d_params *p,
                                          const int32_t *multiplier, const int32_t *shift,
                                          const int8_t *input, const int8_t *filter,
                                          const int32_t *bias, int8_t *output)
{
    const int32_t output_ch = p->depth_multiplier;
    const int32_t taps = p->filter_h * p->filter_w, words = (taps + 3) / 4;
    const int32_t reach_x = (p->filter_w - 1) * p->dilation_w;  /* from a window's first column to its last */
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    int8_t window[TINYAOT_DEPTHWISE_MULT_DSP_TAPS];
    uint32_t x02[TINYAOT_DEPTHWISE_MULT_DSP_TAPS / 4], x13[TINYAOT_DEPTHWISE_MULT_DSP_TAPS / 4];
    int32_t b, oy, ox, fy, fx, j, oc, k;
    memset(window, 0, sizeof window);  /* the taps past the last: zero weights */
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * p->input_w;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
                int8_t *tap = window;
                for (fy = 0; fy < p->filter_h; fy++) {
                    const int32_t y = y0 + fy * p->dilation_h;
                    const int8_t *row = in_image + (y >= 0 && y < p->input_h ? y : 0) * p->input_w;
                    if (y >= 0 && y < p->input_h && x0 >= 0 && x0 + reach_x < p->input_w) {
                        /* a whole row inside: a plain copy (most windows) */
                        for (fx = 0; fx < p->filter_w; fx++) {
                            *tap++ = row[x0 + fx * p->dilation_w];
                        }
                        continue;
                    }
                    for (fx = 0; fx < p->filter_w; fx++) {
                        const int32_t x = x0 + fx * p->dilation_w;
                        const int inside = y >= 0 && y < p->input_h && x >= 0 && x < p->input_w;
                        *tap++ = inside ? row[x] : (int8_t)-p->input_offset;
                    }
                }
                for (j = 0; j < words; j++) {
                    const uint32_t v = tinyaot_load_u32(window + 4 * j);
                    x02[j] = tinyaot_sxtb16(v);
                    x13[j] = tinyaot_sxtb16_ror8(v);
                }
                for (oc = 0; oc < output_ch; oc += 4) {
                    const int32_t n = output_ch - oc < 4 ? output_ch - oc : 4;
                    int32_t acc[4];
                    for (k = 0; k < 4; k++) {
                        acc[k] = k < n ? bias[oc + k] : 0;
                    }
                    tinyaot_depthwise_mult_dsp_block(x02, x13, words, filter + 4 * words * oc, acc);
                    for (k = 0; k < n; k++) {
                        output[oc + k] = tinyaot_channel_requantize_s8(&r, oc + k, acc[k]);
                    }
                }
                output += output_ch;
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_MULT_S8_DSP_H */
