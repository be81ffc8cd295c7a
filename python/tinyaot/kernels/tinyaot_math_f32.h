/*
 * tinyaot_math_f32.h - float32 EXP and RSQRT, value by value.
 *
 * TFLM's reference_ops::Exp (std::exp, the C library's expf) and its float
 * RSQRT (1.f / std::sqrt(x), no check of the sign: a negative value gives
 * NaN). sqrtf is correctly rounded in every IEEE C library, so RSQRT is
 * identical to TFLM on any core; expf is the C library's own: identical to
 * TFLM built with the same library (glibc on the host), within an ulp bound
 * of it with newlib (tests/target/test_float_on_target.py).
 */
#ifndef TINYAOT_MATH_F32_H
#define TINYAOT_MATH_F32_H

#include <math.h>
#include <stdint.h>

#define TINYAOT_MATH_EXP 0
#define TINYAOT_MATH_RSQRT 1

struct tinyaot_math_f32_params {
    int32_t size;   /* number of values */
    int32_t kind;   /* TINYAOT_MATH_EXP or _RSQRT */
};

static void tinyaot_math_f32(const struct tinyaot_math_f32_params *p, const float *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = p->kind == TINYAOT_MATH_EXP ? expf(input[i]) : 1.0f / sqrtf(input[i]);
    }
}

#endif /* TINYAOT_MATH_F32_H */
