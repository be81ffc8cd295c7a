/*
 * tinyaot_quantize_f32_params.h - what the float32 QUANTIZE kernels share:
 * tinyaot_quantize_f32.h (int8 and int16) and tinyaot_quantize_f32_s8.h (int8 by table).
 */
#ifndef TINYAOT_QUANTIZE_F32_PARAMS_H
#define TINYAOT_QUANTIZE_F32_PARAMS_H

#include "tinyaot_common.h"

struct tinyaot_quantize_f32_params {
    int32_t size;         /* number of values */
    int32_t output_type;  /* enum tinyaot_dtype: TINYAOT_INT8 or TINYAOT_INT16 */
    float scale;          /* output scale */
    int32_t zero_point;
    int32_t out_min;      /* range of the output type */
    int32_t out_max;
};

#endif /* TINYAOT_QUANTIZE_F32_PARAMS_H */
