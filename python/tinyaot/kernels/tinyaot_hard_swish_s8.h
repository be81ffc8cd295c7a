/*
 * tinyaot_hard_swish_s8.h - int8 HARD_SWISH: x * relu6(x + 3) / 6.
 *
 * Matches TFLM's reference_ops::HardSwish for int8, which works in 16 bits:
 * the input moves to a finer "hires" scale (x 2^7), one rescaling gives the
 * output-scaled input, another the "reluish" factor relu6(x + 3) / 6 in
 * [0, 1) as Q15, and their product is rounded to the output scale. The
 * multipliers are int16 (TFLM's DownScaleInt32ToInt16Multiplier).
 */
#ifndef TINYAOT_HARD_SWISH_S8_H
#define TINYAOT_HARD_SWISH_S8_H

#include "tinyaot_common.h"

struct tinyaot_hard_swish_s8_params {
    int32_t size;                 /* number of values */
    int32_t input_zero_point;
    int32_t output_zero_point;
    int32_t output_multiplier;    /* int16: hires input scale / output scale ... */
    int32_t output_exponent;      /* ... times 2^exponent, <= 0 */
    int32_t reluish_multiplier;   /* int16: hires input scale / (3 / 2^15) ... */
    int32_t reluish_exponent;     /* ... times 2^exponent */
};

/* gemmlowp's int16 SaturatingRoundingDoublingHighMul. */
static inline int16_t tinyaot_sat_rounding_doubling_high_mul_s16(int16_t a, int16_t b)
{
    const int32_t ab = (int32_t)a * (int32_t)b;
    const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
    if (a == b && a == INT16_MIN) {
        return INT16_MAX;
    }
    return (int16_t)((ab + nudge) / (1 << 15));
}

/* TFLM's HardSwish helpers: a doubling high multiply that truncates ... */
static inline int16_t tinyaot_sat_doubling_high_mul_s16(int16_t a, int16_t b)
{
    if (a == b && a == INT16_MIN) {
        return INT16_MAX;
    }
    return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

/* ... and a saturating left shift. */
static inline int16_t tinyaot_sat_left_shift_s16(int16_t x, int32_t amount)
{
    if (x == 0) {
        return 0;
    }
    if (amount >= 16) {
        return x > 0 ? INT16_MAX : INT16_MIN;
    }
    return (int16_t)tinyaot_clamp_i32((int32_t)x * ((int32_t)1 << amount), INT16_MIN, INT16_MAX);
}

static void tinyaot_hard_swish_s8(const struct tinyaot_hard_swish_s8_params *p, const int8_t *input,
                                  int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const int16_t hires = (int16_t)(((int32_t)input[i] - p->input_zero_point) * (1 << 7));
        const int16_t scaled = tinyaot_sat_rounding_doubling_high_mul_s16(hires, (int16_t)p->output_multiplier);
        int16_t reluish = hires;
        int16_t out;
        if (p->reluish_exponent > 0) {
            reluish = tinyaot_sat_left_shift_s16(reluish, p->reluish_exponent - 1);
        }
        reluish = tinyaot_sat_rounding_doubling_high_mul_s16(reluish, (int16_t)p->reluish_multiplier);
        if (p->reluish_exponent > 0) {
            reluish = tinyaot_sat_left_shift_s16(reluish, 1);
        }
        if (p->reluish_exponent < 0) {
            reluish = (int16_t)tinyaot_rounding_divide_by_pot(reluish, -p->reluish_exponent);
        }
        /* From [-1, 1) to [0, 1). */
        reluish = (int16_t)(((int32_t)reluish + (1 << 15)) >> 1);
        out = (int16_t)tinyaot_rounding_divide_by_pot(tinyaot_sat_doubling_high_mul_s16(reluish, scaled),
                                                      -p->output_exponent);
        out = (int16_t)(out + p->output_zero_point);
        output[i] = (int8_t)tinyaot_clamp_i32(out, -128, 127);
    }
}

#endif /* TINYAOT_HARD_SWISH_S8_H */
