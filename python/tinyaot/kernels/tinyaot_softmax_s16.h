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

/*
 * TFLM's scaled difference, clamp(requantize(-u) + 32767, -32768, 32767), for a difference
 * u = max - x in 0..65535 and a left shift ls <= 15 or right shift e (one of them 0): with
 * -u << ls and the multiplier's product P negative, both roundings work on its magnitude
 * (as tinyaot_requantize_exact does), floor((P + 2^30 - 1) / 2^31) (the high word of
 * 2P + 2^31 - 2, one multiply-accumulate) then half up by 2^e, with no sign tests, and the
 * clamp is one minimum.
 */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_softmax_s16_scaled(uint32_t u, uint32_t multiplier, int32_t ls,
                                                                int32_t e)
{
#if TINYAOT_LONG_MULTIPLY
    uint32_t q = (uint32_t)(((uint64_t)(u << (ls + 1)) * multiplier + 0x7FFFFFFEu) >> 32);
#else
    uint32_t q = tinyaot_q31_magnitude(u << ls, multiplier, 1u);
#endif
    q = (q + ((1u << e) >> 1)) >> e;
    return 32767 - (int32_t)(q < 65535u ? q : 65535u);
}

/* A row's exps into out (tinyaot_softmax_s16_scaled's differences from max), their sum
   returned. Inlined twice: with e a constant 0 (no rounding step), and with ls 0. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_softmax_s16_exps(const int16_t *in, int16_t *out, int32_t depth,
                                                              int32_t max, uint32_t multiplier, int32_t ls,
                                                              int32_t e, const int16_t *exp_lut)
{
    int32_t sum = 0, c;
    for (c = 0; c < depth; c++) {
        const int16_t exp = tinyaot_lut_s16((int16_t)tinyaot_softmax_s16_scaled((uint32_t)(max - in[c]), multiplier,
                                                                                ls, e), exp_lut);
        out[c] = exp;
        sum += exp;
    }
    return sum;
}

static void tinyaot_softmax_s16(const struct tinyaot_softmax_s16_params *p, const int16_t *exp_lut,
                                const int16_t *reciprocal_lut, const int16_t *input, int16_t *output)
{
    /* TFLM's rescale of the differences as tinyaot_softmax_s16_scaled works it where its
       conditions hold (every multiplier the generator computes is >= 0), else as written. */
    const int32_t magnitudes = p->input_shift <= 15 && p->input_shift > -32 && p->input_multiplier >= 0;
    const int32_t ls = p->input_shift > 0 ? p->input_shift : 0, e = p->input_shift > 0 ? 0 : -p->input_shift;
    const uint32_t multiplier = (uint32_t)p->input_multiplier;
    int32_t i, c;
    for (i = 0; i < p->outer_size; i++) {
        const int16_t *in = input + i * p->depth;
        int16_t *out = output + i * p->depth;
        int32_t max = -32768, sum = 0, headroom_plus_one, right_shift, reciprocal;
        uint32_t bits;
        for (c = 0; c < p->depth; c++) {
            max = in[c] > max ? in[c] : max;
        }
        /* the exps, kept in the output meanwhile */
        if (magnitudes && e == 0) {
            sum = tinyaot_softmax_s16_exps(in, out, p->depth, max, multiplier, ls, 0, exp_lut);
        } else if (magnitudes) {
            sum = tinyaot_softmax_s16_exps(in, out, p->depth, max, multiplier, 0, e, exp_lut);
        } else {
            for (c = 0; c < p->depth; c++) {
                const int32_t scaled = tinyaot_requantize(in[c] - max, p->input_multiplier, p->input_shift);
                out[c] = tinyaot_lut_s16((int16_t)tinyaot_clamp_i32(scaled + 32767, -32768, 32767), exp_lut);
                sum += out[c];
            }
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
