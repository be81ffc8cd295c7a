/*
 * tinyaot_compare.h - EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and
 * LESS_EQUAL with broadcasting: float32, int32, int64 and bool (EQUAL,
 * NOT_EQUAL) values compared as they are, int8 (and int16, GREATER only)
 * rescaled first; the output is bool (0/1).
 *
 * Matches TFLM's comparisons.cc: int8 values go through ComparisonWithScaling,
 * (v - zero point) * 2^8 times each input's own scale as a multiplier below one
 * (MultiplyByQuantizedMultiplierSmallerThanOneExp), then compared as int32.
 * int16 GREATER takes the same path with the parameters TFLM's Prepare computes
 * for int8 (TFLM's own reads parameters it never sets); (v - zero point) * 2^8
 * stays within +-2^24, so the arithmetic is the same.
 * float32 comparisons are C's, so a NaN compares as TFLM's (unequal to all).
 * Bool inputs are read as nonzero = true. The broadcast is walked as
 * tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_COMPARE_H
#define TINYAOT_COMPARE_H

#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

#define TINYAOT_COMPARE_EQUAL 0
#define TINYAOT_COMPARE_NOT_EQUAL 1
#define TINYAOT_COMPARE_GREATER 2
#define TINYAOT_COMPARE_GREATER_EQUAL 3
#define TINYAOT_COMPARE_LESS 4
#define TINYAOT_COMPARE_LESS_EQUAL 5

struct tinyaot_compare_params {
    int32_t size;       /* output values */
    int32_t rank;       /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t dtype;      /* enum tinyaot_dtype of both inputs */
    int32_t op;         /* TINYAOT_COMPARE_* */
    int32_t input1_offset, input1_multiplier, input1_shift;  /* int8 and int16 only */
    int32_t input2_offset, input2_multiplier, input2_shift;
};

/* a OP b for TINYAOT_COMPARE_* op, on integer or float operands (C's comparisons: NaN unordered). */
#define TINYAOT_COMPARE_BY(op, a, b)                                                         \
    ((op) == TINYAOT_COMPARE_EQUAL ? (a) == (b) : (op) == TINYAOT_COMPARE_NOT_EQUAL ? (a) != (b) \
     : (op) == TINYAOT_COMPARE_GREATER ? (a) > (b) : (op) == TINYAOT_COMPARE_GREATER_EQUAL ? (a) >= (b) \
     : (op) == TINYAOT_COMPARE_LESS ? (a) < (b) : (a) <= (b))

static inline uint8_t tinyaot_compare_i32(int32_t a, int32_t b, int32_t op)
{
    return (uint8_t)TINYAOT_COMPARE_BY(op, a, b);
}

static inline uint8_t tinyaot_compare_i64(int64_t a, int64_t b, int32_t op)
{
    return (uint8_t)TINYAOT_COMPARE_BY(op, a, b);
}

static inline uint8_t tinyaot_compare_f32(float a, float b, int32_t op)
{
    return (uint8_t)TINYAOT_COMPARE_BY(op, a, b);
}

/* An int8 or int16 value as TFLM compares it: offset, shifted left by 8, scaled (left shift <= 0). */
static inline int32_t tinyaot_compare_scaled(int32_t v, int32_t offset, int32_t multiplier, int32_t shift)
{
    return tinyaot_requantize((offset + v) * 256, multiplier, shift);
}

/* a OP b of two int8 or int16 values, each rescaled by its input's parameters first. */
static inline uint8_t tinyaot_compare_rescaled(const struct tinyaot_compare_params *p, int32_t a, int32_t b)
{
    return tinyaot_compare_i32(tinyaot_compare_scaled(a, p->input1_offset, p->input1_multiplier, p->input1_shift),
                               tinyaot_compare_scaled(b, p->input2_offset, p->input2_multiplier, p->input2_shift),
                               p->op);
}

static inline uint8_t tinyaot_compare_one(const struct tinyaot_compare_params *p, const void *input1,
                                          const void *input2, int32_t i, int32_t j)
{
    switch (p->dtype) {
    case TINYAOT_INT8:
        return tinyaot_compare_rescaled(p, ((const int8_t *)input1)[i], ((const int8_t *)input2)[j]);
    case TINYAOT_INT16:
        return tinyaot_compare_rescaled(p, ((const int16_t *)input1)[i], ((const int16_t *)input2)[j]);
    case TINYAOT_INT32:
        return tinyaot_compare_i32(((const int32_t *)input1)[i], ((const int32_t *)input2)[j], p->op);
    case TINYAOT_INT64:
        return tinyaot_compare_i64(tinyaot_load_i64(input1, i), tinyaot_load_i64(input2, j), p->op);
    case TINYAOT_BOOL:
        return tinyaot_compare_i32(((const uint8_t *)input1)[i] != 0, ((const uint8_t *)input2)[j] != 0, p->op);
    default:
        return tinyaot_compare_f32(((const float *)input1)[i], ((const float *)input2)[j], p->op);
    }
}

static inline void tinyaot_compare_value(const void *params, const void *input1, const void *input2, void *output,
                                         int32_t n, int32_t i, int32_t j)
{
    ((uint8_t *)output)[n] = tinyaot_compare_one((const struct tinyaot_compare_params *)params, input1, input2, i, j);
}

static void tinyaot_compare(const struct tinyaot_compare_params *p, const int32_t *dims, const int32_t *strides1,
                            const int32_t *strides2, const void *input1, const void *input2, uint8_t *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, strides1, strides2, input1, input2, output,
                           tinyaot_compare_value);
}

#endif /* TINYAOT_COMPARE_H */
