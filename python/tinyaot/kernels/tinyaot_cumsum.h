/*
 * tinyaot_cumsum.h - CUMSUM of int8 or float32 along one axis, inclusive or
 * exclusive, forward or reversed.
 *
 * TFLM's reference_ops::CumSum: the tensor seen as [before][depth][after]
 * around the axis; each line along the axis summed in order (reversed: every
 * index counted from its end). float32 adds from 0.0f. int8 works as TFLM's
 * ADD does: each value less the zero point, shifted left by 20 and halved by
 * a multiplier of exactly 0.5 (so shifted by 19), summed in 32 bits (wrapping,
 * as TFLM's int32 does) from the input offset so treated (TFLM starts the sum
 * there, not at 0), then rescaled to the output and clamped.
 */
#ifndef TINYAOT_CUMSUM_H
#define TINYAOT_CUMSUM_H

#include "tinyaot_common.h"

struct tinyaot_cumsum_params {
    int32_t before, depth, after;  /* the shape around the axis: [before][depth][after] */
    int32_t exclusive;             /* 1: each output sums the values before it only */
    int32_t reverse;               /* 1: summed from the end of the axis */
    int32_t float32;               /* 1: float32, 0: int8 */
    int32_t input_offset;          /* int8: -input zero point */
    int32_t output_multiplier;     /* int8: 2 * input scale / (2^20 * output scale) */
    int32_t output_shift;
    int32_t output_offset;         /* int8: output zero point */
};

static void tinyaot_cumsum(const struct tinyaot_cumsum_params *p, const void *input, void *output)
{
    int32_t b, a, d;
    for (a = 0; a < p->after; a++) {
        const int32_t after = p->reverse ? p->after - 1 - a : a;
        for (b = 0; b < p->before; b++) {
            const int32_t before = p->reverse ? p->before - 1 - b : b;
            float sum_f = 0.0f;
            uint32_t sum = tinyaot_sum_term_s8(p->input_offset, 0);  /* TFLM starts from the offset */
            for (d = 0; d < p->depth; d++) {
                const int32_t at = after + (before * p->depth + (p->reverse ? p->depth - 1 - d : d)) * p->after;
                if (p->float32) {
                    const float x = ((const float *)input)[at];
                    if (p->exclusive) {
                        ((float *)output)[at] = sum_f;
                        sum_f += x;
                    } else {
                        sum_f += x;
                        ((float *)output)[at] = sum_f;
                    }
                } else {
                    const uint32_t x = tinyaot_sum_term_s8(p->input_offset, ((const int8_t *)input)[at]);
                    int32_t y;
                    if (p->exclusive) {
                        y = (int32_t)sum;
                        sum += x;
                    } else {
                        sum += x;
                        y = (int32_t)sum;
                    }
                    y = tinyaot_requantize(y, p->output_multiplier, p->output_shift) + p->output_offset;
                    ((int8_t *)output)[at] = (int8_t)tinyaot_clamp_i32(y, -128, 127);
                }
            }
        }
    }
}

#endif /* TINYAOT_CUMSUM_H */
