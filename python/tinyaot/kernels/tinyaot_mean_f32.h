/*
 * tinyaot_mean_f32.h - float32 mean over some axes (MEAN).
 *
 * TFLM's float reference_ops::Mean (and its 4-D special case over height and
 * width, which adds in the same order): each output is the sum, from 0.0f,
 * of its input values in increasing input order, divided by their count as a
 * float. dims/strides as in tinyaot_mean_int.h; the reduced dimensions are
 * walked last index fastest, which is increasing input order.
 */
#ifndef TINYAOT_MEAN_F32_H
#define TINYAOT_MEAN_F32_H

#include "tinyaot_mean.h"

struct tinyaot_mean_f32_params {
    int32_t kept_rank;     /* leading entries of dims/strides that are kept */
    int32_t reduced_rank;  /* entries after them that are reduced */
    int32_t output_size;
    int32_t reduced_size;  /* values averaged into each output */
};

static void tinyaot_mean_f32(const struct tinyaot_mean_f32_params *p, const int32_t *dims,
                             const int32_t *strides, const float *input, float *output)
{
    int32_t kept[TINYAOT_MEAN_MAX_DIMS] = {0};
    int32_t reduced[TINYAOT_MEAN_MAX_DIMS] = {0};
    const int32_t *reduced_dims = dims + p->kept_rank;
    const int32_t *reduced_strides = strides + p->kept_rank;
    const float count = (float)p->reduced_size;
    int32_t base = 0, o, r;
    for (o = 0; o < p->output_size; o++) {
        float sum = 0.0f;
        int32_t at = base;
        for (r = 0; r < p->reduced_size; r++) {
            sum += input[at];
            at += tinyaot_mean_step(reduced, reduced_dims, reduced_strides, p->reduced_rank);
        }
        output[o] = sum / count;
        base += tinyaot_mean_step(kept, dims, strides, p->kept_rank);
    }
}

#endif /* TINYAOT_MEAN_F32_H */
