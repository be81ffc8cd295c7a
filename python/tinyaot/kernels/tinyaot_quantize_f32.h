/*
 * tinyaot_quantize_f32.h - QUANTIZE from float32 to int8 or int16.
 *
 * Matches TFLM's reference_ops::AffineQuantize:
 * out = clamp(round(x / scale) + zero_point), the division in float and the
 * rounding std::round's (halves away from zero). Done without libm.
 */
#ifndef TINYAOT_QUANTIZE_F32_H
#define TINYAOT_QUANTIZE_F32_H

#include "tinyaot.h"
#include "tinyaot_quantize_f32_params.h"

/*
 * std::round for |x| < 2^30: truncate, then step away from zero when the cut
 * off fraction (exact: x and its integer part share an exponent range) is
 * at least one half. Larger magnitudes and NaN are clamped by the caller.
 */
static inline int32_t tinyaot_round_f32(float x)
{
    const int32_t t = (int32_t)x;
    const float frac = x - (float)t;
    if (frac >= 0.5f) {
        return t + 1;
    }
    if (frac <= -0.5f) {
        return t - 1;
    }
    return t;
}

static void tinyaot_quantize_f32(const struct tinyaot_quantize_f32_params *p, const float *input, void *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const float q = input[i] / p->scale;
        int32_t y;
        /* Beyond +-2^30 the value saturates (NaN goes to out_min). TFLM's
         * float-to-int32 cast is undefined there: Arm saturates as here, x86
         * yields INT32_MIN, so TFLM on a PC differs for |x / scale| >= 2^31. */
        if (q < 1073741824.0f && q > -1073741824.0f) {
            y = tinyaot_clamp_i32(tinyaot_round_f32(q) + p->zero_point, p->out_min, p->out_max);
        } else {
            y = q > 0.0f ? p->out_max : p->out_min;
        }
        if (p->output_type == TINYAOT_INT8) {
            ((int8_t *)output)[i] = (int8_t)y;
        } else {
            ((int16_t *)output)[i] = (int16_t)y;
        }
    }
}

#endif /* TINYAOT_QUANTIZE_F32_H */
