/*
 * tinyaot_batch_matmul_s8.h - int8 BATCH_MATMUL: out[b] = lhs[b] x rhs[b].
 *
 * Matches TFLM's batch_matmul.cc with reference_ops::BatchMatMul for int8:
 * int32 sums of (lhs - lhs zero point) x (rhs - rhs zero point), rescaled
 * once to the output (no fused activation). Integer sums do not depend on
 * the order TFLM's transposes put the terms in, so adj_x/adj_y are strides
 * here, and the batch broadcast is a table of each output matrix's operands.
 */
#ifndef TINYAOT_BATCH_MATMUL_S8_H
#define TINYAOT_BATCH_MATMUL_S8_H

#include "tinyaot_batch_matmul.h"

/* batch_offsets: per output matrix, where its lhs and its rhs matrix start. */
static void tinyaot_batch_matmul_s8(const struct tinyaot_batch_matmul_params *p, const int32_t *batch_offsets,
                                    const int8_t *lhs, const int8_t *rhs, int8_t *output)
{
    int32_t b, i, j, k;
    for (b = 0; b < p->batches; b++) {
        const int8_t *a = lhs + batch_offsets[2 * b];
        const int8_t *c = rhs + batch_offsets[2 * b + 1];
        for (i = 0; i < p->rows; i++) {
            for (j = 0; j < p->cols; j++) {
                const int8_t *x = a + i * p->lhs_row_stride;
                const int8_t *y = c + j * p->rhs_col_stride;
                int32_t acc = 0;
                for (k = 0; k < p->depth; k++) {
                    acc += ((int32_t)*x + p->lhs_offset) * ((int32_t)*y + p->rhs_offset);
                    x += p->lhs_depth_stride;
                    y += p->rhs_depth_stride;
                }
                *output++ = tinyaot_requantize_s8(acc, p->multiplier, p->shift, p->output_offset, -128, 127);
            }
        }
    }
}

#endif /* TINYAOT_BATCH_MATMUL_S8_H */
