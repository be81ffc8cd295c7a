/*
 * tinyaot_batch_matmul_f32.h - float32 BATCH_MATMUL: out[b] = lhs[b] x rhs[b].
 *
 * Matches TFLM's batch_matmul.cc with reference_ops::BatchMatMul<float>: each
 * output value sums lhs x rhs products from 0.0f in depth order (TFLM's
 * transposes only change where the operands are read from, and a product does
 * not depend on the order of its factors), no fused activation. adj_x/adj_y
 * are strides here, and the batch broadcast is a table of each output
 * matrix's operands. Identical to TFLM where the compiler does not fuse a
 * multiply and an add (Cortex-M0/M3 soft-float never fuses).
 */
#ifndef TINYAOT_BATCH_MATMUL_F32_H
#define TINYAOT_BATCH_MATMUL_F32_H

#include "tinyaot_batch_matmul.h"  /* the parameters: float32 reads the shape fields only */

/* batch_offsets: per output matrix, where its lhs and its rhs matrix start. */
static void tinyaot_batch_matmul_f32(const struct tinyaot_batch_matmul_params *p, const int32_t *batch_offsets,
                                     const float *lhs, const float *rhs, float *output)
{
    int32_t b, i, j, k;
    for (b = 0; b < p->batches; b++) {
        const float *a = lhs + batch_offsets[2 * b];
        const float *c = rhs + batch_offsets[2 * b + 1];
        for (i = 0; i < p->rows; i++) {
            for (j = 0; j < p->cols; j++) {
                const float *x = a + i * p->lhs_row_stride;
                const float *y = c + j * p->rhs_col_stride;
                float total = 0.0f;
                for (k = 0; k < p->depth; k++) {
                    total += *x * *y;
                    x += p->lhs_depth_stride;
                    y += p->rhs_depth_stride;
                }
                *output++ = total;
            }
        }
    }
}

#endif /* TINYAOT_BATCH_MATMUL_F32_H */
