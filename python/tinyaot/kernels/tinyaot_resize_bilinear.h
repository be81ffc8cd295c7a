/*
 * tinyaot_resize_bilinear.h - the parameters of RESIZE_BILINEAR, shared by the
 * int8 and float32 kernels (their tables differ, not the shape).
 */
#ifndef TINYAOT_RESIZE_BILINEAR_H
#define TINYAOT_RESIZE_BILINEAR_H

#include <stdint.h>

struct tinyaot_resize_bilinear_params {
    int32_t batches;
    int32_t output_height;
    int32_t output_width;
    int32_t depth;
    int32_t input_batch_size;   /* input height x width x depth */
};

#endif /* TINYAOT_RESIZE_BILINEAR_H */
