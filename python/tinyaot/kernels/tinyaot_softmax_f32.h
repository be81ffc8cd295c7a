/*
 * tinyaot_softmax_f32.h - float32 SOFTMAX over the last dimension.
 *
 * TFLM's float reference_ops::Softmax operation for operation: the row's
 * maximum (std::max from -FLT_MAX), expf((x - max) * beta) stored and summed
 * in order from 0.0f, then each divided by the sum. expf is the C library's,
 * as TFLM's std::exp(float) is: identical to TFLM built with the same libm.
 */
#ifndef TINYAOT_SOFTMAX_F32_H
#define TINYAOT_SOFTMAX_F32_H

#include <float.h>
#include <math.h>
#include <stdint.h>

struct tinyaot_softmax_f32_params {
    int32_t outer_size;  /* rows */
    int32_t depth;       /* values per row */
    float beta;
};

static void tinyaot_softmax_f32(const struct tinyaot_softmax_f32_params *p, const float *input, float *output)
{
    int32_t i, c;
    for (i = 0; i < p->outer_size; i++) {
        const float *in = input + i * p->depth;
        float *out = output + i * p->depth;
        float max = -FLT_MAX, sum = 0.0f;
        for (c = 0; c < p->depth; c++) {
            max = (max < in[c]) ? in[c] : max;
        }
        for (c = 0; c < p->depth; c++) {
            const float e = expf((in[c] - max) * p->beta);
            out[c] = e;
            sum += e;
        }
        for (c = 0; c < p->depth; c++) {
            out[c] = out[c] / sum;
        }
    }
}

#endif /* TINYAOT_SOFTMAX_F32_H */
