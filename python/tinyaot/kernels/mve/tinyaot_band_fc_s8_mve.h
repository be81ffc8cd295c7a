/*
 * tinyaot_band_fc_s8_mve.h - tinyaot_band_fc_accumulate_s8 (tinyaot_band_fc_s8.h) for Helium
 * (MVE) cores: a band's slice of the FULLY_CONNECTED dot products (micro_speech's 4000-value
 * layer, in bands of its convolution's rows), four outputs at a time on the model's own rows
 * with tinyaot_fully_connected_s8_mve.h's VMLADAVA loop (each load of 16 slice values serves
 * the four rows'); the last 1-3 rows take the portable loop.
 */
#ifndef TINYAOT_BAND_FC_S8_MVE_H
#define TINYAOT_BAND_FC_S8_MVE_H

#include "tinyaot_band_fc_s8.h"
#include "tinyaot_fully_connected_s8_mve.h"

/* tinyaot_band_fc_accumulate_s8's sums, four outputs at a time. */
static void tinyaot_band_fc_accumulate_s8_mve(const struct tinyaot_fully_connected_params *p, const int8_t *slice,
                                              int32_t k0, int32_t count, const int8_t *weights, int32_t *acc)
{
    const int32_t depth = p->accum_depth;
    const int32_t input_sum = tinyaot_fully_connected_input_sum(p, slice, count);
    int32_t oc, k;
    for (oc = 0; oc + 3 < p->output_depth; oc += 4) {
        int32_t sums[4] = {input_sum, input_sum, input_sum, input_sum};
        tinyaot_fully_connected_mve_rows(slice, weights + oc * depth + k0, depth, count, 4, sums);
        for (k = 0; k < 4; k++) {
            acc[oc + k] += sums[k];
        }
    }
    tinyaot_band_fc_rows_s8(p, slice, k0, count, weights, input_sum, oc, acc);
}

#endif /* TINYAOT_BAND_FC_S8_MVE_H */
