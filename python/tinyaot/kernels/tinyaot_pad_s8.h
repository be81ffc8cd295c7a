/*
 * tinyaot_pad_s8.h - int8 constant padding (PAD, PADV2).
 *
 * Matches TFLM's reference_ops::Pad: the output is the input surrounded by
 * pad_value. Done here in one forward walk over the output, padding up to each
 * input row's place and copying the row, so that each output byte is written
 * after the input bytes before it have been read: the output may start below
 * the input and grow over it (the planner counts on this order, see
 * ops/overlap.py). Unpadded dimensions are merged at compile time, so dims[]
 * (the input's) has few entries and rows are long.
 */
#ifndef TINYAOT_PAD_S8_H
#define TINYAOT_PAD_S8_H

#include <stdint.h>

#define TINYAOT_PAD_MAX_DIMS 5

struct tinyaot_pad_s8_params {
    int32_t rank;         /* entries in dims/strides, 1..TINYAOT_PAD_MAX_DIMS */
    int32_t input_size;   /* input values */
    int32_t output_size;  /* output values */
    int32_t first;        /* output index of the first input value */
    int32_t pad_value;    /* output zero point (PAD) or the given value (PADV2) */
};

/* dims: input dimensions; strides: output strides of those dimensions. */
static void tinyaot_pad_s8(const struct tinyaot_pad_s8_params *p, const int32_t *dims,
                           const int32_t *strides, const int8_t *input, int8_t *output)
{
    int32_t index[TINYAOT_PAD_MAX_DIMS] = {0};
    const int32_t inner = dims[p->rank - 1];
    const int8_t pad_value = (int8_t)p->pad_value;
    int32_t o = p->first, done = 0, n, i, d;
    for (n = 0; n < p->input_size; n += inner) {
        /* Rows come in increasing output order: pad up to this one, then copy it. */
        for (; done < o; done++) {
            output[done] = pad_value;
        }
        for (i = 0; i < inner; i++) {
            output[o + i] = input[n + i];
        }
        done = o + inner;
        /* Next input row: count up the outer dimensions like an odometer. */
        for (d = p->rank - 2; d >= 0; d--) {
            o += strides[d];
            if (++index[d] < dims[d]) {
                break;
            }
            o -= strides[d] * dims[d];
            index[d] = 0;
        }
    }
    for (; done < p->output_size; done++) {
        output[done] = pad_value;
    }
}

#endif /* TINYAOT_PAD_S8_H */
