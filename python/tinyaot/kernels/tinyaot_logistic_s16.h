/*
 * tinyaot_logistic_s16.h - int16 LOGISTIC and TANH (16x8): int16 input and
 * output, zero points 0, output scale 1/32768.
 *
 * Matches TFLM's reference_integer_ops::Logistic and Tanh for int16: the input
 * is rescaled to steps of 1/(3*4096) (sigmoid) or 1/(3*2048) (tanh(x) =
 * 2 sigmoid(2x) - 1), and its magnitude interpolated linearly between the
 * knots of a 256-entry table of sigmoid (computed by the generator,
 * tinyaot.ops.lut.sigmoid_table), 512 (sigmoid) or 256 (tanh) steps apart;
 * negative inputs mirror it. All arithmetic fits in 32 bits.
 */
#ifndef TINYAOT_LOGISTIC_S16_H
#define TINYAOT_LOGISTIC_S16_H

#include "tinyaot_common.h"

struct tinyaot_logistic_s16_params {
    int32_t size;              /* number of values */
    int32_t tanh;              /* 0: LOGISTIC, 1: TANH */
    int32_t input_multiplier;  /* input x multiplier, rounded right by input_shift, */
    int32_t input_shift;       /* gives the table's steps */
};

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

static void tinyaot_logistic_s16(const struct tinyaot_logistic_s16_params *p, const uint16_t *sigmoid,
                                 const int16_t *input, int16_t *output)
{
    const int32_t round = p->input_shift > 0 ? 1 << (p->input_shift - 1) : 0;
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const int32_t x = ((int32_t)input[i] * p->input_multiplier + round) >> p->input_shift;
        const uint32_t magnitude = (uint32_t)(x < 0 ? -x : x);
        int32_t out;
        if (p->tanh) {
            /* sigmoid(2|x|) with 8 fraction bits; 2 sigmoid - 1 is that less one half, mirrored for x < 0. */
            const int32_t s = (int32_t)tinyaot_sigmoid_interpolate(sigmoid, magnitude, 8, 0xFFFFu << 8);
            out = (x >= 0 ? s - (1 << 23) + (1 << 7) : -s + (1 << 23) + (1 << 7) - 1) >> 8;
        } else {
            /* sigmoid(|x|) with 9 fraction bits; 1 - sigmoid for x < 0; rounded to 2^-15 steps. */
            const uint32_t s = tinyaot_sigmoid_interpolate(sigmoid, magnitude, 9, 0x7FFFu << 10);
            out = (int32_t)((x >= 0 ? s + (1u << 9) : (1u << 25) - s + (1u << 9) - 1u) >> 10);
        }
        output[i] = (int16_t)out;
    }
}

#endif /* TINYAOT_LOGISTIC_S16_H */
