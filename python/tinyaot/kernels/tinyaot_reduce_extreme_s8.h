/*
 * tinyaot_reduce_extreme_s8.h - int8 REDUCE_MAX and REDUCE_MIN over some axes.
 *
 * TFLM's ReduceGeneric from the type's extreme; input and output are quantized
 * alike (TFLM requires it), so stored values are picked, not rescaled.
 * dims/strides as in tinyaot_reduce_sum_int.h.
 */
#ifndef TINYAOT_REDUCE_EXTREME_S8_H
#define TINYAOT_REDUCE_EXTREME_S8_H

#include "tinyaot_reduce.h"

struct tinyaot_reduce_extreme_params {
    int32_t kept_rank;      /* as in tinyaot_reduce_sum_int.h */
    int32_t reduced_rank;
    int32_t output_size;
    int32_t reduced_size;
    int32_t max;            /* 1: REDUCE_MAX, 0: REDUCE_MIN */
};

static void tinyaot_reduce_extreme_s8(const struct tinyaot_reduce_extreme_params *p, const int32_t *dims,
                                      const int32_t *strides, const int8_t *input, int8_t *output)
{
    int32_t kept[TINYAOT_REDUCE_MAX_DIMS] = {0};
    int32_t reduced[TINYAOT_REDUCE_MAX_DIMS] = {0};
    const int32_t *reduced_dims = dims + p->kept_rank;
    const int32_t *reduced_strides = strides + p->kept_rank;
    int32_t base = 0, o, r;
    for (o = 0; o < p->output_size; o++) {
        int32_t best = p->max ? -128 : 127;
        int32_t at = base;
        for (r = 0; r < p->reduced_size; r++) {
            const int32_t value = input[at];
            best = p->max ? (value > best ? value : best) : (value < best ? value : best);
            at += tinyaot_reduce_step(reduced, reduced_dims, reduced_strides, p->reduced_rank);
        }
        output[o] = (int8_t)best;
        base += tinyaot_reduce_step(kept, dims, strides, p->kept_rank);
    }
}

#endif /* TINYAOT_REDUCE_EXTREME_S8_H */
