/*
 * tinyaot_dequantize_f32.h - DEQUANTIZE from int8, uint8 or int16 to float32.
 *
 * Matches TFLM's reference_ops::Dequantize, which computes
 * (float)(double(scale) * (x - zero_point)). A float multiply gives the same
 * bits without double arithmetic: scale has 24 significant bits and
 * x - zero_point at most 17, so the double product is exact and both ways
 * round the exact product to float once.
 */
#ifndef TINYAOT_DEQUANTIZE_F32_H
#define TINYAOT_DEQUANTIZE_F32_H

#include "tinyaot.h"

struct tinyaot_dequantize_f32_params {
    int32_t size;        /* number of values */
    int32_t input_type;  /* enum tinyaot_dtype: TINYAOT_INT8, TINYAOT_UINT8 or TINYAOT_INT16 */
    float scale;
    int32_t zero_point;
};

static void tinyaot_dequantize_f32(const struct tinyaot_dequantize_f32_params *p, const void *input, float *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        int32_t x;
        switch (p->input_type) {
        case TINYAOT_INT8: x = ((const int8_t *)input)[i]; break;
        case TINYAOT_UINT8: x = ((const uint8_t *)input)[i]; break;
        default: x = ((const int16_t *)input)[i]; break;
        }
        output[i] = p->scale * (float)(x - p->zero_point);
    }
}

#endif /* TINYAOT_DEQUANTIZE_F32_H */
