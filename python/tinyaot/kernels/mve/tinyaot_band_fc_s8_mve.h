/*
 * tinyaot_band_fc_s8_mve.h - tinyaot_band_fc_accumulate_s8 (tinyaot_band_fc_s8.h) for Helium
 * (MVE) cores: a band's slice of the FULLY_CONNECTED dot products (micro_speech's 4000-value
 * layer, in bands of its convolution's rows), four outputs at a time on the model's own rows
 * with VMLADAVA: each load of 16 slice values serves the four rows' loads and VMLADAVAs, the
 * slice's last count % 16 on tail-predicated loads; the last 1-3 rows take the portable loop.
 */
#ifndef TINYAOT_BAND_FC_S8_MVE_H
#define TINYAOT_BAND_FC_S8_MVE_H

#include "tinyaot_band_fc_s8.h"
#include "tinyaot_mve.h"

/* Four rows' (w, w + depth, w + 2 depth, w + 3 depth) dot products with in[0 .. count), added to acc. */
static TINYAOT_NOINLINE void tinyaot_band_fc_dot4_mve(const int8_t *in, const int8_t *w, int32_t depth,
                                                      int32_t count, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t d;
    for (d = 0; d < count; d += 16) {
        const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(count - d));
        const tinyaot_s8x16 x = tinyaot_vld_s8_z(in + d, lanes);
        a0 = tinyaot_vmladava_s8(a0, x, tinyaot_vld_s8_z(w + d, lanes));
        a1 = tinyaot_vmladava_s8(a1, x, tinyaot_vld_s8_z(w + depth + d, lanes));
        a2 = tinyaot_vmladava_s8(a2, x, tinyaot_vld_s8_z(w + 2 * depth + d, lanes));
        a3 = tinyaot_vmladava_s8(a3, x, tinyaot_vld_s8_z(w + 3 * depth + d, lanes));
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/* tinyaot_band_fc_accumulate_s8's sums, four outputs at a time. */
static void tinyaot_band_fc_accumulate_s8_mve(const struct tinyaot_fully_connected_params *p, const int8_t *slice,
                                              int32_t k0, int32_t count, const int8_t *weights, int32_t *acc)
{
    const int32_t depth = p->accum_depth;
    const int32_t input_sum = tinyaot_fully_connected_input_sum(p, slice, count);
    int32_t oc, k;
    for (oc = 0; oc + 3 < p->output_depth; oc += 4) {
        int32_t sums[4] = {input_sum, input_sum, input_sum, input_sum};
        tinyaot_band_fc_dot4_mve(slice, weights + oc * depth + k0, depth, count, sums);
        for (k = 0; k < 4; k++) {
            acc[oc + k] += sums[k];
        }
    }
    tinyaot_band_fc_rows_s8(p, slice, k0, count, weights, input_sum, oc, acc);
}

#endif /* TINYAOT_BAND_FC_S8_MVE_H */
