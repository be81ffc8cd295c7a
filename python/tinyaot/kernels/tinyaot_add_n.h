/*
 * tinyaot_add_n.h - ADD_N: the element-wise sum of any number of equally shaped
 * tensors, int8 or float32.
 *
 * TFLM's reference_ops::AddN. float32 sums each element from 0.0f in input
 * order. int8 (all inputs quantized alike, as TFLM requires) works as TFLM's
 * ADD does: each value less the zero point, shifted left by 20 and halved by
 * a multiplier of exactly 0.5 (so shifted by 19), summed in 32 bits (wrapping
 * as TFLM's int32 does) from the input offset so treated (TFLM starts there,
 * not at 0), then rescaled to the output and clamped.
 */
#ifndef TINYAOT_ADD_N_H
#define TINYAOT_ADD_N_H

#include "tinyaot_common.h"

struct tinyaot_add_n_params {
    int32_t size;               /* values per tensor */
    int32_t count;              /* number of inputs */
    int32_t float32;            /* 1: float32, 0: int8 */
    int32_t input_offset;       /* int8: -input zero point */
    int32_t output_multiplier;  /* int8: 2 * input scale / (2^20 * output scale) */
    int32_t output_shift;
    int32_t output_offset;      /* int8: output zero point */
};

static void tinyaot_add_n(const struct tinyaot_add_n_params *p, const void *const *inputs, void *output)
{
    int32_t i, k;
    for (i = 0; i < p->size; i++) {
        if (p->float32) {
            float sum = 0.0f;
            for (k = 0; k < p->count; k++) {
                sum += ((const float *)inputs[k])[i];
            }
            ((float *)output)[i] = sum;
        } else {
            uint32_t sum = tinyaot_sum_term_s8(p->input_offset, 0);  /* TFLM starts from the offset */
            int32_t y;
            for (k = 0; k < p->count; k++) {
                sum += tinyaot_sum_term_s8(p->input_offset, ((const int8_t *)inputs[k])[i]);
            }
            y = tinyaot_requantize((int32_t)sum, p->output_multiplier, p->output_shift) + p->output_offset;
            ((int8_t *)output)[i] = (int8_t)tinyaot_clamp_i32(y, -128, 127);
        }
    }
}

#endif /* TINYAOT_ADD_N_H */
