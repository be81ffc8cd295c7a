/*
 * tinyaot_lut_s8.h - an int8 operator as a 256-entry table of its results
 * (ELU), the table computed by the generator as TFLM's Prepare computes it.
 */
#ifndef TINYAOT_LUT_S8_H
#define TINYAOT_LUT_S8_H

#include <stdint.h>

struct tinyaot_lut_s8_params {
    int32_t size;   /* number of values */
};

/* table[(uint8_t)x] is the result for input value x. */
static void tinyaot_lut_s8(const struct tinyaot_lut_s8_params *p, const int8_t *table, const int8_t *input,
                           int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        output[i] = table[(uint8_t)input[i]];
    }
}

#endif /* TINYAOT_LUT_S8_H */
