/*
 * tinyaot_transpose_conv.h - the parameters of TRANSPOSE_CONV (NHWC, filter
 * [out ch, h, w, in ch]), shared by the int8 and 16x8 kernels.
 */
#ifndef TINYAOT_TRANSPOSE_CONV_H
#define TINYAOT_TRANSPOSE_CONV_H

#include "tinyaot_common.h"

struct tinyaot_transpose_conv_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t output_h, output_w, output_ch;
    int32_t filter_h, filter_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;
    int32_t input_offset;   /* -input zero point (16x8: 0) */
    int32_t output_offset;  /* output zero point (16x8: 0) */
    int32_t act_min, act_max;
    int32_t per_channel;    /* 0: multipliers[0]/shifts[0] serve every channel (16x8: 1) */
};

#endif /* TINYAOT_TRANSPOSE_CONV_H */
