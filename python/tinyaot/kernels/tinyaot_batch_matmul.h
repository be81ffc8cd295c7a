/*
 * tinyaot_batch_matmul.h - the parameters of BATCH_MATMUL, shared by the int8,
 * int16 and float32 kernels (float32 reads the shape fields only).
 */
#ifndef TINYAOT_BATCH_MATMUL_H
#define TINYAOT_BATCH_MATMUL_H

#include "tinyaot_common.h"

struct tinyaot_batch_matmul_params {
    int32_t batches;            /* output matrices */
    int32_t rows;               /* output rows (lhs rows) */
    int32_t cols;               /* output columns (rhs columns) */
    int32_t depth;              /* the summed dimension */
    int32_t lhs_row_stride;     /* lhs values one output row moves */
    int32_t lhs_depth_stride;   /* lhs values one depth step moves */
    int32_t rhs_depth_stride;
    int32_t rhs_col_stride;
    int32_t lhs_offset;         /* -lhs zero point (int16: 0) */
    int32_t rhs_offset;         /* -rhs zero point (int16: 0) */
    int32_t output_offset;      /* output zero point (int16: 0) */
    int32_t multiplier;
    int32_t shift;
};

#endif /* TINYAOT_BATCH_MATMUL_H */
