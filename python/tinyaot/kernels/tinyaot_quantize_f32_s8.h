/*
 * tinyaot_quantize_f32_s8.h - QUANTIZE from float32 to int8, the numbers of
 * tinyaot_quantize_f32.h (TFLM's AffineQuantize) without soft-float arithmetic.
 */
#ifndef TINYAOT_QUANTIZE_F32_S8_H
#define TINYAOT_QUANTIZE_F32_S8_H

#include "tinyaot_quantize_f32_params.h"

/*
 * The result only grows with the input (division by a positive scale and both
 * roundings keep the order), and so does a float's bit pattern read as sign and
 * magnitude: the lowering computes, for each output -127..127, the smallest such key
 * whose result reaches it (thresholds[output + 127]), and a binary search over them
 * gives the output: eight compares instead of a division and a rounding, bit-exact by
 * construction. NaN gives -128, as tinyaot_quantize_f32 does.
 */
static void tinyaot_quantize_f32_s8(const struct tinyaot_quantize_f32_params *p, const int32_t *thresholds,
                                    const float *input, int8_t *output)
{
    int32_t i;
    for (i = 0; i < p->size; i++) {
        union {
            float f;
            uint32_t u;
        } bits;
        int32_t key, at = 0;
        bits.f = input[i];
        /* Negative floats: flip the magnitude so that larger ones order lower. */
        key = (int32_t)(bits.u ^ ((uint32_t)((int32_t)bits.u >> 31) >> 1));
        if ((bits.u & 0x7fffffffu) > 0x7f800000u) {
            key = INT32_MIN;
        }
        /* Unrolled: a constant step is an immediate offset in each compare's load. */
        at += key >= thresholds[at + 127] ? 128 : 0;
        at += key >= thresholds[at + 63] ? 64 : 0;
        at += key >= thresholds[at + 31] ? 32 : 0;
        at += key >= thresholds[at + 15] ? 16 : 0;
        at += key >= thresholds[at + 7] ? 8 : 0;
        at += key >= thresholds[at + 3] ? 4 : 0;
        at += key >= thresholds[at + 1] ? 2 : 0;
        at += key >= thresholds[at] ? 1 : 0;
        output[i] = (int8_t)(at - 128);
    }
}

#endif /* TINYAOT_QUANTIZE_F32_S8_H */
