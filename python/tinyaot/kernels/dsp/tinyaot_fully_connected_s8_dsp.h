/*
 * tinyaot_fully_connected_s8_dsp.h - int8 fully connected layer for cores with the DSP
 * extension: the numbers of tinyaot_fully_connected_s8.h (same parameters and tables, the
 * folded bias), with SMLAD.
 *
 * Four outputs at a time, their weights re-laid out at build time so that one pointer
 * walks them: each word of four input values is widened once (2 SXTB16) for the four
 * rows, each row's word of four weights widened and multiplied in 2 SMLADs: 25
 * instructions for 16 multiply-accumulates with the loop's own, where CMSIS-NN's
 * arm_nn_vec_mat_mult_t_s8 takes two rows at a time.
 */
#ifndef TINYAOT_FULLY_CONNECTED_S8_DSP_H
#define TINYAOT_FULLY_CONNECTED_S8_DSP_H

#include <stddef.h>

#include "tinyaot_acle.h"
#include "tinyaot_fully_connected_s8_params.h"

/* acc + the dot product of x's widened halves with one row's word of four weights wv. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_fully_connected_dsp_word(uint32_t x_even, uint32_t x_odd, uint32_t wv,
                                                                      int32_t acc)
{
    return tinyaot_smlad(x_odd, tinyaot_sxtb16_ror8(wv), tinyaot_smlad(x_even, tinyaot_sxtb16(wv), acc));
}

/* The dot product of one row w with the input row in, added to *acc. */
static TINYAOT_ALWAYS_INLINE void tinyaot_fully_connected_dsp_dot(const int8_t *in, const int8_t *w, int32_t depth,
                                                                  int32_t *acc)
{
    const int8_t *const end = in + (depth & ~3);
    int32_t a = *acc;
    int32_t d;
    while (in != end) {
        const uint32_t x = tinyaot_load_u32(in);
        a = tinyaot_fully_connected_dsp_word(tinyaot_sxtb16(x), tinyaot_sxtb16_ror8(x), tinyaot_load_u32(w), a);
        in += 4;
        w += 4;
    }
    for (d = 0; d < depth % 4; d++) {  /* the values after the last whole word */
        a += (int32_t)in[d] * w[d];
    }
    *acc = a;
}

/*
 * The dot products of a block of four rows with the input row in, added to acc[0 .. 4):
 * w at the block, re-laid out by the lowering as per group of four input values the four
 * rows' words side by side, then the depth % 4 values after the groups row by row. One
 * pointer walks the four rows (no registers for their distance). Out of line: inlined
 * into the output loop, the sums are spilled.
 */
static TINYAOT_NOINLINE void tinyaot_fully_connected_dsp_block(const int8_t *in, const int8_t *w, int32_t depth,
                                                               int32_t acc[4])
{
    const int8_t *const end = in + (depth & ~3);
    const int32_t tail = depth % 4;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t d;
    while (in != end) {
        const uint32_t x = tinyaot_load_u32(in);
        const uint32_t x_even = tinyaot_sxtb16(x), x_odd = tinyaot_sxtb16_ror8(x);
        a0 = tinyaot_fully_connected_dsp_word(x_even, x_odd, tinyaot_load_u32(w), a0);
        a1 = tinyaot_fully_connected_dsp_word(x_even, x_odd, tinyaot_load_u32(w + 4), a1);
        a2 = tinyaot_fully_connected_dsp_word(x_even, x_odd, tinyaot_load_u32(w + 8), a2);
        a3 = tinyaot_fully_connected_dsp_word(x_even, x_odd, tinyaot_load_u32(w + 12), a3);
        in += 4;
        w += 16;
    }
    for (d = 0; d < tail; d++) {
        a0 += (int32_t)in[d] * w[d];
        a1 += (int32_t)in[d] * w[tail + d];
        a2 += (int32_t)in[d] * w[2 * tail + d];
        a3 += (int32_t)in[d] * w[3 * tail + d];
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* One batch's outputs; tensor: the per-tensor fold, or NULL for the multiplier and shift tables. */
static void tinyaot_fully_connected_dsp_row(const struct tinyaot_fully_connected_params *p,
                                            const struct tinyaot_tensor_requant *tensor, const int32_t *multiplier,
                                            const int32_t *shift, const int8_t *in, const int8_t *weights,
                                            const int32_t *bias, int8_t *out)
{
    /* Locals, not p->...: output is int8_t, which may alias anything. */
    const int32_t depth = p->accum_depth, output_depth = p->output_depth;
    const int32_t output_offset = p->output_offset, act_min = p->act_min, act_max = p->act_max;
    const int32_t channel_mask = p->per_channel ? -1 : 0;  /* per-tensor: one multiplier and shift for all */
    const int32_t input_sum = tinyaot_fully_connected_input_sum(p, in, depth);
    int32_t oc = 0, k;
    while (oc < output_depth) {
        const int32_t rows = output_depth - oc >= 4 ? 4 : 1;
        int32_t acc[4];
        for (k = 0; k < 4; k++) {
            acc[k] = input_sum + (bias != NULL && k < rows ? bias[oc + k] : 0);
        }
        if (rows == 4) {
            tinyaot_fully_connected_dsp_block(in, weights + oc * depth, depth, acc);
        } else {
            tinyaot_fully_connected_dsp_dot(in, weights + oc * depth, depth, acc);
        }
        for (k = 0; k < rows; k++, oc++) {
            const int32_t ch = oc & channel_mask;
            out[oc] = tensor != NULL ? tinyaot_tensor_requantize_s8(tensor, acc[k])
                                     : tinyaot_fully_connected_requantize_s8(acc[k], multiplier[ch], shift[ch],
                                                                             output_offset, act_min, act_max);
        }
    }
}

/* weights: the blocks of four rows re-laid out as tinyaot_fully_connected_dsp_block reads them, the
   output_depth % 4 rows after them as plain rows; bias: as tinyaot_fully_connected_s8's (NULL where zero). */
static void tinyaot_fully_connected_s8_dsp(const struct tinyaot_fully_connected_params *p,
                                           const int32_t *multiplier, const int32_t *shift,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias, int8_t *output)
{
    struct tinyaot_tensor_requant fold;
    const struct tinyaot_tensor_requant *tensor = tinyaot_fully_connected_tensor_fold(p, multiplier, shift, &fold);
    int32_t b;
    for (b = 0; b < p->batches; b++) {
        tinyaot_fully_connected_dsp_row(p, tensor, multiplier, shift, input + b * p->accum_depth, weights, bias,
                                        output + b * p->output_depth);
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S8_DSP_H */
