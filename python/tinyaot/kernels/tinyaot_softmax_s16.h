/*
 * tinyaot_softmax_s16.h - int16 SOFTMAX (16x8): int16 input (zero point 0) to
 * int16 output at scale 1/32768.
 *
 * TFLM's reference_ops::SoftmaxInt16: per row, each value's difference from
 * the row maximum is rescaled so that [-65535, 0] spans [-10, 0] and looked up
 * in an interpolated table of exp; the sum's reciprocal comes from a table of
 * 1 / (1 + x) after normalising the sum, and rescales every exp. Both
 * 513-entry tables are TFLM's LUTPopulate output, computed by the generator
 * (tinyaot.ops.lut) and passed in. All arithmetic fits in 32 bits.
 */
#ifndef TINYAOT_SOFTMAX_S16_H
#define TINYAOT_SOFTMAX_S16_H

#include "tinyaot_common.h"

struct tinyaot_softmax_s16_params {
    int32_t outer_size;        /* rows */
    int32_t depth;             /* values per row */
    int32_t input_multiplier;  /* input scale x beta / (10 / 65535), quantized */
    int32_t input_shift;
};

/* TFLM's LUTLookup for int16: 512 segments of 128 steps, linear in between. */
static inline int16_t tinyaot_lut_s16(int16_t value, const int16_t *lut)
{
    const int32_t index = 256 + (value >> 7);
    const int32_t offset = value & 0x7f;
    const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
    return (int16_t)(lut[index] + ((slope * offset + 64) >> 7));
}

static void tinyaot_softmax_s16(const struct tinyaot_softmax_s16_params *p, const int16_t *exp_lut,
                                const int16_t *reciprocal_lut, const int16_t *input, int16_t *output)
{
    int32_t i, c;
    for (i = 0; i < p->outer_size; i++) {
        const int16_t *in = input + i * p->depth;
        int16_t *out = output + i * p->depth;
        int32_t max = -32768, sum = 0, headroom_plus_one, right_shift, reciprocal;
        uint32_t bits;
        for (c = 0; c < p->depth; c++) {
            max = in[c] > max ? in[c] : max;
        }
        for (c = 0; c < p->depth; c++) {  /* the exps, kept in the output meanwhile */
            const int32_t scaled = tinyaot_requantize(in[c] - max, p->input_multiplier, p->input_shift);
            out[c] = tinyaot_lut_s16((int16_t)tinyaot_clamp_i32(scaled + 32767, -32768, 32767), exp_lut);
            sum += out[c];
        }
        /* 1 / sum: the sum normalised to [1, 2) (its leading zeros counted), less 1, centred. */
        headroom_plus_one = tinyaot_count_leading_zeros((uint32_t)sum);
        bits = (((uint32_t)sum << (headroom_plus_one - 1)) + (1u << 13)) >> 14;
        reciprocal = tinyaot_lut_s16(
            (int16_t)tinyaot_clamp_i32((int32_t)bits - ((1 << 15) + (1 << 16)), -32768, 32767), reciprocal_lut);
        right_shift = 31 - headroom_plus_one;
        for (c = 0; c < p->depth; c++) {
            const int32_t result = (out[c] * reciprocal + (1 << (right_shift - 1))) >> right_shift;
            out[c] = (int16_t)tinyaot_clamp_i32(result, 0, 32767);
        }
    }
}

#endif /* TINYAOT_SOFTMAX_S16_H */
