/*
 * tinyaot_conv2d_1x1_params.h - what the int8 1x1 convolution kernels share:
 * tinyaot_conv2d_1x1_s8.h and, for cores with the DSP extension, tinyaot_conv2d_1x1_s8_dsp.h
 * (and on Helium cores tinyaot_conv2d_1x1_s8_mve.h).
 */
#ifndef TINYAOT_CONV2D_1X1_PARAMS_H
#define TINYAOT_CONV2D_1X1_PARAMS_H

#include "tinyaot_common.h"

struct tinyaot_conv2d_1x1_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t output_h, output_w, output_ch;
    int32_t stride_h, stride_w;
    int32_t output_offset;      /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;        /* 1: multiplier/shift per output channel, 0: one for all */
    /* tinyaot_conv2d_1x1_s8: pairs of adjacent pixels' four-channel sums
       (TINYAOT_CONV2D_1X1_PAIR_STEP), or NULL. */
    void (*adjacent_pair)(const int8_t *in0, const int8_t *w, int32_t acc[8]);
    /* tinyaot_conv2d_1x1_s8_dsp / _mve: the kernel with its inputs' buffer sized for
       this depth (TINYAOT_CONV2D_1X1_DSP_DEPTH / _MVE_DEPTH). */
    void (*dsp_sized)(const struct tinyaot_conv2d_1x1_params *p, const int32_t *multiplier, const int32_t *shift,
                      const int8_t *input, const int8_t *filter, const int32_t *bias, int8_t *output);
};

/* From one output pixel's input to the next one's, row by row; *ox counts the column. */
static inline const int8_t *tinyaot_conv2d_1x1_next(const struct tinyaot_conv2d_1x1_params *p,
                                                    const int8_t *in, int32_t *ox)
{
    in += p->stride_w * p->input_ch;
    if (++*ox == p->output_w) {
        *ox = 0;
        in += (p->stride_h * p->input_w - p->output_w * p->stride_w) * p->input_ch;
    }
    return in;
}

/*
 * Channels oc .. oc + n - 1 of a pixel pair, pixel 0's sums in acc[k] and pixel 1's
 * in acc[4 + k]: the pair's rare ways out (a requantization that does not fold, the
 * output_ch % 4 channels after the blocks) in one function out of line, with one
 * requantization in it, for flash.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_1x1_requantize_pair(const struct tinyaot_channel_requant *r, int32_t oc,
                                                                int32_t n, const int32_t acc[8], int8_t *out0,
                                                                int8_t *out1)
{
    int32_t j;
    for (j = 0; j < 2 * n; j++) {
        const int32_t k = j >> 1, second = j & 1;
        (second ? out1 : out0)[oc + k] = tinyaot_channel_requantize_s8(r, oc + k, acc[4 * second + k]);
    }
}

#endif /* TINYAOT_CONV2D_1X1_PARAMS_H */
