/*
 * tinyaot_dynamic_update_slice.h - DYNAMIC_UPDATE_SLICE: the operand copied to
 * the output, then the update written over it at start indices read at run
 * time, each clamped to [0, operand dim - update dim] as TFLM's
 * dynamic_update_slice.cc clamps them (so no index is out of range).
 *
 * Values are moved as bytes (element_size each), so one kernel serves every
 * dtype. The update's rows along the last dimension are contiguous in both.
 */
#ifndef TINYAOT_DYNAMIC_UPDATE_SLICE_H
#define TINYAOT_DYNAMIC_UPDATE_SLICE_H

#include <stdint.h>

#include "tinyaot_common.h"

#define TINYAOT_DUS_MAX_DIMS 6

struct tinyaot_dynamic_update_slice_params {
    int32_t rank;           /* 1..TINYAOT_DUS_MAX_DIMS */
    int32_t element_size;   /* bytes per value */
    int32_t operand_bytes;  /* the whole operand (and output) */
    int32_t update_rows;    /* update values / its last dimension */
    int32_t indices_int64;  /* 1: the start indices are int64_t, 0: int32_t */
};

static void tinyaot_dynamic_update_slice(const struct tinyaot_dynamic_update_slice_params *p,
                                         const int32_t *operand_dims, const int32_t *update_dims,
                                         const int32_t *operand_strides, const void *operand,
                                         const void *update, const void *start_indices, void *output)
{
    int32_t index[TINYAOT_DUS_MAX_DIMS] = {0};
    int32_t origin = 0, d, r, b;
    const int32_t row_bytes = update_dims[p->rank - 1] * p->element_size;
    const uint8_t *from = (const uint8_t *)update;
    uint8_t *out = (uint8_t *)output;
    if ((const void *)output != operand) {
        for (b = 0; b < p->operand_bytes; b++) {
            out[b] = ((const uint8_t *)operand)[b];
        }
    }
    for (d = 0; d < p->rank; d++) {
        const int64_t raw = p->indices_int64 ? tinyaot_load_i64(start_indices, d)
                                             : ((const int32_t *)start_indices)[d];
        const int64_t last = operand_dims[d] - update_dims[d];
        origin += (int32_t)(raw < 0 ? 0 : raw > last ? last : raw) * operand_strides[d];
    }
    for (r = 0; r < p->update_rows; r++) {
        int32_t at = origin;
        for (d = 0; d < p->rank - 1; d++) {
            at += index[d] * operand_strides[d];
        }
        for (b = 0; b < row_bytes; b++) {
            out[at * p->element_size + b] = from[b];
        }
        from += row_bytes;
        for (d = p->rank - 2; d >= 0 && ++index[d] == update_dims[d]; d--) {
            index[d] = 0;
        }
    }
}

#endif /* TINYAOT_DYNAMIC_UPDATE_SLICE_H */
