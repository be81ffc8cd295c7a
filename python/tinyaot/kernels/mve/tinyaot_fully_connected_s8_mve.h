/*
 * tinyaot_fully_connected_s8_mve.h - int8 fully connected layer for Helium (MVE) cores: the
 * numbers of tinyaot_fully_connected_s8.h (same parameters and tables, the folded bias, the
 * model's own weights) with VMLADAVA, 16 multiply-accumulates an instruction.
 *
 * Four outputs at a time: each load of 16 input values serves the four rows' loads and
 * VMLADAVAs (about 10 instructions for 64 multiply-accumulates); the output_depth % 4 rows
 * after them one at a time. A depth that is not a multiple of 16 ends on tail-predicated loads.
 */
#ifndef TINYAOT_FULLY_CONNECTED_S8_MVE_H
#define TINYAOT_FULLY_CONNECTED_S8_MVE_H

#include <stddef.h>

#include "tinyaot_fully_connected_s8_params.h"
#include "tinyaot_mve.h"

/* The dot products of in[0 .. count) with rows w, w + stride, ... (rows: 4 or 1), added to acc
   (stride: the rows' length, count: the values taken of each; also band-fused slices'). */
static TINYAOT_NOINLINE void tinyaot_fully_connected_mve_rows(const int8_t *in, const int8_t *w, int32_t stride,
                                                              int32_t count, int32_t rows, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t d;
    if (rows == 4) {
        for (d = 0; d < count; d += 16) {
            const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(count - d));
            const tinyaot_s8x16 x = tinyaot_vld_s8_z(in + d, lanes);
            a0 = tinyaot_vmladava_s8(a0, x, tinyaot_vld_s8_z(w + d, lanes));
            a1 = tinyaot_vmladava_s8(a1, x, tinyaot_vld_s8_z(w + stride + d, lanes));
            a2 = tinyaot_vmladava_s8(a2, x, tinyaot_vld_s8_z(w + 2 * stride + d, lanes));
            a3 = tinyaot_vmladava_s8(a3, x, tinyaot_vld_s8_z(w + 3 * stride + d, lanes));
        }
    } else {
        for (d = 0; d < count; d += 16) {
            const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(count - d));
            a0 = tinyaot_vmladava_s8(a0, tinyaot_vld_s8_z(in + d, lanes), tinyaot_vld_s8_z(w + d, lanes));
        }
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* weights: the model's [output_depth][accum_depth]; bias: as tinyaot_fully_connected_s8's (NULL where zero). */
/* TINYAOT_NOINLINE: unused where a model's only fully connected layer is band-fused
   (tinyaot_band_fc_s8_mve.h includes this header for its rows). */
static TINYAOT_NOINLINE void tinyaot_fully_connected_s8_mve(const struct tinyaot_fully_connected_params *p,
                                                            const int32_t *multiplier, const int32_t *shift,
                                                            const int8_t *input, const int8_t *weights,
                                                            const int32_t *bias, int8_t *output)
{
    struct tinyaot_tensor_requant fold;
    const struct tinyaot_tensor_requant *tensor = tinyaot_fully_connected_tensor_fold(p, multiplier, shift, &fold);
    /* Locals, not p->...: output is int8_t, which may alias anything. */
    const int32_t depth = p->accum_depth, output_depth = p->output_depth;
    const int32_t output_offset = p->output_offset, act_min = p->act_min, act_max = p->act_max;
    const int32_t channel_mask = p->per_channel ? -1 : 0;  /* per-tensor: one multiplier and shift for all */
    int32_t b;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in = input + b * depth;
        int8_t *out = output + b * output_depth;
        const int32_t input_sum = tinyaot_fully_connected_input_sum(p, in, depth);
        int32_t oc = 0, k;
        while (oc < output_depth) {
            const int32_t rows = output_depth - oc >= 4 ? 4 : 1;
            int32_t acc[4];
            for (k = 0; k < 4; k++) {
                acc[k] = input_sum + (bias != NULL && k < rows ? bias[oc + k] : 0);
            }
            tinyaot_fully_connected_mve_rows(in, weights + oc * depth, depth, depth, rows, acc);
            for (k = 0; k < rows; k++, oc++) {
                const int32_t ch = oc & channel_mask;
                out[oc] = tensor != NULL ? tinyaot_tensor_requantize_s8(tensor, acc[k])
                                         : tinyaot_fully_connected_requantize_s8(acc[k], multiplier[ch], shift[ch],
                                                                                 output_offset, act_min, act_max);
            }
        }
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S8_MVE_H */
