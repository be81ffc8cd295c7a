/*
 * tinyaot_quantize_int.h - QUANTIZE between integer types (requantize):
 * int8, uint8, int16 and int32 in, int8, uint8, int16 and int32 out.
 *
 * Matches TFLM's reference_ops::Requantize:
 * out = clamp(zp_out + MultiplyByQuantizedMultiplier(in - zp_in)). Its
 * int8 <-> uint8 fast path (XOR 0x80) gives the same bytes as this formula.
 * The types are parameters (enum tinyaot_dtype) so one kernel serves every pair.
 */
#ifndef TINYAOT_QUANTIZE_INT_H
#define TINYAOT_QUANTIZE_INT_H

#include "tinyaot.h"
#include "tinyaot_common.h"

struct tinyaot_quantize_int_params {
    int32_t size;               /* number of values */
    int32_t input_type;         /* enum tinyaot_dtype */
    int32_t output_type;        /* enum tinyaot_dtype */
    int32_t input_zero_point;
    int32_t output_zero_point;
    int32_t multiplier;         /* input scale / output scale */
    int32_t shift;
    int32_t out_min;            /* range of the output type */
    int32_t out_max;
};

/* The values' loop for one pair of types (constants once inlined: no type test per value). */
static TINYAOT_ALWAYS_INLINE void tinyaot_quantize_values(const struct tinyaot_quantize_int_params *p,
                                                          const void *input, void *output, int32_t input_type,
                                                          int32_t output_type)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        int32_t x, y;
        switch (input_type) {
        case TINYAOT_INT8: x = ((const int8_t *)input)[i]; break;
        case TINYAOT_UINT8: x = ((const uint8_t *)input)[i]; break;
        case TINYAOT_INT16: x = ((const int16_t *)input)[i]; break;
        default: x = ((const int32_t *)input)[i]; break;
        }
        /* Wraps like TFLM's int32 arithmetic on the target for extreme int32 inputs. */
        x = (int32_t)((uint32_t)x - (uint32_t)p->input_zero_point);
        y = tinyaot_requantize(x, p->multiplier, p->shift);
        y = (int32_t)((uint32_t)y + (uint32_t)p->output_zero_point);
        y = tinyaot_clamp_i32(y, p->out_min, p->out_max);
        switch (output_type) {
        case TINYAOT_INT8: ((int8_t *)output)[i] = (int8_t)y; break;
        case TINYAOT_UINT8: ((uint8_t *)output)[i] = (uint8_t)y; break;
        case TINYAOT_INT16: ((int16_t *)output)[i] = (int16_t)y; break;
        default: ((int32_t *)output)[i] = y; break;
        }
    }
}

static void tinyaot_quantize_int(const struct tinyaot_quantize_int_params *params, const void *input, void *output)
{
    /* A local copy: the output stores may alias anything, so params' fields would be reloaded per value. */
    const struct tinyaot_quantize_int_params p = *params;
    if (p.input_type == TINYAOT_INT16 && p.output_type == TINYAOT_INT8) {  /* int16 features into an int8 network */
        tinyaot_quantize_values(&p, input, output, TINYAOT_INT16, TINYAOT_INT8);
    } else {
        tinyaot_quantize_values(&p, input, output, p.input_type, p.output_type);
    }
}

#endif /* TINYAOT_QUANTIZE_INT_H */
