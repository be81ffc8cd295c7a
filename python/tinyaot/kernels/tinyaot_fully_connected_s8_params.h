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
};

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

#endif /* TINYAOT_FULLY_CONNECTED_S8_PARAMS_H */
