/*
 * tinyaot_fully_connected_s8_params.h - what the int8 fully connected kernels
 * share: tinyaot_fully_connected_s8.h and the band-fused one, tinyaot_band_fc_s8.h.
 */
#ifndef TINYAOT_FULLY_CONNECTED_S8_PARAMS_H
#define TINYAOT_FULLY_CONNECTED_S8_PARAMS_H

#include "tinyaot_common.h"

struct tinyaot_fully_connected_params {
    int32_t batches;
    int32_t accum_depth;      /* input values per batch */
    int32_t output_depth;
    int32_t input_offset;     /* -input zero point */
    int32_t filter_offset;    /* -filter zero point */
    int32_t output_offset;    /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;      /* 1: multiplier/shift per output channel, 0: one for all */
    /* tinyaot_fully_connected_s8: four rows' sums, specialised to accum_depth by the generated
       code (TINYAOT_FULLY_CONNECTED_ROWS4(depth)); NULL: rows two at a time. */
    void (*rows4)(const int8_t *in, const int8_t *w, int32_t acc[4]);
};

/*
 * tinyaot_requantize_s8 for the tables, out of line where the per-tensor fold serves
 * the usual case (long multiply): its three inline copies cost hello_world's
 * firmware on qemu_cortex_m3 248 bytes of flash. Without a long multiply the call is
 * inside already (tinyaot_requantize_output).
 */
#if TINYAOT_LONG_MULTIPLY
static TINYAOT_NOINLINE int8_t
#else
static TINYAOT_ALWAYS_INLINE int8_t
#endif
tinyaot_fully_connected_requantize_s8(int32_t acc, int32_t multiplier, int32_t shift, int32_t output_offset,
                                      int32_t act_min, int32_t act_max)
{
    return tinyaot_requantize_s8(acc, multiplier, shift, output_offset, act_min, act_max);
}

/* The per-tensor fold (tinyaot_tensor_requant_of) in *tensor where it applies, else NULL:
   the kernels' rows take the multiplier and shift tables then. */
static inline const struct tinyaot_tensor_requant *tinyaot_fully_connected_tensor_fold(
    const struct tinyaot_fully_connected_params *p, const int32_t *multiplier, const int32_t *shift,
    struct tinyaot_tensor_requant *tensor)
{
    const int32_t folded = !p->per_channel && tinyaot_tensor_requant_of(tensor, multiplier[0], shift[0],
                                                                        p->output_offset, p->act_min, p->act_max);
    return folded ? tensor : NULL;
}

/* Per output, the dot product of the input row with one weights row. */
static inline int32_t tinyaot_fully_connected_dot(const int8_t *in, const int8_t *w, int32_t depth)
{
    int32_t acc = 0;
    int32_t d;
    for (d = 0; d < depth; d++) {
        acc += (int32_t)w[d] * (int32_t)in[d];
    }
    return acc;
}

/*
 * filter_offset * sum(x) over count inputs: the filter zero point's share of every
 * output's sum (0 with symmetric weights, the usual case, without reading the input).
 */
static inline int32_t tinyaot_fully_connected_input_sum(const struct tinyaot_fully_connected_params *p,
                                                        const int8_t *in, int32_t count)
{
    int32_t sum = 0;
    int32_t d;
    if (p->filter_offset == 0) {
        return 0;
    }
    for (d = 0; d < count; d++) {
        sum += in[d];
    }
    return sum * p->filter_offset;
}

/* Two outputs' dot products with one input row, added to *acc0 and *acc1: each input
   value loaded serves both. */
static TINYAOT_ALWAYS_INLINE void tinyaot_fully_connected_dot2(const int8_t *in, const int8_t *w0, const int8_t *w1,
                                                               int32_t count, int32_t *acc0, int32_t *acc1)
{
    int32_t a0 = *acc0, a1 = *acc1;
    int32_t d;
    for (d = 0; d < count; d++) {
        const int32_t x = in[d];
        a0 += (int32_t)w0[d] * x;
        a1 += (int32_t)w1[d] * x;
    }
    *acc0 = a0;
    *acc1 = a1;
}

/*
 * The same, indexed from the rows' ends counting up to 0: the count needs no
 * register of its own, which Armv6-M's eight low registers are short of (the
 * loop 12 -> 10 instructions per input value there). Elsewhere, and in the
 * band-fused kernel's short slices, the plain loop above is faster.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_fully_connected_dot2_from_end(const int8_t *in, const int8_t *w0,
                                                                        const int8_t *w1, int32_t count,
                                                                        int32_t *acc0, int32_t *acc1)
{
    const int8_t *const in_end = in + count, *const w0_end = w0 + count, *const w1_end = w1 + count;
    int32_t a0 = *acc0, a1 = *acc1;
    int32_t d;
    for (d = -count; d < 0; d++) {
        const int32_t x = in_end[d];
        a0 += (int32_t)w0_end[d] * x;
        a1 += (int32_t)w1_end[d] * x;
    }
    *acc0 = a0;
    *acc1 = a1;
}

#endif /* TINYAOT_FULLY_CONNECTED_S8_PARAMS_H */
