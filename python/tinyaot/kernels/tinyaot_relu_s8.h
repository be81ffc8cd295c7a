/*
 * tinyaot_relu_s8.h - int8 RELU and RELU6.
 *
 * RELU matches TFLM's ReluQuantized: requantize from the input to the output
 * scale, then clamp to [quantized 0, type max]. RELU6 matches Relu6Quantized:
 * TFLM keeps the input's quantization and only clamps to [zero point, six].
 * When the requantization is the identity (equal scales: multiplier 2^30,
 * shift 1 gives back x exactly) `requantize` is 0: the rescale is skipped, but
 * the value still moves from the input's zero point to the output's.
 */
#ifndef TINYAOT_RELU_S8_H
#define TINYAOT_RELU_S8_H

#include "tinyaot_common.h"

struct tinyaot_relu_s8_params {
    int32_t size;           /* number of values */
    int32_t requantize;     /* 0: the output is the clamped input */
    int32_t input_offset;   /* input zero point */
    int32_t output_offset;  /* output zero point */
    int32_t multiplier;     /* input scale / output scale */
    int32_t shift;
    int32_t act_min;
    int32_t act_max;
};

static void tinyaot_relu_s8(const struct tinyaot_relu_s8_params *p, const int8_t *input, int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        int32_t x = input[i];
        /* Equal scales: the rescale is the identity, but the zero point still moves. */
        x = p->output_offset + (p->requantize ? tinyaot_requantize(x - p->input_offset, p->multiplier, p->shift)
                                              : x - p->input_offset);
        output[i] = (int8_t)tinyaot_clamp_i32(x, p->act_min, p->act_max);
    }
}

#endif /* TINYAOT_RELU_S8_H */
