/*
 * tinyaot_sigmoid.h - TFLM's sigmoid and tanh of one value, shared by the
 * LOGISTIC/TANH kernels and the LSTM's gates: float32 (reference_ops::Logistic)
 * and int16 (reference_integer_ops::Logistic/Tanh on an input already rescaled
 * to the table's steps; see tinyaot_logistic_s16.h).
 */
#ifndef TINYAOT_SIGMOID_H
#define TINYAOT_SIGMOID_H

#include <math.h>
#include <stdint.h>

/* 1 above 16.619047f, expf(x) below -9, else 1 / (1 + expf(-x)). */
static inline float tinyaot_sigmoid_f32(float v)
{
    if (v > 16.619047164916992188f) {
        return 1.0f;
    }
    if (v < -9.0f) {
        return expf(v);
    }
    return 1.0f / (1.0f + expf(-v));
}

/* sigmoid(|x|) in 2^-16 steps, with `bits` fraction bits more; `saturated` from the last knot on. */
static inline uint32_t tinyaot_sigmoid_interpolate(const uint16_t *sigmoid, uint32_t magnitude, int32_t bits,
                                                   uint32_t saturated)
{
    const uint32_t knot = magnitude >> bits;
    const uint32_t fraction = magnitude & ((1u << bits) - 1u);
    if (knot >= 255u) {
        return saturated;
    }
    return ((uint32_t)sigmoid[knot] << bits) + fraction * (uint32_t)(sigmoid[knot + 1] - sigmoid[knot]);
}

/* TANH of x, an input already rescaled to the table's steps (also the LSTM's). */
static inline int16_t tinyaot_tanh_s16_of(const uint16_t *sigmoid, int32_t x)
{
    /* sigmoid(2|x|) with 8 fraction bits; 2 sigmoid - 1 is that less one half, mirrored for x < 0. */
    const uint32_t magnitude = (uint32_t)(x < 0 ? -x : x);
    const int32_t s = (int32_t)tinyaot_sigmoid_interpolate(sigmoid, magnitude, 8, 0xFFFFu << 8);
    return (int16_t)((x >= 0 ? s - (1 << 23) + (1 << 7) : -s + (1 << 23) + (1 << 7) - 1) >> 8);
}

/* LOGISTIC of x, an input already rescaled to the table's steps (also the LSTM's). */
static inline int16_t tinyaot_sigmoid_s16_of(const uint16_t *sigmoid, int32_t x)
{
    /* sigmoid(|x|) with 9 fraction bits; 1 - sigmoid for x < 0; rounded to 2^-15 steps. */
    const uint32_t magnitude = (uint32_t)(x < 0 ? -x : x);
    const uint32_t s = tinyaot_sigmoid_interpolate(sigmoid, magnitude, 9, 0x7FFFu << 10);
    return (int16_t)((x >= 0 ? s + (1u << 9) : (1u << 25) - s + (1u << 9) - 1u) >> 10);
}

#endif /* TINYAOT_SIGMOID_H */
