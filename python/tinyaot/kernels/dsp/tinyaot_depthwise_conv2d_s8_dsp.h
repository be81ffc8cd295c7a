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

/* Bytes 0 and 2 (lane 0) or 1 and 3 (lane 1) of x, sign-extended to 16-bit halves. */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_depthwise_dsp_lane(uint32_t x, int32_t lane)
{
    return lane ? tinyaot_sxtb16_ror8(x) : tinyaot_sxtb16(x);
}

/*
 * Tap k of a filter row for two of a group's channels (lane: c and c + 2, or c + 1 and
 * c + 3) and one or two pixels: col[stride + 3] the row's columns at the group's first
 * channel (or the zero-point buffer), w the row's three weight words; acc: the first
 * pixel's two sums, then the second's. stride, pixels and lane constants once inlined.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_dsp_tap(const int8_t *const *col, int32_t c, const int8_t *w,
                                                            int32_t k, int32_t stride, int32_t pixels, int32_t lane,
                                                            int32_t acc[4])
{
    const uint32_t wk = tinyaot_depthwise_dsp_lane(tinyaot_load_u32(w + 4 * k), lane);
    const uint32_t x = tinyaot_depthwise_dsp_lane(tinyaot_load_u32(col[k] + c), lane);
    acc[0] = tinyaot_smlabb(x, wk, acc[0]);
    acc[1] = tinyaot_smlatt(x, wk, acc[1]);
    if (pixels == 2) {
        const uint32_t y = tinyaot_depthwise_dsp_lane(tinyaot_load_u32(col[k + stride] + c), lane);
        acc[2] = tinyaot_smlabb(y, wk, acc[2]);
        acc[3] = tinyaot_smlatt(y, wk, acc[3]);
    }
}

/* The 9 taps (rows of stride + 3 columns in taps, 3 weight words in w) for one lane;
   written out, not looped: GCC 12 kept the loops and the sums in memory. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_dsp_window(const int8_t *const *taps, int32_t c, const int8_t *w,
                                                               int32_t stride, int32_t pixels, int32_t lane,
                                                               int32_t acc[8])
{
    const int8_t *const *row1 = taps + stride + 3, *const *row2 = row1 + stride + 3;
    int32_t a[4];
    a[0] = acc[lane], a[1] = acc[lane + 2], a[2] = acc[4 + lane], a[3] = acc[6 + lane];
    tinyaot_depthwise_dsp_tap(taps, c, w, 0, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(taps, c, w, 1, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(taps, c, w, 2, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(row1, c, w + 12, 0, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(row1, c, w + 12, 1, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(row1, c, w + 12, 2, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(row2, c, w + 24, 0, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(row2, c, w + 24, 1, stride, pixels, lane, a);
    tinyaot_depthwise_dsp_tap(row2, c, w + 24, 2, stride, pixels, lane, a);
    acc[lane] = a[0], acc[lane + 2] = a[1], acc[4 + lane] = a[2], acc[6 + lane] = a[3];
}

/*
 * A group of four channels from c, added to acc (the first pixel's four sums, then the
 * second's): taps[3][stride + 3] each row's columns, w the group's 9 weight words. Two
 * channels at a time, so that their sums, the weights and the input values fit the
 * registers (all four channels of two pixels at once spilled a third of the loop).
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_dsp_group(const int8_t *const *taps, int32_t c, const int8_t *w,
                                                              int32_t stride, int32_t pixels, int32_t acc[8])
{
    tinyaot_depthwise_dsp_window(taps, c, w, stride, pixels, 0, acc);
    tinyaot_depthwise_dsp_window(taps, c, w, stride, pixels, 1, acc);
}

typedef void (*tinyaot_depthwise_dsp_group_fn)(const int8_t *const *taps, int32_t c, const int8_t *w, int32_t acc[8]);

/* The group loop for each stride and pixel count: a function each, its constants in it. */
#define TINYAOT_DEPTHWISE_DSP_GROUP(stride, pixels)                                                              \
    static TINYAOT_NOINLINE void tinyaot_depthwise_dsp_group_##stride##_##pixels(                               \
        const int8_t *const *taps, int32_t c, const int8_t *w, int32_t acc[8])                                  \
    {                                                                                                            \
        tinyaot_depthwise_dsp_group(taps, c, w, stride, pixels, acc);                                            \
    }
TINYAOT_DEPTHWISE_DSP_GROUP(1, 1)
TINYAOT_DEPTHWISE_DSP_GROUP(1, 2)
TINYAOT_DEPTHWISE_DSP_GROUP(2, 1)
TINYAOT_DEPTHWISE_DSP_GROUP(2, 2)

/*
 * Output row oy, two pixels at a time (the last of an odd row alone; one at a time without
 * TINYAOT_PIXEL_PAIRS): every channel, four
 * at a time, the first pixel's four outputs written after the group's taps are read, the
 * second's (waiting in a buffer) after the last group's. in_image: the image's input; zp:
 * the input zero point for every channel. A row per call: the set-up once, not per pair.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_dsp_output_row(const struct tinyaot_depthwise_conv2d_params *p,
                                                              const struct tinyaot_channel_requant *r, int32_t folds,
                                                              const int8_t *in_image, const int8_t *zp,
                                                              const int8_t *filter, const int32_t *bias, int32_t oy,
                                                              int8_t *output)
{
    /* Copies: the int8_t output stores may alias anything, *p and *r too. */
    const struct tinyaot_channel_requant rq = *r;
    const int32_t channels = p->input_ch, stride = p->stride_w, cols = stride + 3;
    const int32_t input_h = p->input_h, input_w = p->input_w, output_w = p->output_w, pad_w = p->pad_w;
    const int32_t y0 = oy * p->stride_h - p->pad_h;
    const int8_t *taps[15];
    int8_t second[TINYAOT_PAIR_MAX_CH];
    int32_t ox, y, k, c;
    for (ox = 0; ox < output_w; ox += TINYAOT_PIXEL_PAIRS ? 2 : 1) {
        /* TINYAOT_PIXEL_PAIRS 0 (--optimize size): one pixel at a time, the pairs' loops dropped */
        const int32_t pixels = TINYAOT_PIXEL_PAIRS && ox + 1 < output_w ? 2 : 1, x0 = ox * stride - pad_w;
        const tinyaot_depthwise_dsp_group_fn group =
            stride == 1 ? (pixels == 2 ? tinyaot_depthwise_dsp_group_1_2 : tinyaot_depthwise_dsp_group_1_1)
                        : (pixels == 2 ? tinyaot_depthwise_dsp_group_2_2 : tinyaot_depthwise_dsp_group_2_1);
        for (y = 0; y < 3; y++) {
            const int row_inside = y0 + y >= 0 && y0 + y < input_h;
            int32_t at = ((y0 + y) * input_w + x0) * channels;  /* an offset: outside, no pointer is formed */
            for (k = 0; k < cols; k++, at += channels) {
                taps[y * cols + k] = row_inside && x0 + k >= 0 && x0 + k < input_w ? in_image + at : zp;
            }
        }
        for (c = 0; c < channels; c += 4) {
            const int32_t n = channels - c < 4 ? channels - c : 4;
            int32_t acc[8];
            for (k = 0; k < 4; k++) {
                acc[k] = acc[4 + k] = k < n ? bias[c + k] : 0;
            }
            if (n == 4) {
                group(taps, c, filter + 9 * c, acc);
            } else {
                /* The last group's n channels of each tap, zero-padded to a word (their weights are 0). */
                int8_t tail[15][4];
                const int8_t *tail_taps[15];
                for (k = 0; k < 3 * cols; k++) {
                    memset(tail[k], 0, 4);
                    memcpy(tail[k], taps[k] + c, (size_t)n);
                    tail_taps[k] = tail[k];
                }
                group(tail_taps, 0, filter + 9 * c, acc);
            }
            /* a loop each: the tests out of the channel loop */
            if (pixels == 2 && folds) {
                for (k = 0; k < n; k++) {
                    tinyaot_channel_requantize2_folded_s8(&rq, c + k, acc[k], acc[4 + k], &output[c + k],
                                                          &second[c + k]);
                }
            } else if (pixels == 2) {
                for (k = 0; k < n; k++) {
                    tinyaot_channel_requantize2_s8(&rq, c + k, acc[k], acc[4 + k], &output[c + k], &second[c + k]);
                }
            } else {
                for (k = 0; k < n; k++) {
                    output[c + k] = tinyaot_channel_requantize_s8(&rq, c + k, acc[k]);
                }
            }
        }
        if (pixels == 2) {
            memcpy(output + channels, second, (size_t)channels);
        }
        output += pixels * channels;
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
    int8_t zp[TINYAOT_PAIR_MAX_CH];
    int32_t b, oy;
    memset(zp, -p->input_offset, sizeof zp);
    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * p->input_w * channels;
        for (oy = 0; oy < p->output_h; oy++) {
            tinyaot_depthwise_dsp_output_row(p, &r, folds, in_image, zp, filter, bias, oy, output);
            output += p->output_w * channels;
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S8_DSP_H */
