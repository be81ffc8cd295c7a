/*
 * tinyaot_prelu.h - int8 PRELU, and int16 PRELU (16x8: int16 input and output,
 * int8 alpha): alpha broadcast against the input.
 *
 * Matches TFLM's reference_ops::BroadcastPrelu4DSlow for both: a value at or
 * above zero is rescaled by input scale / output scale, one below zero is
 * multiplied by its alpha and rescaled by input scale x alpha scale / output
 * scale. The broadcast is walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_PRELU_H
#define TINYAOT_PRELU_H

#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

struct tinyaot_prelu_params {
    int32_t size;               /* output values */
    int32_t int16;              /* 1: input and output are int16 */
    int32_t rank;               /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t input_offset;       /* -input zero point */
    int32_t alpha_offset;       /* -alpha zero point */
    int32_t output_offset;      /* output zero point */
    int32_t identity_multiplier;
    int32_t identity_shift;
    int32_t alpha_multiplier;
    int32_t alpha_shift;
};

/* One output value, clamped to [low, high]. */
static inline int32_t tinyaot_prelu_one(const struct tinyaot_prelu_params *p, int32_t x, int8_t alpha, int32_t low,
                                        int32_t high)
{
    const int32_t input = p->input_offset + x;
    int32_t y;
    if (input >= 0) {
        y = tinyaot_requantize(input, p->identity_multiplier, p->identity_shift);
    } else {
        y = tinyaot_requantize(input * (p->alpha_offset + alpha), p->alpha_multiplier, p->alpha_shift);
    }
    return tinyaot_clamp_i32(y + p->output_offset, low, high);
}

static inline void tinyaot_prelu_value(const void *params, const void *input, const void *alpha, void *output,
                                       int32_t n, int32_t i, int32_t j)
{
    const struct tinyaot_prelu_params *p = (const struct tinyaot_prelu_params *)params;
    const int8_t a = ((const int8_t *)alpha)[j];
    if (p->int16) {
        ((int16_t *)output)[n] = (int16_t)tinyaot_prelu_one(p, ((const int16_t *)input)[i], a, -32768, 32767);
    } else {
        ((int8_t *)output)[n] = (int8_t)tinyaot_prelu_one(p, ((const int8_t *)input)[i], a, -128, 127);
    }
}

static void tinyaot_prelu(const struct tinyaot_prelu_params *p, const int32_t *dims, const int32_t *input_strides,
                          const int32_t *alpha_strides, const void *input, const int8_t *alpha, void *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, input_strides, alpha_strides, input, alpha, output,
                           tinyaot_prelu_value);
}

#endif /* TINYAOT_PRELU_H */
