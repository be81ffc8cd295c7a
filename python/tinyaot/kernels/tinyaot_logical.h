/*
 * tinyaot_logical.h - LOGICAL_AND and LOGICAL_OR with broadcasting, and
 * LOGICAL_NOT, over bool tensors (uint8_t: nonzero is true; outputs 0 or 1).
 *
 * TFLM's logical.cc (BroadcastBinaryFunction4DSlow of a && b, a || b) and
 * elementwise.cc's LogicalNot (!a). The broadcast is walked as
 * tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_LOGICAL_H
#define TINYAOT_LOGICAL_H

#include "tinyaot_broadcast.h"

struct tinyaot_logical_params {
    int32_t size;  /* output values */
    int32_t rank;  /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t any;   /* 1: LOGICAL_OR, 0: LOGICAL_AND */
};

static void tinyaot_logical(const struct tinyaot_logical_params *p, const int32_t *dims, const int32_t *strides1,
                            const int32_t *strides2, const uint8_t *input1, const uint8_t *input2, uint8_t *output)
{
    struct tinyaot_broadcast walk;
    const int32_t inner = dims[p->rank - 1];
    const int32_t s1 = strides1[p->rank - 1];
    const int32_t s2 = strides2[p->rank - 1];
    int32_t n, k;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        for (k = 0; k < inner; k++) {
            const int32_t a = input1[walk.offset1 + k * s1] != 0;
            const int32_t b = input2[walk.offset2 + k * s2] != 0;
            output[n + k] = (uint8_t)(p->any ? (a || b) : (a && b));
        }
        tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
    }
}

static void tinyaot_logical_not(int32_t size, const uint8_t *input, uint8_t *output)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (uint8_t)(input[i] == 0);
    }
}

#endif /* TINYAOT_LOGICAL_H */
