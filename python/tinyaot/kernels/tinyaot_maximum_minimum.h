/*
 * tinyaot_maximum_minimum.h - MAXIMUM and MINIMUM with broadcasting, for
 * int8, int16, int32, int64 and float32.
 *
 * Matches TFLM's reference_ops::MaximumMinimumBroadcastSlow with MaximumOp
 * (a > b ? a : b) and MinimumOp (a < b ? a : b): raw values are compared, so
 * the lowering requires one quantization for inputs and output. The same
 * comparisons keep TFLM's answer when a float input is NaN. The broadcast is
 * walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_MAXIMUM_MINIMUM_H
#define TINYAOT_MAXIMUM_MINIMUM_H

#include "tinyaot.h"
#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

struct tinyaot_maximum_minimum_params {
    int32_t size;      /* output values */
    int32_t rank;      /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t dtype;     /* enum tinyaot_dtype of inputs and output */
    int32_t maximum;   /* 1: MAXIMUM, 0: MINIMUM */
};

static inline int32_t tinyaot_pick_i32(int32_t a, int32_t b, int32_t maximum)
{
    return maximum ? (a > b ? a : b) : (a < b ? a : b);
}

static inline int64_t tinyaot_pick_i64(int64_t a, int64_t b, int32_t maximum)
{
    return maximum ? (a > b ? a : b) : (a < b ? a : b);
}

static inline float tinyaot_pick_f32(float a, float b, int32_t maximum)
{
    return maximum ? (a > b ? a : b) : (a < b ? a : b);
}

/* Output value n from input values i and j. */
static inline void tinyaot_maximum_minimum_value(const void *params, const void *input1, const void *input2,
                                                 void *output, int32_t n, int32_t i, int32_t j)
{
    const struct tinyaot_maximum_minimum_params *p = (const struct tinyaot_maximum_minimum_params *)params;
    switch (p->dtype) {
    case TINYAOT_INT8:
        ((int8_t *)output)[n] = (int8_t)tinyaot_pick_i32(((const int8_t *)input1)[i],
                                                         ((const int8_t *)input2)[j], p->maximum);
        break;
    case TINYAOT_INT16:
        ((int16_t *)output)[n] = (int16_t)tinyaot_pick_i32(((const int16_t *)input1)[i],
                                                           ((const int16_t *)input2)[j], p->maximum);
        break;
    case TINYAOT_INT32:
        ((int32_t *)output)[n] = tinyaot_pick_i32(((const int32_t *)input1)[i],
                                                  ((const int32_t *)input2)[j], p->maximum);
        break;
    case TINYAOT_INT64:
        ((int64_t *)output)[n] = tinyaot_pick_i64(tinyaot_load_i64(input1, i), tinyaot_load_i64(input2, j),
                                                  p->maximum);
        break;
    default:
        ((float *)output)[n] = tinyaot_pick_f32(((const float *)input1)[i],
                                                ((const float *)input2)[j], p->maximum);
        break;
    }
}

static void tinyaot_maximum_minimum(const struct tinyaot_maximum_minimum_params *p, const int32_t *dims,
                                    const int32_t *strides1, const int32_t *strides2,
                                    const void *input1, const void *input2, void *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, strides1, strides2, input1, input2, output,
                           tinyaot_maximum_minimum_value);
}

#endif /* TINYAOT_MAXIMUM_MINIMUM_H */
