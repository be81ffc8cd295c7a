/*
 * tinyaot_reduce_int.h - int8 and int16 MEAN and SUM, int8 REDUCE_MAX and
 * REDUCE_MIN over some axes.
 *
 * MEAN and SUM match TFLM's reference_ops::QuantizedMeanOrSum (int8_t and
 * int16_t): an int32 sum of the input values (wrapping, as TFLM's), minus zero
 * point x count, rescaled by input_scale / output_scale (for MEAN with 1/count
 * folded in, worked out at compile time the way TFLM does), plus the output
 * zero point, clamped to the output's type. REDUCE_MAX and REDUCE_MIN are
 * TFLM's ReduceGeneric from the type's extreme; input and output are quantized
 * alike (TFLM requires it), so the stored value is picked, not rescaled.
 * REDUCE_ALL reads bool values (one byte, nonzero true): 1 unless one is 0.
 *
 * The sums are taken one output at a time, so no accumulator buffer is
 * needed: integer addition gives the same result in any order. dims/strides
 * hold the input's dimensions (merged at compile time) and their input
 * strides: first the kept ones, which enumerate the outputs in order, then
 * the reduced ones, which enumerate the values of one output.
 */
#ifndef TINYAOT_REDUCE_INT_H
#define TINYAOT_REDUCE_INT_H

#include "tinyaot_common.h"
#include "tinyaot_reduce.h"

#define TINYAOT_REDUCE_INT_SUM 0  /* MEAN and SUM: the sum, rescaled */
#define TINYAOT_REDUCE_INT_MAX 1
#define TINYAOT_REDUCE_INT_MIN 2
#define TINYAOT_REDUCE_INT_ALL 3  /* bool */

struct tinyaot_reduce_int_params {
    int32_t kept_rank;      /* leading entries of dims/strides that are kept */
    int32_t reduced_rank;   /* entries after them that are reduced */
    int32_t output_size;
    int32_t reduced_size;   /* values summed into each output */
    int32_t sum_offset;     /* SUM: input zero point x reduced_size, wrapped to 32 bits */
    int32_t multiplier;     /* input_scale / output_scale (MEAN: / reduced_size) */
    int32_t shift;
    int32_t output_offset;  /* output zero point */
    int32_t int16;          /* 1: int16 input and output, 0: int8 */
    int32_t kind;           /* TINYAOT_REDUCE_INT_SUM, _MAX or _MIN (int8), _ALL (bool) */
};

static void tinyaot_reduce_int(const struct tinyaot_reduce_int_params *p, const int32_t *dims,
                               const int32_t *strides, const void *input, void *output)
{
    int32_t kept[TINYAOT_REDUCE_MAX_DIMS] = {0};
    int32_t reduced[TINYAOT_REDUCE_MAX_DIMS] = {0};
    const int32_t *reduced_dims = dims + p->kept_rank;
    const int32_t *reduced_strides = strides + p->kept_rank;
    int32_t base = 0, o, r;
    for (o = 0; o < p->output_size; o++) {
        uint32_t sum = 0; /* unsigned: wraps where TFLM's int32 sum wraps, without UB */
        int32_t acc = p->kind == TINYAOT_REDUCE_INT_MAX ? -128 : p->kind == TINYAOT_REDUCE_INT_ALL ? 1 : 127;
        int32_t at = base;
        for (r = 0; r < p->reduced_size; r++) {
            const int32_t value = p->int16 ? ((const int16_t *)input)[at] : ((const int8_t *)input)[at];
            if (p->kind == TINYAOT_REDUCE_INT_SUM) {
                sum += (uint32_t)value;
            } else if (p->kind == TINYAOT_REDUCE_INT_ALL) {
                acc = acc && value != 0;
            } else if (p->kind == TINYAOT_REDUCE_INT_MAX) {
                acc = value > acc ? value : acc;
            } else {
                acc = value < acc ? value : acc;
            }
            at += tinyaot_reduce_step(reduced, reduced_dims, reduced_strides, p->reduced_rank);
        }
        if (p->kind == TINYAOT_REDUCE_INT_SUM) {
            acc = (int32_t)(sum - (uint32_t)p->sum_offset);
            acc = tinyaot_requantize(acc, p->multiplier, p->shift) + p->output_offset;
        }
        if (p->int16) {
            ((int16_t *)output)[o] = (int16_t)tinyaot_clamp_i32(acc, -32768, 32767);
        } else {
            ((int8_t *)output)[o] = (int8_t)tinyaot_clamp_i32(acc, -128, 127);
        }
        base += tinyaot_reduce_step(kept, dims, strides, p->kept_rank);
    }
}

#endif /* TINYAOT_REDUCE_INT_H */
