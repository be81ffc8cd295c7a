/*
 * tinyaot_pad.h - constant padding (PAD, PADV2) of int8, int16, int32 and float32.
 *
 * Matches TFLM's reference_ops::Pad, which only moves values: the output is
 * the input surrounded by the pad value. Done here in one forward walk over
 * the output's bytes, padding up to each input row's place and copying the
 * row, so that each output byte is written after the input bytes before it
 * have been read: the output may start below the input and grow over it (the
 * planner counts on this order, see ops/overlap.py). Unpadded dimensions are
 * merged at compile time, so dims[] (the input's) has few entries and rows
 * are long.
 */
#ifndef TINYAOT_PAD_H
#define TINYAOT_PAD_H

#include <stdint.h>

#define TINYAOT_PAD_MAX_DIMS 5

struct tinyaot_pad_params {
    int32_t rank;         /* entries in dims/strides, 1..TINYAOT_PAD_MAX_DIMS */
    int32_t input_size;   /* input values */
    int32_t output_size;  /* output values */
    int32_t first;        /* output index of the first input value */
    int32_t value_bytes;  /* bytes per value: 1 (int8), 2 (int16), 4 (int32, float32) */
};

/* dims: input dimensions; strides: output strides of those dimensions;
 * pad_value: one value of the tensors' dtype. */
static void tinyaot_pad(const struct tinyaot_pad_params *p, const int32_t *dims, const int32_t *strides,
                        const void *pad_value, const void *input, void *output)
{
    int32_t index[TINYAOT_PAD_MAX_DIMS] = {0};
    const uint8_t *value = (const uint8_t *)pad_value;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    const int32_t size = p->value_bytes;  /* 1, 2 or 4: a mask picks the byte, no division */
    const int32_t inner = dims[p->rank - 1] * size;
    int32_t o = p->first * size, done = 0, n, i, d;
    for (n = 0; n < p->input_size * size; n += inner) {
        /* Rows come in increasing output order: pad up to this one, then copy it. */
        for (; done < o; done++) {
            out[done] = value[done & (size - 1)];
        }
        for (i = 0; i < inner; i++) {
            out[o + i] = in[n + i];
        }
        done = o + inner;
        /* Next input row: count up the outer dimensions like an odometer. */
        for (d = p->rank - 2; d >= 0; d--) {
            o += strides[d] * size;
            if (++index[d] < dims[d]) {
                break;
            }
            o -= strides[d] * dims[d] * size;
            index[d] = 0;
        }
    }
    for (; done < p->output_size * size; done++) {
        out[done] = value[done & (size - 1)];
    }
}

#endif /* TINYAOT_PAD_H */
