/*
 * tinyaot_reduce.h - what the reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN) share:
 * walking the input's merged dimensions (see tinyaot_reduce_int.h for the
 * dims/strides layout).
 */
#ifndef TINYAOT_REDUCE_H
#define TINYAOT_REDUCE_H

#include <stdint.h>

#define TINYAOT_REDUCE_MAX_DIMS 6

/* Advances index over dims (last fastest); returns how far the input offset moves. */
static inline int32_t tinyaot_reduce_step(int32_t *index, const int32_t *dims,
                                        const int32_t *strides, int32_t rank)
{
    int32_t d, delta = 0;
    for (d = rank - 1; d >= 0; d--) {
        delta += strides[d];
        if (++index[d] < dims[d]) {
            return delta;
        }
        delta -= strides[d] * dims[d];
        index[d] = 0;
    }
    return delta;
}

#endif /* TINYAOT_REDUCE_H */
