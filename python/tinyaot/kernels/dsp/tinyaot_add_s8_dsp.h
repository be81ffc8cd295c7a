/*
 * tinyaot_add_s8_dsp.h - int8 ADD of two inputs of the output's shape (ResNet-8's
 * residual adds), for cores with the DSP extension.
 *
 * TFLite's int8 ADD (reference_integer_ops::AddFunc) scales the input of the larger
 * scale by 0.5 at 20 bits of headroom: exactly (x + offset) * 2^19. The other input's
 * scaled value depends on its int8 alone, so the generator tabulates it (256 int32,
 * computed with TFLite's arithmetic, ops/elementwise.py), the larger input's offset
 * times 2^19 added in and all doubled: a value costs a table load and one add of the
 * shifted larger input, acc2 = 2 acc (|acc| < 2^28).
 *
 * The output's MultiplyByQuantizedMultiplierSmallerThanOneExp(acc, m, -r) + z: the
 * doubling high multiply is h = floor((acc m + 2^30) / 2^31) for either sign (gemmlowp's
 * nudge 1 - 2^30 for a negative product, truncated, gives the same), which SMMLAR gives
 * from acc2 as floor((acc2 m + 2^31) / 2^32), with round = 2^(r-1) + z 2^r added to it;
 * the rounding shift (ties away from zero) takes 1 off for h < 0, here acc < 0 (where
 * h = 0 either way gives the same), then >> r. No SIMD: each value rounds at 64 bits.
 * Inputs and output are walked forward together, one value at a time, so the output may
 * overlap either input from its start on (overlap.elementwise).
 */
#ifndef TINYAOT_ADD_S8_DSP_H
#define TINYAOT_ADD_S8_DSP_H

#include "tinyaot_acle.h"

struct tinyaot_add_s8_dsp_params {
    int32_t size;               /* output values */
    int32_t output_multiplier;  /* m >= 0 */
    int32_t output_round;       /* 2^(r-1) + z 2^r, z the output zero point */
    int32_t output_shift;       /* r, 1 .. 30 */
    int32_t act_min;
    int32_t act_max;
};

/*
 * larger: the input of the larger scale; other: the other one; other_scaled[u]: twice the
 * other input's scaled value for the int8 of bits u, plus the larger's offset times 2^19.
 */
static void tinyaot_add_s8_dsp(const struct tinyaot_add_s8_dsp_params *params, const int8_t *larger,
                               const int8_t *other, const int32_t *other_scaled, int8_t *output)
{
    const uint8_t *bits = (const uint8_t *)other;  /* LDRB and LDR [table, u, LSL #2] */
    const struct tinyaot_add_s8_dsp_params p = *params;  /* a local: int8 stores may alias *params */
    const int8_t *const end = output + p.size;
    while (output != end) {
        const int32_t acc2 = (int32_t)((uint32_t)(int32_t)*larger++ << 20) + other_scaled[*bits++];
        const int32_t v = (tinyaot_smmlar(acc2, p.output_multiplier, p.output_round) + (acc2 >> 31)) >> p.output_shift;
        *output++ = (int8_t)tinyaot_clamp_i32(v, p.act_min, p.act_max);
    }
}

#endif /* TINYAOT_ADD_S8_DSP_H */
