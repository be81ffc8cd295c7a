/*
 * tinyaot_math_f32.h - float32 element-wise math, value by value: EXP, RSQRT,
 * SIN, COS, LOG, SQRT, SQUARE, ABS, NEG, FLOOR, CEIL, ROUND.
 *
 * TFLM's reference kernels (exp.cc, elementwise.cc, neg.cc, floor.cc, ceil.cc,
 * round.cc) with the same C library calls: std::exp, std::sin, std::cos and
 * std::log on a float are expf, sinf, cosf and logf; RSQRT is 1.f / sqrtf(x)
 * (no check of the sign: a negative value gives NaN). sqrtf, fabsf, floorf,
 * ceilf and the arithmetic are exact in every IEEE C library, so those are
 * identical to TFLM on any core; expf, sinf, cosf and logf are the C library's
 * own: identical to TFLM built with the same library (glibc on the host),
 * within an ulp bound of it with newlib (tests/target/test_float_on_target.py).
 */
#ifndef TINYAOT_MATH_F32_H
#define TINYAOT_MATH_F32_H

#include <math.h>
#include <stdint.h>

#define TINYAOT_MATH_EXP 0
#define TINYAOT_MATH_RSQRT 1
#define TINYAOT_MATH_SIN 2
#define TINYAOT_MATH_COS 3
#define TINYAOT_MATH_LOG 4
#define TINYAOT_MATH_SQRT 5
#define TINYAOT_MATH_SQUARE 6
#define TINYAOT_MATH_ABS 7
#define TINYAOT_MATH_NEG 8
#define TINYAOT_MATH_FLOOR 9
#define TINYAOT_MATH_CEIL 10
#define TINYAOT_MATH_ROUND 11

struct tinyaot_math_f32_params {
    int32_t size;   /* number of values */
    int32_t kind;   /* TINYAOT_MATH_* */
};

/* TFLM's RoundToNearest: halves to even. The int conversion is reached only for a
   difference of exactly 0.5, which needs |x| < 2^23, so it cannot overflow. */
static float tinyaot_round_to_nearest_f32(float x)
{
    const float floor_x = floorf(x);
    const float diff = x - floor_x;
    if (diff < 0.5f || (diff == 0.5f && (int32_t)floor_x % 2 == 0)) {
        return floor_x;
    }
    return floor_x + 1.0f;
}

static float tinyaot_math_f32_value(int32_t kind, float x)
{
    switch (kind) {
    case TINYAOT_MATH_EXP: return expf(x);
    case TINYAOT_MATH_RSQRT: return 1.0f / sqrtf(x);
    case TINYAOT_MATH_SIN: return sinf(x);
    case TINYAOT_MATH_COS: return cosf(x);
    case TINYAOT_MATH_LOG: return logf(x);
    case TINYAOT_MATH_SQRT: return sqrtf(x);
    case TINYAOT_MATH_SQUARE: return x * x;
    case TINYAOT_MATH_ABS: return fabsf(x);
    case TINYAOT_MATH_NEG: return -x;
    case TINYAOT_MATH_FLOOR: return floorf(x);
    case TINYAOT_MATH_CEIL: return ceilf(x);
    default: return tinyaot_round_to_nearest_f32(x);
    }
}

static void tinyaot_math_f32(const struct tinyaot_math_f32_params *p, const float *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = tinyaot_math_f32_value(p->kind, input[i]);
    }
}

#endif /* TINYAOT_MATH_F32_H */
