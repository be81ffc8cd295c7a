/*
 * tinyaot_space_batch.h - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND (NHWC; 3-D
 * inputs as NH1C), any element size.
 *
 * TFLM's reference_ops::SpaceToBatchND and BatchToSpaceND, walked by output
 * pixel: each takes one input pixel's channels whole, or (SPACE_TO_BATCH_ND,
 * in the padding) the zero point: the value of 0.0 that TFLite's reference
 * pads with (TFLM's micro kernel never sets its pad value, the params'
 * output_offset, so it writes whatever byte its persistent buffer holds).
 * BATCH_TO_SPACE_ND's crops are padding read backwards: an output pixel sits
 * at block * input pixel + the batch's offset in the block, less the crops.
 */
#ifndef TINYAOT_SPACE_BATCH_H
#define TINYAOT_SPACE_BATCH_H

#include <stdint.h>
#include <string.h>

struct tinyaot_space_batch_params {
    int32_t input_batches, input_h, input_w;
    int32_t output_batches, output_h, output_w;
    int32_t block_h, block_w;
    int32_t pad_top, pad_left;   /* SPACE_TO_BATCH_ND: paddings; BATCH_TO_SPACE_ND: crops */
    int32_t to_batch;            /* 1: SPACE_TO_BATCH_ND, 0: BATCH_TO_SPACE_ND */
    int32_t pixel_bytes;         /* channels x element size */
    int32_t pad_byte;            /* int8: the zero point; float32: 0 (0.0f) */
};

static void tinyaot_space_batch(const struct tinyaot_space_batch_params *p, const void *input, void *output)
{
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t b, y, x;
    for (b = 0; b < p->output_batches; b++) {
        /* Which input batch this is, and where in the block its pixels sit. */
        const int32_t small = p->to_batch ? p->input_batches : p->output_batches;
        const int32_t block = p->to_batch ? b / small : 0;
        for (y = 0; y < p->output_h; y++) {
            for (x = 0; x < p->output_w; x++) {
                int32_t in_b, in_y, in_x;
                if (p->to_batch) {
                    in_b = b % small;
                    in_y = y * p->block_h + block / p->block_w - p->pad_top;
                    in_x = x * p->block_w + block % p->block_w - p->pad_left;
                } else {
                    const int32_t yy = y + p->pad_top, xx = x + p->pad_left;
                    in_y = yy / p->block_h;
                    in_x = xx / p->block_w;
                    in_b = ((yy % p->block_h) * p->block_w + xx % p->block_w) * small + b;
                }
                if (in_y < 0 || in_y >= p->input_h || in_x < 0 || in_x >= p->input_w) {
                    memset(out, p->pad_byte, (size_t)p->pixel_bytes);
                } else {
                    memcpy(out, in + ((in_b * p->input_h + in_y) * p->input_w + in_x) * p->pixel_bytes,
                           (size_t)p->pixel_bytes);
                }
                out += p->pixel_bytes;
            }
        }
    }
}

#endif /* TINYAOT_SPACE_BATCH_H */
