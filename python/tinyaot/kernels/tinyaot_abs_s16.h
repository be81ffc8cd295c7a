/*
 * tinyaot_abs_s16.h - int16 ABS, TFLM's elementwise.cc: quantized (zero points
 * 0) AbsEvalQuantized, |v| rescaled by input_scale / output_scale where they
 * differ (MultiplyByQuantizedMultiplier), clamped to int16; not quantized,
 * std::abs cast back to int16 (so -32768 stays -32768).
 */
#ifndef TINYAOT_ABS_S16_H
#define TINYAOT_ABS_S16_H

#include "tinyaot_common.h"

struct tinyaot_abs_s16_params {
    int32_t size;
    int32_t quantized;   /* 0: plain std::abs */
    int32_t rescale;     /* 1: input and output scales differ */
    int32_t multiplier;  /* input_scale / output_scale */
    int32_t shift;
};

static void tinyaot_abs_s16(const struct tinyaot_abs_s16_params *p, const int16_t *input, int16_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        int32_t value = input[i] < 0 ? -(int32_t)input[i] : input[i];
        if (!p->quantized) {
            output[i] = (int16_t)(uint16_t)value;  /* 32768 wraps to -32768, as TFLM's cast */
            continue;
        }
        if (p->rescale) {
            value = tinyaot_requantize_exact(value, p->multiplier, p->shift);
        }
        output[i] = (int16_t)tinyaot_clamp_i32(value, -32768, 32767);
    }
}

#endif /* TINYAOT_ABS_S16_H */
