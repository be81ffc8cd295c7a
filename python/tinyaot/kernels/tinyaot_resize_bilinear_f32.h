/*
 * tinyaot_resize_bilinear_f32.h - float32 RESIZE_BILINEAR of an NHWC tensor.
 *
 * Matches TFLM's reference_ops::ResizeBilinear<float>: each output value is
 *   in(y0,x0) * (1-dy) * (1-dx) + in(y1,x0) * dy * (1-dx)
 *   + in(y0,x1) * (1-dy) * dx + in(y1,x1) * dy * dx + 0.0f
 * multiplied and added left to right as TFLM writes it (the + 0.0f is its
 * rounding offset for floats, which turns -0 into +0). The neighbours and the
 * weights dy, 1-dy (dx, 1-dx) of each output row (column) are tables the
 * generator computes in float32 as ComputeInterpolationValues does.
 */
#ifndef TINYAOT_RESIZE_BILINEAR_F32_H
#define TINYAOT_RESIZE_BILINEAR_F32_H

#include "tinyaot_resize_bilinear.h"

/*
 * rows: per output row, the offsets of input rows y0 and y1 (2 values);
 * row_weights: per output row, 1 - dy and dy; columns and column_weights: the
 * same for x0, x1 within a row.
 */
static void tinyaot_resize_bilinear_f32(const struct tinyaot_resize_bilinear_params *p, const int32_t *rows,
                                        const float *row_weights, const int32_t *columns,
                                        const float *column_weights, const float *input, float *output)
{
    const float *batch = input;
    int32_t b, y, x, c;
    for (b = 0; b < p->batches; b++) {
        for (y = 0; y < p->output_height; y++) {
            const float *row0 = batch + rows[2 * y];
            const float *row1 = batch + rows[2 * y + 1];
            const float wy0 = row_weights[2 * y], wy1 = row_weights[2 * y + 1];
            for (x = 0; x < p->output_width; x++) {
                const int32_t x0 = columns[2 * x], x1 = columns[2 * x + 1];
                const float wx0 = column_weights[2 * x], wx1 = column_weights[2 * x + 1];
                for (c = 0; c < p->depth; c++) {
                    *output++ = row0[x0 + c] * wy0 * wx0 + row1[x0 + c] * wy1 * wx0 +
                                row0[x1 + c] * wy0 * wx1 + row1[x1 + c] * wy1 * wx1 + 0.0f;
                }
            }
        }
        batch += p->input_batch_size;
    }
}

#endif /* TINYAOT_RESIZE_BILINEAR_F32_H */
