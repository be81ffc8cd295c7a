/*
 * tinyaot_strided_copy.h - copies values from anywhere in the input into a
 * contiguous output: TRANSPOSE, SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK,
 * SPACE_TO_DEPTH and DEPTH_TO_SPACE are all this copy with other tables.
 *
 * The lowering (ops/strided_copy.py) describes the output as dims[] (merged
 * where possible) and, per dimension, how many input values one step moves
 * (strides[], negative for a reversed slice); the first output value is
 * input value `start`. TFLM's reference kernels copy values the same way, so
 * the result is the same bytes for any dtype; values are moved as unsigned
 * integers of element_bytes, never as floats.
 */
#ifndef TINYAOT_STRIDED_COPY_H
#define TINYAOT_STRIDED_COPY_H

#include <string.h>

#include "tinyaot_broadcast.h"

struct tinyaot_strided_copy_params {
    int32_t size;           /* output values */
    int32_t rank;           /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t element_bytes;  /* 1, 2, 4 or 8 */
    int32_t start;          /* input value of the first output value */
};

static void tinyaot_strided_copy(const struct tinyaot_strided_copy_params *p, const int32_t *dims,
                                 const int32_t *strides, const void *input, void *output)
{
    /* The broadcast walk with one table: its second offset is not used. */
    struct tinyaot_broadcast walk;
    const int32_t inner = dims[p->rank - 1];
    const int32_t step = strides[p->rank - 1];
    int32_t n, k;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        const int32_t first = p->start + walk.offset1;
        for (k = 0; k < inner; k++) {
            const int32_t from = first + k * step;
            switch (p->element_bytes) {
            case 1: ((uint8_t *)output)[n + k] = ((const uint8_t *)input)[from]; break;
            case 2: ((uint16_t *)output)[n + k] = ((const uint16_t *)input)[from]; break;
            /* memcpy: an int64 table in a weights blob is 4-byte aligned only */
            case 8: memcpy((uint8_t *)output + 8 * (n + k), (const uint8_t *)input + 8 * from, 8); break;
            default: ((uint32_t *)output)[n + k] = ((const uint32_t *)input)[from]; break;
            }
        }
        tinyaot_broadcast_next_row(&walk, p->rank, dims, strides, strides);
    }
}

#endif /* TINYAOT_STRIDED_COPY_H */
