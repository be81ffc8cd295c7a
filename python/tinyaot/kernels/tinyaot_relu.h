/*
 * tinyaot_relu.h - RELU and RELU6's arithmetic, shared by the int8 and int16 kernels.
 *
 * RELU matches TFLM's ReluQuantized: requantize from the input to the output
 * scale, then clamp to [quantized 0, type max]. RELU6 matches Relu6Quantized:
 * TFLM keeps the input's quantization and only clamps to [zero point, six].
 * When the requantization is the identity (equal scales: multiplier 2^30,
 * shift 1 gives back x exactly) `requantize` is 0: the rescale is skipped, but
 * the value still moves from the input's zero point to the output's.
 */
#ifndef TINYAOT_RELU_H
#define TINYAOT_RELU_H

#include "tinyaot_common.h"

struct tinyaot_relu_params {
    int32_t size;           /* number of values */
    int32_t requantize;     /* 0: the output is the clamped input */
    int32_t input_offset;   /* input zero point */
    int32_t output_offset;  /* output zero point */
    int32_t multiplier;     /* input scale / output scale */
    int32_t shift;
    int32_t act_min;        /* within the output type's range */
    int32_t act_max;
};

static inline int32_t tinyaot_relu_value(const struct tinyaot_relu_params *p, int32_t x)
{
    /* Equal scales: the rescale is the identity, but the zero point still moves. */
    x = p->output_offset + (p->requantize ? tinyaot_requantize(x - p->input_offset, p->multiplier, p->shift)
                                          : x - p->input_offset);
    return tinyaot_clamp_i32(x, p->act_min, p->act_max);
}

#endif /* TINYAOT_RELU_H */
