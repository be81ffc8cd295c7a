/*
 * tinyaot_arith_f32.h - float32 ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, PRELU,
 * FLOOR_DIV and FLOOR_MOD with broadcasting.
 *
 * Matches TFLM's float reference kernels (reference_ops::Add, Sub, Mul, Div
 * and their broadcast forms): one IEEE operation per value, then
 * ActivationFunctionWithMinMax, min(max(x, lo), hi), written with the same
 * comparisons so that a NaN comes out as TFLM's does. SQUARED_DIFFERENCE
 * (squared_difference.cc: d = a - b, then d * d) and PRELU
 * (BroadcastPrelu4DSlowFloat: a >= 0 ? a : a * alpha), FLOOR_DIV
 * (floorf(a / b)) and FLOOR_MOD (reference_ops::FloorMod: fmodf, moved to the
 * divisor's sign) have no activation and return their value as TFLM computes
 * it; floorf and fmodf are exact in every C library. Results are identical
 * to TFLM's on any core with IEEE float32 or soft-float. The broadcast is
 * walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_ARITH_F32_H
#define TINYAOT_ARITH_F32_H

#include <math.h>

#include "tinyaot_arith_ops.h"
#include "tinyaot_broadcast.h"
#include "tinyaot_f32_compare.h"

struct tinyaot_arith_f32_params {
    int32_t size;      /* output values */
    int32_t rank;      /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t op;        /* TINYAOT_ARITH_* */
    float act_min;     /* the fused activation's range (CalculateActivationRange) */
    float act_max;
};

static inline float tinyaot_arith_f32_one(const struct tinyaot_arith_f32_params *p, float a, float b)
{
    float x;
    switch (p->op) {
    case TINYAOT_ARITH_ADD: x = a + b; break;
    case TINYAOT_ARITH_SUB: x = a - b; break;
    case TINYAOT_ARITH_MUL: x = a * b; break;
    case TINYAOT_ARITH_DIV: x = a / b; break;
    case TINYAOT_ARITH_SQUARED_DIFFERENCE: x = a - b; return x * x;
    case TINYAOT_ARITH_FLOOR_DIV: return floorf(a / b);
    case TINYAOT_ARITH_FLOOR_MOD: x = fmodf(a, b); return (x != 0.0f && ((b < 0.0f) != (x < 0.0f))) ? x + b : x;
    default: return a >= 0.0f ? a : a * b; /* PRELU, b is alpha */
    }
    return tinyaot_f32_clamp(x, p->act_min, p->act_max);
}

static inline void tinyaot_arith_f32_value(const void *params, const void *input1, const void *input2,
                                           void *output, int32_t n, int32_t i, int32_t j)
{
    ((float *)output)[n] = tinyaot_arith_f32_one((const struct tinyaot_arith_f32_params *)params,
                                                 ((const float *)input1)[i], ((const float *)input2)[j]);
}

static void tinyaot_arith_f32(const struct tinyaot_arith_f32_params *p, const int32_t *dims,
                              const int32_t *strides1, const int32_t *strides2,
                              const float *input1, const float *input2, float *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, strides1, strides2, input1, input2, output,
                           tinyaot_arith_f32_value);
}

#endif /* TINYAOT_ARITH_F32_H */
