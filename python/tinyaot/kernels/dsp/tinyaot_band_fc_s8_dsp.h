/*
 * tinyaot_band_fc_s8_dsp.h - tinyaot_band_fc_accumulate_s8 (tinyaot_band_fc_s8.h) for cores
 * with the DSP extension: a band's slice of the FULLY_CONNECTED dot products (micro_speech's
 * 4000-value layer, in bands of its depthwise convolution's rows), four outputs at a time on
 * the model's own rows. Each word of four input values is spread by SXTB16 / SXTB16 ROR #8
 * into values 0 and 2, 1 and 3 as 16-bit halves once, and serves the four rows' words, spread
 * the same way: two SMLAD a row. The rows are read at any alignment; the last 1-3 values
 * of a slice and the last 1-3 rows take the portable loops.
 */
#ifndef TINYAOT_BAND_FC_S8_DSP_H
#define TINYAOT_BAND_FC_S8_DSP_H

#include "tinyaot_acle.h"
#include "tinyaot_band_fc_s8.h"

/* Four rows' (w, w + depth, w + 2 depth, w + 3 depth) dot products with in[0 .. words * 4), added to acc. */
static TINYAOT_NOINLINE void tinyaot_band_fc_dot4_dsp(const int8_t *in, const int8_t *w, int32_t depth,
                                                      int32_t words, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const int8_t *w2 = w + 2 * depth;  /* rows 1 and 3 a depth after rows 0 and 2: fewer registers */
    for (; words > 0; words--) {
        const uint32_t x = tinyaot_load_u32(in), xe = tinyaot_sxtb16(x), xo = tinyaot_sxtb16_ror8(x);
        a0 = tinyaot_smlad_spread(xe, xo, tinyaot_load_u32(w), a0);
        a1 = tinyaot_smlad_spread(xe, xo, tinyaot_load_u32(w + depth), a1);
        a2 = tinyaot_smlad_spread(xe, xo, tinyaot_load_u32(w2), a2);
        a3 = tinyaot_smlad_spread(xe, xo, tinyaot_load_u32(w2 + depth), a3);
        in += 4, w += 4, w2 += 4;
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/* tinyaot_band_fc_accumulate_s8's sums, four outputs at a time. */
static void tinyaot_band_fc_accumulate_s8_dsp(const struct tinyaot_fully_connected_params *p, const int8_t *slice,
                                              int32_t k0, int32_t count, const int8_t *weights, int32_t *acc)
{
    const int32_t depth = p->accum_depth, whole = count & ~3;
    const int32_t input_sum = tinyaot_fully_connected_input_sum(p, slice, count);
    int32_t oc, k;
    for (oc = 0; oc + 3 < p->output_depth; oc += 4) {
        const int8_t *w = weights + oc * depth + k0;
        int32_t sums[4] = {input_sum, input_sum, input_sum, input_sum};
        tinyaot_band_fc_dot4_dsp(slice, w, depth, whole / 4, sums);
        for (k = 0; k < 4; k++) {
            acc[oc + k] += sums[k] + tinyaot_fully_connected_dot(slice + whole, w + k * depth + whole, count - whole);
        }
    }
    tinyaot_band_fc_rows_s8(p, slice, k0, count, weights, input_sum, oc, acc);
}

#endif /* TINYAOT_BAND_FC_S8_DSP_H */
