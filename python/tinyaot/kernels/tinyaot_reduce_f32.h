/*
 * tinyaot_reduce_f32.h - float32 MEAN, SUM, REDUCE_MAX and REDUCE_MIN over some axes.
 *
 * TFLM's float reference_ops::Mean (and its 4-D special case over height and
 * width, which adds in the same order) and ReduceGeneric: each output is its
 * input values in increasing input order folded from 0.0f (a sum; MEAN then
 * divides by their count as a float) or from -FLT_MAX / FLT_MAX (TFLM's
 * lowest() and max(): a NaN never wins a comparison, and all -inf gives
 * -FLT_MAX). dims/strides as in tinyaot_reduce_int.h; the reduced dimensions
 * are walked last index fastest, which is increasing input order.
 */
#ifndef TINYAOT_REDUCE_F32_H
#define TINYAOT_REDUCE_F32_H

#include <float.h>

#include "tinyaot_reduce.h"

struct tinyaot_reduce_f32_params {
    int32_t kept_rank;     /* leading entries of dims/strides that are kept */
    int32_t reduced_rank;  /* entries after them that are reduced */
    int32_t output_size;
    int32_t reduced_size;  /* values folded into each output */
    int32_t kind;          /* TINYAOT_REDUCE_MEAN, _SUM, _MAX or _MIN */
};

#define TINYAOT_REDUCE_MEAN 0
#define TINYAOT_REDUCE_SUM 1
#define TINYAOT_REDUCE_MAX 2
#define TINYAOT_REDUCE_MIN 3

static float tinyaot_reduce_f32_fold(int32_t kind, float current, float in)
{
    switch (kind) {
    case TINYAOT_REDUCE_MAX: return in > current ? in : current;
    case TINYAOT_REDUCE_MIN: return in < current ? in : current;
    default: return in + current;
    }
}

static void tinyaot_reduce_f32(const struct tinyaot_reduce_f32_params *p, const int32_t *dims,
                               const int32_t *strides, const float *input, float *output)
{
    int32_t kept[TINYAOT_REDUCE_MAX_DIMS] = {0};
    int32_t reduced[TINYAOT_REDUCE_MAX_DIMS] = {0};
    const int32_t *reduced_dims = dims + p->kept_rank;
    const int32_t *reduced_strides = strides + p->kept_rank;
    const float count = (float)p->reduced_size;
    int32_t base = 0, o, r;
    for (o = 0; o < p->output_size; o++) {
        float value = p->kind == TINYAOT_REDUCE_MAX ? -FLT_MAX : p->kind == TINYAOT_REDUCE_MIN ? FLT_MAX : 0.0f;
        int32_t at = base;
        for (r = 0; r < p->reduced_size; r++) {
            value = tinyaot_reduce_f32_fold(p->kind, value, input[at]);
            at += tinyaot_reduce_step(reduced, reduced_dims, reduced_strides, p->reduced_rank);
        }
        output[o] = p->kind == TINYAOT_REDUCE_MEAN ? value / count : value;
        base += tinyaot_reduce_step(kept, dims, strides, p->kept_rank);
    }
}

#endif /* TINYAOT_REDUCE_F32_H */
