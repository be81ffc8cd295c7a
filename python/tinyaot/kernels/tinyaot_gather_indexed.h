/*
 * tinyaot_gather_indexed.h - GATHER, GATHER_ND and EMBEDDING_LOOKUP with int32
 * indices read at run time (tinyaot_gather.h: constant ones), checked as TFLM's
 * gather.cc, gather_nd.cc and embedding_lookup.cc check them.
 *
 * Per batch, outer row and index tuple (depth values), the tuple's position
 * pos = sum of index[d] x counts[d], in units of unit_bytes, must satisfy
 * 0 <= pos, pos + span <= limit (GATHER, EMBEDDING_LOOKUP: one index in
 * 0..limit-1; GATHER_ND: the flat position, its slice included); row_bytes are
 * then copied from unit (batch x outer + o) x block + pos of the input.
 * Returns TINYAOT_ERROR_INDEX_OUT_OF_RANGE at the first index out of range (the
 * rows before it written, as TFLM's Eval), else TINYAOT_OK.
 */
#ifndef TINYAOT_GATHER_INDEXED_H
#define TINYAOT_GATHER_INDEXED_H

#include <stdint.h>

#include "tinyaot.h"

struct tinyaot_gather_indexed_params {
    int32_t batches, outer, tuples, depth;
    int32_t block;  /* units from one outer row to the next (GATHER: the axis' size) */
    int32_t span, limit;
    int32_t unit_bytes;
    int32_t row_bytes;
};

static int32_t tinyaot_gather_indexed(const struct tinyaot_gather_indexed_params *p, const int32_t *counts,
                                      const void *input, const int32_t *indices, void *output)
{
    uint8_t *out = (uint8_t *)output;
    int32_t b, o, t, d, k;
    for (b = 0; b < p->batches; b++) {
        for (o = 0; o < p->outer; o++) {
            const int32_t *tuple = indices + b * p->tuples * p->depth;
            const uint8_t *base = (const uint8_t *)input + (b * p->outer + o) * p->block * p->unit_bytes;
            for (t = 0; t < p->tuples; t++, tuple += p->depth) {
                int64_t pos = 0;  /* TFLM sums in int; 64 bits here, so huge indices cannot wrap into range */
                const uint8_t *row;
                for (d = 0; d < p->depth; d++) {
                    pos += (int64_t)tuple[d] * counts[d];
                }
                if (pos < 0 || pos + p->span > p->limit) {
                    return TINYAOT_ERROR_INDEX_OUT_OF_RANGE;
                }
                row = base + (int32_t)pos * p->unit_bytes;
                for (k = 0; k < p->row_bytes; k++) {
                    out[k] = row[k];
                }
                out += p->row_bytes;
            }
        }
    }
    return TINYAOT_OK;
}

#endif /* TINYAOT_GATHER_INDEXED_H */
