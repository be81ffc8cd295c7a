/*
 * tinyaot_concat.h - one input's share of a concatenation.
 *
 * Matches TFLM's reference_ops::Concatenation, which copies bytes: seen from
 * the concatenation axis, every input is `rows` rows of row_bytes, and each
 * output row holds one row of every input side by side. One call per input
 * copies its rows to output_offset within each output row. Values are not
 * rescaled (TFLM requires equal int8 quantization), so any dtype works.
 */
#ifndef TINYAOT_CONCAT_H
#define TINYAOT_CONCAT_H

#include <stdint.h>

struct tinyaot_concat_params {
    int32_t rows;              /* product of the dimensions before the axis */
    int32_t row_bytes;         /* this input: axis length x inner size x element size */
    int32_t output_row_bytes;  /* the output's row: all inputs' row_bytes */
    int32_t output_offset;     /* where this input's part starts in an output row */
};

static void tinyaot_concat(const struct tinyaot_concat_params *p, const void *input, void *output)
{
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output + p->output_offset;
    int32_t r, i;
    for (r = 0; r < p->rows; r++) {
        for (i = 0; i < p->row_bytes; i++) {
            out[i] = in[i];
        }
        in += p->row_bytes;
        out += p->output_row_bytes;
    }
}

#endif /* TINYAOT_CONCAT_H */
