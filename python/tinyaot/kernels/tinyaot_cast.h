/*
 * tinyaot_cast.h - CAST between int8, int16, int32, uint32, float32 and bool
 * (input only): each value converted as C converts it, TFLM's cast.cc
 * static_cast.
 *
 * Integers narrow modulo 2^n (GCC's and every Arm compiler's definition, as
 * for TFLM's C++; to uint32 C defines it), float32 to an integer truncates
 * toward zero (out of the target's range the result is undefined in C and C++
 * alike), bool reads nonzero as 1. Quantization is ignored, as TFLM ignores it.
 */
#ifndef TINYAOT_CAST_H
#define TINYAOT_CAST_H

#include "tinyaot.h"

struct tinyaot_cast_params {
    int32_t size;
    int32_t input_dtype;   /* enum tinyaot_dtype */
    int32_t output_dtype;  /* TINYAOT_INT8, _INT16, _INT32, _UINT32 or _FLOAT32 */
};

#define TINYAOT_CAST_LOOP(in_t, read, out_t)                      \
    do {                                                          \
        const in_t *in = (const in_t *)input;                     \
        out_t *out = (out_t *)output;                             \
        for (i = 0; i < p->size; i++) {                           \
            out[i] = (out_t)(read);                               \
        }                                                         \
    } while (0)

#define TINYAOT_CAST_TO(in_t, read)                                                  \
    switch (p->output_dtype) {                                                       \
    case TINYAOT_INT8: TINYAOT_CAST_LOOP(in_t, read, int8_t); break;                 \
    case TINYAOT_INT16: TINYAOT_CAST_LOOP(in_t, read, int16_t); break;               \
    case TINYAOT_INT32: TINYAOT_CAST_LOOP(in_t, read, int32_t); break;               \
    case TINYAOT_UINT32: TINYAOT_CAST_LOOP(in_t, read, uint32_t); break;             \
    default: TINYAOT_CAST_LOOP(in_t, read, float); break;                            \
    }

static void tinyaot_cast(const struct tinyaot_cast_params *p, const void *input, void *output)
{
    int32_t i;
    switch (p->input_dtype) {
    case TINYAOT_INT8: TINYAOT_CAST_TO(int8_t, in[i]); break;
    case TINYAOT_INT16: TINYAOT_CAST_TO(int16_t, in[i]); break;
    case TINYAOT_INT32: TINYAOT_CAST_TO(int32_t, in[i]); break;
    case TINYAOT_UINT32: TINYAOT_CAST_TO(uint32_t, in[i]); break;
    case TINYAOT_BOOL: TINYAOT_CAST_TO(uint8_t, in[i] != 0); break;
    default: TINYAOT_CAST_TO(float, in[i]); break;
    }
}

#undef TINYAOT_CAST_TO
#undef TINYAOT_CAST_LOOP

#endif /* TINYAOT_CAST_H */
