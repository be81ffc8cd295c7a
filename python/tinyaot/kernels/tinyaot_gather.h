/*
 * tinyaot_gather.h - GATHER with constant indices: output rows copied from
 * input rows listed in a table.
 *
 * Matches TFLM's Gather (gather.cc), which copies inner_size values per
 * (batch, outer, index); with the indices known at compile time, the input
 * byte offset of each output row is a table and the kernel only copies bytes.
 */
#ifndef TINYAOT_GATHER_H
#define TINYAOT_GATHER_H

#include <stdint.h>

struct tinyaot_gather_params {
    int32_t rows;       /* batch x outer x indices */
    int32_t row_bytes;  /* inner size x element size */
};

static void tinyaot_gather(const struct tinyaot_gather_params *p, const int32_t *row_offsets, const void *input,
                           void *output)
{
    uint8_t *out = (uint8_t *)output;
    int32_t r, k;
    for (r = 0; r < p->rows; r++) {
        const uint8_t *row = (const uint8_t *)input + row_offsets[r];
        for (k = 0; k < p->row_bytes; k++) {
            out[k] = row[k];
        }
        out += p->row_bytes;
    }
}

#endif /* TINYAOT_GATHER_H */
