/*
 * tinyaot_row_norm_f32.h - float32 L2_NORMALIZATION and LOG_SOFTMAX, row by row
 * over the last axis.
 *
 * TFLM's reference_ops::L2Normalization (the squares summed from 0 in order,
 * sqrtf, raised to TFLM's epsilon 1e-6f, each value divided by it) and
 * LogSoftmax (the row's max from -FLT_MAX with std::max's comparison, expf of
 * each value less it summed from 0, logf of the sum; each value less the max,
 * then less that log). sqrtf is exact everywhere; expf and logf are the C
 * library's: identical to TFLM built with the same library.
 */
#ifndef TINYAOT_ROW_NORM_F32_H
#define TINYAOT_ROW_NORM_F32_H

#include <float.h>
#include <math.h>
#include <stdint.h>

struct tinyaot_row_norm_f32_params {
    int32_t rows;
    int32_t depth;        /* the last axis */
    int32_t log_softmax;  /* 1: LOG_SOFTMAX, 0: L2_NORMALIZATION */
};

static void tinyaot_row_norm_f32(const struct tinyaot_row_norm_f32_params *p, const float *input, float *output)
{
    int32_t r, c;
    for (r = 0; r < p->rows; r++, input += p->depth, output += p->depth) {
        float sum = 0.0f;
        if (p->log_softmax) {
            float max = -FLT_MAX, log_sum;
            for (c = 0; c < p->depth; c++) {
                max = (max < input[c]) ? input[c] : max;
            }
            for (c = 0; c < p->depth; c++) {
                sum += expf(input[c] - max);
            }
            log_sum = logf(sum);
            for (c = 0; c < p->depth; c++) {
                output[c] = input[c] - max - log_sum;
            }
        } else {
            float norm;
            for (c = 0; c < p->depth; c++) {
                sum += input[c] * input[c];
            }
            norm = sqrtf(sum);
            norm = (norm < 1e-6f) ? 1e-6f : norm;
            for (c = 0; c < p->depth; c++) {
                output[c] = input[c] / norm;
            }
        }
    }
}

#endif /* TINYAOT_ROW_NORM_F32_H */
