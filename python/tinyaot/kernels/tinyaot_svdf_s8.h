/*
 * tinyaot_svdf_s8.h - SVDF with int8 input/output, int16 time weights and state.
 *
 * Matches TFLM's EvalIntegerSvdfReference<int16_t> (svdf_common.cc):
 *   1. shift every state row left by one (drop the oldest activation),
 *   2. newest activation = clamp16(requant(in . feature_row, scale 1)),
 *   3. out[unit] = clamp8(requant(bias + sum over the unit's `rank` filters of
 *                  time_row . state_row, scale 2) + out zp).
 * TFLM applies no fused activation on this path, so neither does this kernel.
 * The state's zero point is 0 (the lowering checks it), so it appears nowhere.
 *
 * State layout, as in TFLM: [batch][filter][memory], oldest first.
 *
 * TFLM keeps the time products in one int32 scratch buffer and the bias-added
 * sums in another. Both are consumed right after they are made, so here each
 * filter's state update, time product and reduction are done in one pass with
 * no scratch memory. The sums are taken modulo 2^32, which is what TFLM's int32
 * additions give on its targets even when they overflow, so the order of the
 * additions does not change the result.
 */
#ifndef TINYAOT_SVDF_S8_H
#define TINYAOT_SVDF_S8_H

#include "tinyaot_common.h"

struct tinyaot_svdf_params {
    int32_t batches;
    int32_t input_size;       /* input values per batch */
    int32_t num_units;        /* output values per batch */
    int32_t rank;             /* filters per unit */
    int32_t memory_size;      /* activations kept per filter */
    int32_t output_offset;    /* output zero point */
    int32_t multiplier_1;     /* input * feature weights -> state */
    int32_t shift_1;
    int32_t multiplier_2;     /* state * time weights -> output */
    int32_t shift_2;
};

/* a + b modulo 2^32: int32 wrap-around without signed overflow. */
static inline int32_t tinyaot_svdf_add_wrap(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

/*
 * Moves one filter's history left by one, stores its newest activation (the
 * feature dot product `dot`, rescaled to int16) and returns time_weights .
 * history, in one pass over the row.
 */
static inline int32_t tinyaot_svdf_filter(const struct tinyaot_svdf_params *p, int32_t dot, const int16_t *time,
                                          int16_t *row)
{
    const int32_t newest = tinyaot_clamp_i32(tinyaot_requantize(dot, p->multiplier_1, p->shift_1), INT16_MIN,
                                             INT16_MAX);
    const int32_t last = p->memory_size - 1;
    int32_t i, acc = 0;
    for (i = 0; i < last; i++) {
        const int16_t v = row[i + 1];
        row[i] = v;
        acc = tinyaot_svdf_add_wrap(acc, (int32_t)time[i] * v);
    }
    row[last] = (int16_t)newest;
    return tinyaot_svdf_add_wrap(acc, (int32_t)time[last] * newest);
}

/*
 * dot[k] = offset_sums[k] + feature row k . input for n (4, or 1) rows from w, where
 * offset_sums[k] is input_offset times the row's sum (the lowering's table): row k .
 * (input + input_offset). Each input value loaded serves all n. Always inlined, so
 * each n gets its own loop.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_svdf_dots(const int8_t *in, const int8_t *w, int32_t input_size,
                                                    const int32_t *offset_sums, int32_t n, int32_t dot[4])
{
    int32_t d0 = offset_sums[0], d1 = 0, d2 = 0, d3 = 0;
    int32_t i;
    if (n == 4) {
        d1 = offset_sums[1];
        d2 = offset_sums[2];
        d3 = offset_sums[3];
    }
    for (i = 0; i < input_size; i++) {
        const int32_t x = in[i];
        d0 += (int32_t)w[i] * x;
        if (n == 4) {
            d1 += (int32_t)w[input_size + i] * x;
            d2 += (int32_t)w[2 * input_size + i] * x;
            d3 += (int32_t)w[3 * input_size + i] * x;
        }
    }
    dot[0] = d0;
    if (n == 4) {
        dot[1] = d1;
        dot[2] = d2;
        dot[3] = d3;
    }
}

/*
 * feature_weights: [num_units * rank][input_size]; time_weights:
 * [num_units * rank][memory_size]; bias: [num_units] or NULL;
 * state: [batches][num_units * rank][memory_size], kept between calls;
 * offset_sums: [num_units * rank], input_offset times each feature row's sum
 * (folded by the lowering, so the dot products' loop leaves the offset out).
 * Filters in order; each unit's output is written after its rank filters.
 */
static void tinyaot_svdf_s8(const struct tinyaot_svdf_params *p, const int8_t *input,
                            const int8_t *feature_weights, const int16_t *time_weights,
                            const int32_t *bias, int16_t *state, int8_t *output, const int32_t *offset_sums)
{
    const int32_t num_filters = p->num_units * p->rank;
    const int32_t blocked_end = num_filters - num_filters % 4;
    const int32_t input_size = p->input_size;
    /* The outputs' rescale folded where the core and the scales allow (tinyaot_tensor_requant_of). */
    struct tinyaot_tensor_requant out_q;
    const int32_t folded = tinyaot_tensor_requant_of(&out_q, p->multiplier_2, p->shift_2, p->output_offset, INT8_MIN,
                                                     INT8_MAX);
    int32_t b, f, r, u;
    for (b = 0; b < p->batches; b++) {
        const int8_t *in = input + b * input_size;
        int16_t *rows = state + b * num_filters * p->memory_size;
        int32_t acc = 0;
        int32_t dot[4];
        r = 0;
        u = 0;
        for (f = 0; f < num_filters; f++) {
            const int8_t *w = feature_weights + f * input_size;
            /* Feature dot products four filters at a time, the last num_filters % 4 one at a time. */
            if (f < blocked_end && (f & 3) == 0) {
                tinyaot_svdf_dots(in, w, input_size, offset_sums + f, 4, dot);
            } else if (f >= blocked_end) {
                tinyaot_svdf_dots(in, w, input_size, offset_sums + f, 1, dot + (f & 3));
            }
            if (r == 0) {
                acc = bias != NULL ? bias[u] : 0;
            }
            acc = tinyaot_svdf_add_wrap(acc, tinyaot_svdf_filter(p, dot[f & 3], time_weights + f * p->memory_size,
                                                                 rows + f * p->memory_size));
            if (++r == p->rank) {
                if (folded) {
                    output[b * p->num_units + u] = tinyaot_tensor_requantize_s8(&out_q, acc);
                } else {
                    acc = tinyaot_requantize(acc, p->multiplier_2, p->shift_2) + p->output_offset;
                    output[b * p->num_units + u] = (int8_t)tinyaot_clamp_i32(acc, INT8_MIN, INT8_MAX);
                }
                r = 0;
                u++;
            }
        }
    }
}

#endif /* TINYAOT_SVDF_S8_H */
