/*
 * tinyaot_fully_connected_s8.h - int8 fully connected layer.
 *
 * Matches TFLM's reference_integer_ops::FullyConnected (per-tensor) and
 * FullyConnectedPerChannel: out = requant(sum((in - in_zp) * (w - w_zp)) + bias).
 */
#ifndef TINYAOT_FULLY_CONNECTED_S8_H
#define TINYAOT_FULLY_CONNECTED_S8_H

#include <stddef.h>

#include "tinyaot_fully_connected_s8_params.h"

/*
 * weights: [output_depth][accum_depth]. bias is bias + input_offset * sum(w + filter_offset)
 * per output, folded by the lowering (NULL when that is zero everywhere): then
 * sum((w + fo) * (x + io)) + bias = sum(w * x) + fo * sum(x) + folded bias,
 * and the inner loop is a plain multiply-accumulate.
 */
/* The two outputs' dot products: see tinyaot_fully_connected_dot2_from_end. */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define TINYAOT_FULLY_CONNECTED_DOT2 tinyaot_fully_connected_dot2_from_end
#else
#define TINYAOT_FULLY_CONNECTED_DOT2 tinyaot_fully_connected_dot2
#endif

#if TINYAOT_PIXEL_PAIRS
/*
 * Four rows' sums (w, w + depth, ...) over depth input values, added to acc: each input
 * value loaded serves four products. With depth a constant (inlined into
 * TINYAOT_FULLY_CONNECTED_ROWS4_DEPTH) the four rows are immediate offsets from one
 * pointer and the loop takes eight input values a step: Cortex-M3, 2.4 instructions
 * per multiply-accumulate where the two-row loop takes 3.6.
 */
/* Input value k's products with the four rows (w at row 0's weight for it), added to a. */
static TINYAOT_ALWAYS_INLINE void tinyaot_fully_connected_tap4(int32_t a[4], const int8_t *in, const int8_t *w,
                                                               int32_t depth, int32_t k)
{
    const int32_t x = in[k];
    a[0] += (int32_t)w[k] * x;
    a[1] += (int32_t)w[k + depth] * x;
    a[2] += (int32_t)w[k + 2 * depth] * x;
    a[3] += (int32_t)w[k + 3 * depth] * x;
}

static TINYAOT_ALWAYS_INLINE void tinyaot_fully_connected_dot4(const int8_t *in, const int8_t *w, int32_t depth,
                                                               int32_t acc[4])
{
    const int8_t *const by4_end = in + (depth - depth % 4), *const end = in + depth;
    int32_t a[4];  /* in registers */
    int32_t k;
    for (k = 0; k < 4; k++) {
        a[k] = acc[k];
    }
    while (in != by4_end) {
        tinyaot_fully_connected_tap4(a, in, w, depth, 0);
        tinyaot_fully_connected_tap4(a, in, w, depth, 1);
        tinyaot_fully_connected_tap4(a, in, w, depth, 2);
        tinyaot_fully_connected_tap4(a, in, w, depth, 3);
        in += 4;
        w += 4;
    }
    while (in != end) {
        tinyaot_fully_connected_tap4(a, in, w, depth, 0);
        in++;
        w++;
    }
    for (k = 0; k < 4; k++) {
        acc[k] = a[k];
    }
}

#define TINYAOT_FULLY_CONNECTED_ROWS4_DEPTH(depth)                                                              \
    static TINYAOT_NOINLINE void tinyaot_fully_connected_rows4_##depth(const int8_t *in, const int8_t *w,      \
                                                                       int32_t acc[4])                        \
    {                                                                                                           \
        tinyaot_fully_connected_dot4(in, w, depth, acc);                                                        \
    }
#define TINYAOT_FULLY_CONNECTED_ROWS4(depth) tinyaot_fully_connected_rows4_##depth
#else
/* Armv6-M's eight low registers hold no four sums beside the pointers: rows two at a time. */
#define TINYAOT_FULLY_CONNECTED_ROWS4_DEPTH(depth)
#define TINYAOT_FULLY_CONNECTED_ROWS4(depth) NULL
#endif

/*
 * One batch's outputs. tensor: the per-tensor fold (tinyaot_tensor_requant_of), or
 * NULL for the multiplier and shift tables. Tested per output, not a loop for each:
 * a second copy of the loop costs hello_world's firmware hundreds of bytes of flash.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_fully_connected_s8_row(const struct tinyaot_fully_connected_params *p,
                                                                 const struct tinyaot_tensor_requant *tensor,
                                                                 const int32_t *multiplier, const int32_t *shift,
                                                                 const int8_t *in, const int8_t *weights,
                                                                 const int32_t *bias, int8_t *out)
{
    const int32_t depth = p->accum_depth;
    /* Locals, not p->...: output is int8_t, which may alias anything, so the
       compiler would reload every field of p after each output store. */
    const int32_t output_depth = p->output_depth;
    const int32_t output_offset = p->output_offset, act_min = p->act_min, act_max = p->act_max;
    const int32_t table_step = p->per_channel ? 1 : 0;  /* per-tensor: one multiplier and shift for all */
    const int32_t input_sum = tinyaot_fully_connected_input_sum(p, in, depth);
    const int8_t *w = weights;
    const int32_t *m = multiplier, *s = shift;
    int32_t oc = 0;
#if TINYAOT_PIXEL_PAIRS
    void (*const rows4)(const int8_t *, const int8_t *, int32_t *) = p->rows4;
    if (rows4 != NULL) {
        for (; oc + 3 < output_depth; oc += 4) {
            int32_t acc[4];
            int32_t k;
            for (k = 0; k < 4; k++) {
                acc[k] = input_sum + (bias != NULL ? bias[oc + k] : 0);
            }
            rows4(in, w, acc);
            for (k = 0; k < 4; k++) {
                if (tensor != NULL) {
                    out[oc + k] = tinyaot_tensor_requantize_s8(tensor, acc[k]);
                } else {
                    out[oc + k] = tinyaot_fully_connected_requantize_s8(acc[k], *m, *s, output_offset, act_min,
                                                                        act_max);
                    m += table_step;
                    s += table_step;
                }
            }
            w += 4 * depth;
        }
    }
#endif
    for (; oc + 1 < output_depth; oc += 2) {
        int32_t acc0 = input_sum, acc1 = input_sum;
        if (bias != NULL) {
            acc0 += bias[oc];
            acc1 += bias[oc + 1];
        }
        TINYAOT_FULLY_CONNECTED_DOT2(in, w, w + depth, depth, &acc0, &acc1);
        if (tensor != NULL) {
            out[oc] = tinyaot_tensor_requantize_s8(tensor, acc0);
            out[oc + 1] = tinyaot_tensor_requantize_s8(tensor, acc1);
        } else {
            out[oc] = tinyaot_fully_connected_requantize_s8(acc0, *m, *s, output_offset, act_min, act_max);
            m += table_step;
            s += table_step;
            out[oc + 1] = tinyaot_fully_connected_requantize_s8(acc1, *m, *s, output_offset, act_min, act_max);
            m += table_step;
            s += table_step;
        }
        w += 2 * depth;
    }
    if (oc < output_depth) {
        const int32_t acc = (bias != NULL ? bias[oc] : 0) + input_sum + tinyaot_fully_connected_dot(in, w, depth);
        out[oc] = tensor != NULL ? tinyaot_tensor_requantize_s8(tensor, acc)
                                 : tinyaot_fully_connected_requantize_s8(acc, *m, *s, output_offset, act_min, act_max);
    }
}

static void tinyaot_fully_connected_s8(const struct tinyaot_fully_connected_params *p,
                                       const int32_t *multiplier, const int32_t *shift,
                                       const int8_t *input, const int8_t *weights,
                                       const int32_t *bias, int8_t *output)
{
    struct tinyaot_tensor_requant fold;
    const struct tinyaot_tensor_requant *tensor = tinyaot_fully_connected_tensor_fold(p, multiplier, shift, &fold);
    int32_t b;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in = input + b * p->accum_depth;
        int8_t *out = output + b * p->output_depth;
        tinyaot_fully_connected_s8_row(p, tensor, multiplier, shift, in, weights, bias, out);
    }
}

#endif /* TINYAOT_FULLY_CONNECTED_S8_H */
