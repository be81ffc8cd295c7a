/*
 * tinyaot_mirror_pad.h - MIRROR_PAD, REFLECT or SYMMETRIC, any element size.
 *
 * TFLM's mirror_pad.cc: each output index, dimension by dimension, taken back
 * to the input by GetInputDimension (the same clamps, so paddings larger than
 * the mirror allows read what TFLM reads), then the element copied.
 */
#ifndef TINYAOT_MIRROR_PAD_H
#define TINYAOT_MIRROR_PAD_H

#include <stdint.h>
#include <string.h>

#define TINYAOT_MIRROR_PAD_MAX_DIMS 6

struct tinyaot_mirror_pad_params {
    int32_t rank;
    int32_t size;           /* output elements */
    int32_t offset;         /* 1: REFLECT (the edge is not repeated), 0: SYMMETRIC */
    int32_t element_bytes;
};

/* GetInputDimension: where output index i of a dimension reads in the input. */
static int32_t tinyaot_mirror_index(int32_t i, int32_t left, int32_t size, int32_t offset)
{
    int32_t original;
    if (i < left) {
        original = left + offset - 1;
        return original - (i < original - offset ? i : original - offset);
    }
    i -= left;
    if (i >= size) {
        i -= size;
        original = size - (1 + offset);
        return original - (i < original ? i : original);
    }
    return i;
}

/* dims: the output's dims, then the input's, then the left paddings (rank each). */
static void tinyaot_mirror_pad(const struct tinyaot_mirror_pad_params *p, const int32_t *dims, const void *input,
                               void *output)
{
    const int32_t *input_dims = dims + p->rank, *left = dims + 2 * p->rank;
    int32_t index[TINYAOT_MIRROR_PAD_MAX_DIMS] = {0};
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t n, d;
    for (n = 0; n < p->size; n++) {
        int32_t at = 0;
        for (d = 0; d < p->rank; d++) {
            at = at * input_dims[d] + tinyaot_mirror_index(index[d], left[d], input_dims[d], p->offset);
        }
        memcpy(out, in + at * p->element_bytes, (size_t)p->element_bytes);
        out += p->element_bytes;
        for (d = p->rank - 1; d >= 0 && ++index[d] == dims[d]; d--) {
            index[d] = 0;
        }
    }
}

#endif /* TINYAOT_MIRROR_PAD_H */
