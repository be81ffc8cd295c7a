/*
 * tinyaot_resize_bilinear_s8.h - int8 RESIZE_BILINEAR of an NHWC tensor.
 *
 * Matches TFLM's reference_ops::ResizeBilinearInteger: positions in 1/1024
 * steps, four neighbours weighted in Q10 x Q10, rounded half away from zero
 * to the input's quantization. The two neighbours and the weight of each
 * output row and column are tables made at compile time (ComputeInterpolation-
 * ValuesInteger). |value| x (|1024 - w| + |w|)^2 < 2^30, so 32 bits suffice.
 */
#ifndef TINYAOT_RESIZE_BILINEAR_S8_H
#define TINYAOT_RESIZE_BILINEAR_S8_H

#include "tinyaot_resize_bilinear.h"

/*
 * rows: per output row, the offsets of input rows y0 and y1 and the weight of
 * y1 in 1/1024 (3 values); columns: the same for x0, x1 within a row.
 */
static void tinyaot_resize_bilinear_s8(const struct tinyaot_resize_bilinear_params *p, const int32_t *rows,
                                       const int32_t *columns, const int8_t *input, int8_t *output)
{
    const int8_t *batch = input;
    int32_t b, y, x, c;
    for (b = 0; b < p->batches; b++) {
        for (y = 0; y < p->output_height; y++) {
            const int8_t *row0 = batch + rows[3 * y];
            const int8_t *row1 = batch + rows[3 * y + 1];
            const int32_t wy1 = rows[3 * y + 2], wy0 = 1024 - wy1;
            for (x = 0; x < p->output_width; x++) {
                const int32_t x0 = columns[3 * x], x1 = columns[3 * x + 1];
                const int32_t wx1 = columns[3 * x + 2], wx0 = 1024 - wx1;
                for (c = 0; c < p->depth; c++) {
                    const int32_t sum = row0[x0 + c] * wy0 * wx0 + row1[x0 + c] * wy1 * wx0 +
                                        row0[x1 + c] * wy0 * wx1 + row1[x1 + c] * wy1 * wx1;
                    const int32_t round = sum > 0 ? (1 << 19) : -(1 << 19);
                    *output++ = (int8_t)((sum + round) / (1 << 20));
                }
            }
        }
        batch += p->input_batch_size;
    }
}

#endif /* TINYAOT_RESIZE_BILINEAR_S8_H */
