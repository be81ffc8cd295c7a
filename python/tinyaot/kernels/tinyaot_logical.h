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

static inline void tinyaot_logical_value(const void *params, const void *input1, const void *input2, void *output,
                                         int32_t n, int32_t i, int32_t j)
{
    const int32_t a = ((const uint8_t *)input1)[i] != 0;
    const int32_t b = ((const uint8_t *)input2)[j] != 0;
    ((uint8_t *)output)[n] = (uint8_t)(((const struct tinyaot_logical_params *)params)->any ? (a || b) : (a && b));
}

static void tinyaot_logical(const struct tinyaot_logical_params *p, const int32_t *dims, const int32_t *strides1,
                            const int32_t *strides2, const uint8_t *input1, const uint8_t *input2, uint8_t *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, strides1, strides2, input1, input2, output,
                           tinyaot_logical_value);
}

static void tinyaot_logical_not(int32_t size, const uint8_t *input, uint8_t *output)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (uint8_t)(input[i] == 0);
    }
}

#endif /* TINYAOT_LOGICAL_H */
