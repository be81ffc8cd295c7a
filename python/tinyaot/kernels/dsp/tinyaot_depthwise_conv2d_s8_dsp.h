/*
 * tinyaot_depthwise_conv2d_s8_dsp.h - int8 depthwise 3x3 convolution, depth
 * multiplier 1, stride_w 1 or 2, no dilation, up to TINYAOT_PAIR_MAX_CH channels,
 * for cores with the DSP extension (tinyaot_acle.h); the generator takes
 * tinyaot_depthwise_conv2d_s8 (tinyaot_depthwise_conv2d_s8.h) for every other
 * depthwise layer.
 *
 * Four channels at a time: one 32-bit load brings a tap's four input values (or
 * four weights), SXTB16 and SXTB16 ROR #8 spread them over two words of 16-bit
 * halves (channels 0 and 2, 1 and 3), and SMLABB/SMLATT add their products to the
 * four channels' sums, two output pixels side by side: each weight word extended
 * serves both pixels, each input column both windows where they overlap. The input
 * offset is folded into the bias; taps outside the input read the input zero point
 * (a buffer of it), which adds w * (zp - zp) = 0, so borders cost nothing extra.
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_S8_DSP_H
#define TINYAOT_DEPTHWISE_CONV2D_S8_DSP_H

#include <string.h>

#include "tinyaot_acle.h"
#include "tinyaot_depthwise_conv2d_params.h"

/* A tap of four channels for two pixels: w the weights, x the first pixel's input, y the second's. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_dsp_tap(uint32_t w, uint32_t x, uint32_t y, int32_t acc[8])
{
    const uint32_t w02 = tinyaot_sxtb16(w), w13 = tinyaot_sxtb16_ror8(w);
    const uint32_t x02 = tinyaot_sxtb16(x), x13 = tinyaot_sxtb16_ror8(x);
    const uint32_t y02 = tinyaot_sxtb16(y), y13 = tinyaot_sxtb16_ror8(y);
    acc[0] = tinyaot_smlabb(x02, w02, acc[0]);
    acc[1] = tinyaot_smlabb(x13, w13, acc[1]);
    acc[2] = tinyaot_smlatt(x02, w02, acc[2]);
    acc[3] = tinyaot_smlatt(x13, w13, acc[3]);
    acc[4] = tinyaot_smlabb(y02, w02, acc[4]);
    acc[5] = tinyaot_smlabb(y13, w13, acc[5]);
    acc[6] = tinyaot_smlatt(y02, w02, acc[6]);
    acc[7] = tinyaot_smlatt(y13, w13, acc[7]);
}

/* n (1-3) input values from p into a word's low bytes: the last group of channels, whose
   fourth byte may lie past the tensor (its weights are 0, so the other bytes do not matter). */
static TINYAOT_NOINLINE uint32_t tinyaot_depthwise_dsp_load_tail(const int8_t *p, int32_t n)
{
    uint32_t v = 0;
    memcpy(&v, p, (size_t)n);
    return v;
}

/* n (4, or 1-3 in the last group) input values of a column from p. */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_depthwise_dsp_load(const int8_t *p, int32_t n)
{
    return n == 4 ? tinyaot_load_u32(p) : tinyaot_depthwise_dsp_load_tail(p, n);
}

/*
 * One filter row's taps, four channels from c, added to the two pixels' sums (acc: the
 * first pixel's four, then the second's): col[stride + 3] the row's columns (or the
 * zero-point buffer), w the row's three weight words. Written out, not looped: GCC 12
 * kept the loops and the sums in memory. stride and n constants once inlined.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_dsp_row(const int8_t *const *col, int32_t c, const int8_t *w,
                                                            int32_t stride, int32_t n, int32_t acc[8])
{
    const uint32_t x0 = tinyaot_depthwise_dsp_load(col[0] + c, n);
    const uint32_t x1 = tinyaot_depthwise_dsp_load(col[1] + c, n);
    const uint32_t x2 = tinyaot_depthwise_dsp_load(col[2] + c, n);
    const uint32_t x3 = tinyaot_depthwise_dsp_load(col[3] + c, n);
    const uint32_t x4 = stride == 2 ? tinyaot_depthwise_dsp_load(col[4] + c, n) : 0;
    tinyaot_depthwise_dsp_tap(tinyaot_load_u32(w), x0, stride == 1 ? x1 : x2, acc);
    tinyaot_depthwise_dsp_tap(tinyaot_load_u32(w + 4), x1, stride == 1 ? x2 : x3, acc);
    tinyaot_depthwise_dsp_tap(tinyaot_load_u32(w + 8), x2, stride == 1 ? x3 : x4, acc);
}

/* A group's sums over the two windows: taps[3][stride + 3] each row's columns, w the group's
   9 weight words. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_dsp_sums(const int8_t *const *taps, int32_t c, const int8_t *w,
                                                             int32_t stride, int32_t n, int32_t acc[8])
{
    tinyaot_depthwise_dsp_row(taps, c, w, stride, n, acc);
    tinyaot_depthwise_dsp_row(taps + stride + 3, c, w + 12, stride, n, acc);
    tinyaot_depthwise_dsp_row(taps + 2 * (stride + 3), c, w + 24, stride, n, acc);
}

/*
 * Output pixel ox of row oy and, with pixels 2, pixel ox + 1: every channel, four at a
 * time, the first pixel's outputs written after its group's taps are read, the second's
 * (waiting in a buffer) after the last group's. in_image: the image's input; zp: the
 * input zero point for every channel.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_dsp_pixels(const struct tinyaot_depthwise_conv2d_params *p,
                                                          const struct tinyaot_channel_requant *r, int32_t folds,
                                                          const int8_t *in_image, const int8_t *zp,
                                                          const int8_t *filter, const int32_t *bias, int32_t oy,
                                                          int32_t ox, int32_t pixels, int8_t *output)
{
    const struct tinyaot_channel_requant rq = *r;
    const int32_t channels = p->input_ch, stride = p->stride_w, cols = stride + 3;
    const int32_t y0 = oy * p->stride_h - p->pad_h, x0 = ox * stride - p->pad_w;
    const int8_t *taps[15];
    int8_t second[TINYAOT_PAIR_MAX_CH];
    int32_t y, k, c;
    for (y = 0; y < 3; y++) {
        for (k = 0; k < cols; k++) {
            const int inside = y0 + y >= 0 && y0 + y < p->input_h && x0 + k >= 0 && x0 + k < p->input_w;
            taps[y * cols + k] = inside ? in_image + ((y0 + y) * p->input_w + x0 + k) * channels : zp;
        }
    }
    for (c = 0; c < channels; c += 4) {
        const int32_t n = channels - c < 4 ? channels - c : 4;
        int32_t acc[8];
        for (k = 0; k < 4; k++) {
            acc[k] = acc[4 + k] = k < n ? bias[c + k] : 0;
        }
        /* a loop each: stride and n constants in them */
        if (stride == 1 && n == 4) {
            tinyaot_depthwise_dsp_sums(taps, c, filter + 9 * c, 1, 4, acc);
        } else if (n == 4) {
            tinyaot_depthwise_dsp_sums(taps, c, filter + 9 * c, 2, 4, acc);
        } else {
            tinyaot_depthwise_dsp_sums(taps, c, filter + 9 * c, stride, n, acc);
        }
        for (k = 0; k < n; k++) {
            if (folds) {
                tinyaot_channel_requantize2_folded_s8(&rq, c + k, acc[k], acc[4 + k], &output[c + k], &second[c + k]);
            } else {
                tinyaot_channel_requantize2_s8(&rq, c + k, acc[k], acc[4 + k], &output[c + k], &second[c + k]);
            }
        }
    }
    if (pixels == 2) {
        memcpy(output + channels, second, (size_t)channels);
    }
}

/*
 * filter: per group of four channels, its 9 taps' four weights ([3][3][4]), the last
 * group's missing channels 0 (re-laid out by the lowering); bias: the bias with the
 * input offset folded in (bias + input_offset * sum(w)). Output pixels two at a time
 * (the last of an odd row alone), each output byte written after every input its
 * pixel's window reads.
 */
static void tinyaot_depthwise_conv2d_s8_dsp(const struct tinyaot_depthwise_conv2d_params *p,
                                            const int32_t *multiplier, const int32_t *shift,
                                            const int8_t *input, const int8_t *filter,
                                            const int32_t *bias, int8_t *output)
{
    const int32_t channels = p->input_ch;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    const int32_t folds = tinyaot_channel_requant_folds(&r, channels);
    int8_t zp[TINYAOT_PAIR_MAX_CH + 3];  /* + 3: a last group's word load */
    int32_t b, oy, ox;
    memset(zp, -p->input_offset, sizeof zp);
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * p->input_w * channels;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox += 2) {
                const int32_t pixels = ox + 1 < p->output_w ? 2 : 1;
                tinyaot_depthwise_dsp_pixels(p, &r, folds, in_image, zp, filter, bias, oy, ox, pixels, output);
                output += pixels * channels;
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S8_DSP_H */
