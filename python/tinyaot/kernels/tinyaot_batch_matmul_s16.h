/*
 * tinyaot_batch_matmul_s16.h - int16 BATCH_MATMUL (16x8 models): int16 lhs, rhs
 * and output, zero points 0.
 *
 * Matches TFLM's batch_matmul.cc with reference_ops::BatchMatMul<int16_t,
 * int64_t>: int64 sums of lhs x rhs products (each up to 2^30, so 32 bits do
 * not hold two), the 64-bit rescale, clamped to int16 (no fused activation).
 * Strides and the batch table as in the int8 kernel.
 */
#ifndef TINYAOT_BATCH_MATMUL_S16_H
#define TINYAOT_BATCH_MATMUL_S16_H

#include "tinyaot_batch_matmul.h"
#include "tinyaot_s16.h"

static void tinyaot_batch_matmul_s16(const struct tinyaot_batch_matmul_params *p, const int32_t *batch_offsets,
                                     const int16_t *lhs, const int16_t *rhs, int16_t *output)
{
    int32_t b, i, j, k;
    for (b = 0; b < p->batches; b++) {
        const int16_t *a = lhs + batch_offsets[2 * b];
        const int16_t *c = rhs + batch_offsets[2 * b + 1];
        for (i = 0; i < p->rows; i++) {
            for (j = 0; j < p->cols; j++) {
                const int16_t *x = a + i * p->lhs_row_stride;
                const int16_t *y = c + j * p->rhs_col_stride;
                int64_t acc = 0;
                for (k = 0; k < p->depth; k++) {
                    acc += (int32_t)*x * *y;
                    x += p->lhs_depth_stride;
                    y += p->rhs_depth_stride;
                }
                *output++ = (int16_t)tinyaot_clamp_i32(tinyaot_requantize_s64(acc, p->multiplier, p->shift),
                                                       -32768, 32767);
            }
        }
    }
}

#endif /* TINYAOT_BATCH_MATMUL_S16_H */
