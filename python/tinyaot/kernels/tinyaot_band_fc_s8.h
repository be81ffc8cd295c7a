/*
 * tinyaot_band_fc_s8.h - a convolution computed in bands of output rows, each
 * band consumed at once by the FULLY_CONNECTED layer that reads the
 * convolution's output flattened (passes/fusion.py): the whole output is never
 * stored.
 *
 * The generated step loops over the bands: tinyaot_band_window() trims the
 * convolution's parameters to the band, the unchanged convolution kernel
 * writes the band into a small scratch buffer, and
 * tinyaot_band_fc_accumulate_s8() adds the band's slice of every dot product
 * (weights columns k0 .. k0 + count) to int32 accumulators. Integer sums do not
 * depend on their order, so tinyaot_band_fc_finish_s8() requantizes exactly
 * what tinyaot_fully_connected_s8() would (batch 1).
 */
#ifndef TINYAOT_BAND_FC_S8_H
#define TINYAOT_BAND_FC_S8_H

#include <stddef.h>

#include "tinyaot_band_window.h"
#include "tinyaot_fully_connected_s8_params.h"

/* The accumulators start at the folded bias (see tinyaot_fully_connected_s8), or 0. */
static void tinyaot_band_fc_start_s8(const struct tinyaot_fully_connected_params *p, const int32_t *bias,
                                     int32_t *acc)
{
    int32_t oc;
    for (oc = 0; oc < p->output_depth; oc++) {
        acc[oc] = bias != NULL ? bias[oc] : 0;
    }
}

/*
 * Adds input_sum + sum(w * x) over inputs k0 .. k0 + count - 1 (held in slice) to the
 * accumulators of outputs first .. output_depth - 1; two outputs at a time, so that each
 * input value loaded serves both.
 */
static inline void tinyaot_band_fc_rows_s8(const struct tinyaot_fully_connected_params *p, const int8_t *slice,
                                           int32_t k0, int32_t count, const int8_t *weights, int32_t input_sum,
                                           int32_t first, int32_t *acc)
{
    const int32_t depth = p->accum_depth, output_depth = p->output_depth;
    int32_t oc;
    for (oc = first; oc + 1 < output_depth; oc += 2) {
        const int8_t *w0 = weights + oc * depth + k0;
        int32_t sum0 = input_sum, sum1 = input_sum;
        tinyaot_fully_connected_dot2(slice, w0, w0 + depth, count, &sum0, &sum1);
        acc[oc] += sum0;
        acc[oc + 1] += sum1;
    }
    if (oc < output_depth) {
        acc[oc] += input_sum + tinyaot_fully_connected_dot(slice, weights + oc * depth + k0, count);
    }
}

/* Adds sum((w + filter_offset) * x) over inputs k0 .. k0 + count - 1 (held in slice) to each
   accumulator. */
static inline void tinyaot_band_fc_accumulate_s8(const struct tinyaot_fully_connected_params *p,
                                                 const int8_t *slice, int32_t k0, int32_t count,
                                                 const int8_t *weights, int32_t *acc)
{
    tinyaot_band_fc_rows_s8(p, slice, k0, count, weights, tinyaot_fully_connected_input_sum(p, slice, count), 0,
                            acc);
}

static void tinyaot_band_fc_finish_s8(const struct tinyaot_fully_connected_params *p, const int32_t *multiplier,
                                      const int32_t *shift, const int32_t *acc, int8_t *output)
{
    int32_t oc;
    for (oc = 0; oc < p->output_depth; oc++) {
        const int32_t ch = p->per_channel ? oc : 0;
        output[oc] = tinyaot_requantize_s8(acc[oc], multiplier[ch], shift[ch], p->output_offset, p->act_min,
                                           p->act_max);
    }
}

#endif /* TINYAOT_BAND_FC_S8_H */
