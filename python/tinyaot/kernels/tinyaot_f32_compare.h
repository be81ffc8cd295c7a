/*
 * tinyaot_f32_compare.h - float32 a < b, as IEEE 754 (and so TFLM) compares.
 *
 * On a core without single-precision hardware, `a < b` is a call into the
 * soft-float library (__aeabi_fcmplt: some 25 instructions); the float's bits
 * answer it inline: a float orders as its sign and magnitude, so
 * key = bits for a positive float and -(magnitude) for a negative one orders
 * like the value, -0.0 and +0.0 both 0 (equal, as IEEE has them). NaN is
 * unordered: every comparison with it is false. On cores with an FPU (and on
 * the host) the compiler's own compare is one instruction, so it stays;
 * TINYAOT_F32_COMPARE_BITS=1 forces the bit path (the host tests prove it).
 */
#ifndef TINYAOT_F32_COMPARE_H
#define TINYAOT_F32_COMPARE_H

#include <stdint.h>

#ifndef TINYAOT_F32_COMPARE_BITS
#if defined(__arm__) && !(defined(__ARM_FP) && (__ARM_FP & 4))
#define TINYAOT_F32_COMPARE_BITS 1
#else
#define TINYAOT_F32_COMPARE_BITS 0
#endif
#endif

/* A float's bits and back (also tinyaot_f32_dot.h's). */
static inline uint32_t tinyaot_f32_bits(float x)
{
    union {
        float f;
        uint32_t u;
    } bits;
    bits.f = x;
    return bits.u;
}

static inline float tinyaot_f32_from_bits(uint32_t u)
{
    union {
        float f;
        uint32_t u;
    } bits;
    bits.u = u;
    return bits.f;
}

#if TINYAOT_F32_COMPARE_BITS

/* The order key of a float that is not NaN (see above). */
static inline int32_t tinyaot_f32_key(float x)
{
    const uint32_t u = tinyaot_f32_bits(x);
    return (int32_t)u >= 0 ? (int32_t)u : (int32_t)(0x80000000u - u);
}

static inline int tinyaot_f32_is_nan(float x)
{
    return (tinyaot_f32_bits(x) & 0x7fffffffu) > 0x7f800000u;
}

static inline int tinyaot_f32_less(float a, float b)
{
    return !tinyaot_f32_is_nan(a) && !tinyaot_f32_is_nan(b) && tinyaot_f32_key(a) < tinyaot_f32_key(b);
}
#else
static inline int tinyaot_f32_less(float a, float b)
{
    return a < b;
}
#endif

/* std::max(m, v) = (m < v) ? v : m for an m that is not NaN (one NaN check fewer). */
static inline float tinyaot_f32_max(float m, float v)
{
#if TINYAOT_F32_COMPARE_BITS
    return !tinyaot_f32_is_nan(v) && tinyaot_f32_key(m) < tinyaot_f32_key(v) ? v : m;
#else
    return (m < v) ? v : m;
#endif
}

/* min(max(x, lo), hi) as TFLM's ActivationFunctionWithMinMax: a NaN passes through. */
static inline float tinyaot_f32_clamp(float x, float lo, float hi)
{
    x = tinyaot_f32_less(x, lo) ? lo : x;
    return tinyaot_f32_less(hi, x) ? hi : x;
}

#endif /* TINYAOT_F32_COMPARE_H */
