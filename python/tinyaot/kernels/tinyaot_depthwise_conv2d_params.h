/*
 * tinyaot_depthwise_conv2d_params.h - what the int8 depthwise kernels share:
 * tinyaot_depthwise_conv2d_s8.h and tinyaot_depthwise_mult_s8.h.
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_PARAMS_H
#define TINYAOT_DEPTHWISE_CONV2D_PARAMS_H

#include "tinyaot_common.h"

struct tinyaot_depthwise_conv2d_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w;
    int32_t depth_multiplier;   /* output_ch = input_ch * depth_multiplier */
    int32_t output_h, output_w;
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;       /* top and left padding */
    int32_t input_offset;       /* -input zero point */
    int32_t output_offset;      /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;        /* 1: multiplier/shift per output channel, 0: one for all */
    int32_t packed_sums;        /* tinyaot_depthwise_conv2d_s8's bias table: see there */
};

#endif /* TINYAOT_DEPTHWISE_CONV2D_PARAMS_H */
