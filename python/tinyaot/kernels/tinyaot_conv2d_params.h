/*
 * tinyaot_conv2d_params.h - what the int8 CONV_2D kernels share: tinyaot_conv2d_s8.h and,
 * on cores with the DSP extension, dsp/tinyaot_conv2d_gather_s8_dsp.h.
 */
#ifndef TINYAOT_CONV2D_PARAMS_H
#define TINYAOT_CONV2D_PARAMS_H

#include "tinyaot_common.h"

/*
 * How a window's taps are walked: rows of cols runs, each run of `run`
 * contiguous input values (a tap's channels, or a whole row of taps when
 * adjacent taps are adjacent pixels' every channel), runs in_x apart, rows in_y;
 * offset: what is added to each input value (the input offset, or 0 where the
 * bias has it folded in).
 */
struct tinyaot_conv2d_walk {
    int32_t cols, run, in_x, in_y, offset;
    int32_t pixel_step;         /* from a pair's first input to its second's */
};

/* The pair loop a convolution's parameters name (see TINYAOT_CONV2D_PAIR4_STEP below). */
typedef void (*tinyaot_conv2d_pair4_fn)(const int8_t *in, const int8_t *w, int32_t rows,
                                        const struct tinyaot_conv2d_walk *k, int32_t acc[8]);

struct tinyaot_conv2d_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t filter_ch;          /* input channels each filter sees (input_ch / groups) */
    int32_t groups;             /* 1 for an ordinary convolution */
    int32_t filters_per_group;  /* output_ch / groups */
    int32_t output_h, output_w, output_ch;
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;       /* top and left padding */
    int32_t input_offset;       /* -input zero point */
    int32_t output_offset;      /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;        /* 1: multiplier/shift per output channel, 0: one for all */
    tinyaot_conv2d_pair4_fn pair4;  /* whole windows of pixel pairs, or NULL: one pixel at a time */
};

#endif /* TINYAOT_CONV2D_PARAMS_H */
