/*
 * tinyaot_resize_nearest.h - RESIZE_NEAREST_NEIGHBOR of an NHWC tensor, any dtype.
 *
 * Matches TFLM's reference_ops::ResizeNearestNeighbor: each output pixel
 * copies the depth values of one input pixel. Which one is worked out at
 * compile time (GetNearestNeighbor's float arithmetic, with align_corners and
 * half_pixel_centers), so the kernel reads two tables of byte offsets: the
 * input row of each output row and the input column of each output column.
 */
#ifndef TINYAOT_RESIZE_NEAREST_H
#define TINYAOT_RESIZE_NEAREST_H

#include <stdint.h>

struct tinyaot_resize_nearest_params {
    int32_t batches;
    int32_t output_height;
    int32_t output_width;
    int32_t pixel_bytes;        /* depth x element size */
    int32_t input_batch_bytes;  /* input height x width x pixel_bytes */
};

static void tinyaot_resize_nearest(const struct tinyaot_resize_nearest_params *p, const int32_t *row_offsets,
                                   const int32_t *column_offsets, const void *input, void *output)
{
    const uint8_t *batch = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t b, y, x, k;
    for (b = 0; b < p->batches; b++) {
        for (y = 0; y < p->output_height; y++) {
            const uint8_t *row = batch + row_offsets[y];
            for (x = 0; x < p->output_width; x++) {
                const uint8_t *pixel = row + column_offsets[x];
                for (k = 0; k < p->pixel_bytes; k++) {
                    out[k] = pixel[k];
                }
                out += p->pixel_bytes;
            }
        }
        batch += p->input_batch_bytes;
    }
}

#endif /* TINYAOT_RESIZE_NEAREST_H */
