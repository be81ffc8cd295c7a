/*
 * tinyaot_arg_min_max.h - ARG_MAX and ARG_MIN of int8 or float32 along one
 * axis, int32 indices out.
 *
 * Matches TFLM's reference_ops::ArgMinMax with GreaterFn / LessFn: a value
 * replaces the best so far only if strictly greater (smaller), so ties give
 * the first index. The input is [outer, axis_size, inner].
 */
#ifndef TINYAOT_ARG_MIN_MAX_H
#define TINYAOT_ARG_MIN_MAX_H

#include "tinyaot.h"

struct tinyaot_arg_min_max_params {
    int32_t outer;      /* product of the dimensions before the axis */
    int32_t axis_size;
    int32_t inner;      /* product of the dimensions after the axis */
    int32_t dtype;      /* TINYAOT_INT8 or TINYAOT_FLOAT32 */
    int32_t maximum;    /* 1: ARG_MAX, 0: ARG_MIN */
};

/* Whether input value i replaces input value best. */
static inline int tinyaot_arg_replaces(const struct tinyaot_arg_min_max_params *p, const void *input,
                                       int32_t i, int32_t best)
{
    if (p->dtype == TINYAOT_INT8) {
        const int8_t a = ((const int8_t *)input)[i], b = ((const int8_t *)input)[best];
        return p->maximum ? a > b : a < b;
    } else {
        const float a = ((const float *)input)[i], b = ((const float *)input)[best];
        return p->maximum ? a > b : a < b;
    }
}

static void tinyaot_arg_min_max(const struct tinyaot_arg_min_max_params *p, const void *input, int32_t *output)
{
    int32_t o, j, i;
    for (o = 0; o < p->outer; o++) {
        for (j = 0; j < p->inner; j++) {
            const int32_t first = o * p->axis_size * p->inner + j;
            int32_t best = 0;
            for (i = 1; i < p->axis_size; i++) {
                if (tinyaot_arg_replaces(p, input, first + i * p->inner, first + best * p->inner)) {
                    best = i;
                }
            }
            output[o * p->inner + j] = best;
        }
    }
}

#endif /* TINYAOT_ARG_MIN_MAX_H */
