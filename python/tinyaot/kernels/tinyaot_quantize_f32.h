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
 * round(q) + zero_point clamped to [out_min, out_max], std::round's halves away
 * from zero, from q's bits in integer arithmetic (no soft-float compares,
 * conversions or subtraction: on cores without an FPU those cost more than the
 * division). Beyond +-2^30 the value saturates and NaN goes to out_min. TFLM's
 * float-to-int32 cast is undefined there: Arm saturates as here, x86 yields
 * INT32_MIN, so TFLM on a PC differs for |x / scale| >= 2^31.
 */
static inline int32_t tinyaot_round_clamp_f32(float q, const struct tinyaot_quantize_f32_params *p)
{
    union {
        float f;
        uint32_t u;
    } bits;
    uint32_t magnitude, exponent, mantissa;
    int32_t rounded;
    bits.f = q;
    magnitude = bits.u & 0x7fffffffu;
    if (magnitude > 0x7f800000u) {
        return p->out_min;  /* NaN */
    }
    if (magnitude >= 0x4e800000u) {  /* |q| >= 2^30 */
        return (bits.u >> 31) ? p->out_min : p->out_max;
    }
    exponent = magnitude >> 23;
    mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    if (exponent < 126u) {
        rounded = 0;  /* |q| < 0.5 */
    } else if (exponent >= 150u) {
        rounded = (int32_t)(mantissa << (exponent - 150u));  /* an integer already, below 2^30 */
    } else {
        const uint32_t shift = 150u - exponent;  /* 1..24 fraction bits: add a half, cut them off */
        rounded = (int32_t)((mantissa + (1u << (shift - 1u))) >> shift);
    }
    if (bits.u >> 31) {
        rounded = -rounded;
    }
    return tinyaot_clamp_i32(rounded + p->zero_point, p->out_min, p->out_max);
}

static void tinyaot_quantize_f32(const struct tinyaot_quantize_f32_params *p, const float *input, void *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const int32_t y = tinyaot_round_clamp_f32(input[i] / p->scale, p);
        if (p->output_type == TINYAOT_INT8) {
            ((int8_t *)output)[i] = (int8_t)y;
        } else {
            ((int16_t *)output)[i] = (int16_t)y;
        }
    }
}

#endif /* TINYAOT_QUANTIZE_F32_H */
