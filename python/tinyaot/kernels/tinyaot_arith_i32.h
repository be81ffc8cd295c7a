/*
 * tinyaot_arith_i32.h - int32 ADD, SUB, MUL, DIV and SQUARED_DIFFERENCE with
 * broadcasting, TFLM's reference_ops::Add, Sub, Mul, Div and squared_difference.cc
 * on int32_t: one integer operation per value, then the activation's range
 * (CalculateActivationRange: RELU [0, max], RELU6 [0, 6], RELU_N1_TO_1
 * [-1, 1]; ADD and SQUARED_DIFFERENCE take the whole int32 range, as TFLM).
 * Where TFLM's int32 arithmetic overflows (undefined in C++) the result wraps,
 * as every Arm and x86 build of it does; here in unsigned arithmetic, which is
 * defined. DIV truncates toward zero, as C++; its two undefined cases are
 * defined here: INT32_MIN / -1 wraps to INT32_MIN, x / 0 gives 0 (what the
 * Cortex-M3's SDIV gives; TFLM on x86 traps). The broadcast is walked as tinyaot_broadcast.h describes.
 */
#ifndef TINYAOT_ARITH_I32_H
#define TINYAOT_ARITH_I32_H

#include "tinyaot_arith_ops.h"
#include "tinyaot_broadcast.h"
#include "tinyaot_common.h"

struct tinyaot_arith_i32_params {
    int32_t size;     /* output values */
    int32_t rank;     /* entries in dims/strides, 1..TINYAOT_BROADCAST_MAX_DIMS */
    int32_t op;       /* TINYAOT_ARITH_ADD, _SUB, _MUL, _DIV or _SQUARED_DIFFERENCE */
    int32_t act_min;  /* the fused activation's range */
    int32_t act_max;
};

static inline int32_t tinyaot_arith_one_i32(int32_t op, int32_t a, int32_t b)
{
    const uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case TINYAOT_ARITH_ADD: return (int32_t)(ua + ub);
    case TINYAOT_ARITH_SUB: return (int32_t)(ua - ub);
    case TINYAOT_ARITH_MUL: return (int32_t)(ua * ub);
    case TINYAOT_ARITH_DIV: return b == 0 ? 0 : (b == -1 ? (int32_t)(0u - ua) : a / b);
    default: return (int32_t)((ua - ub) * (ua - ub));
    }
}

static inline void tinyaot_arith_i32_value(const void *params, const void *input1, const void *input2,
                                           void *output, int32_t n, int32_t i, int32_t j)
{
    const struct tinyaot_arith_i32_params *p = (const struct tinyaot_arith_i32_params *)params;
    ((int32_t *)output)[n] = tinyaot_clamp_i32(
        tinyaot_arith_one_i32(p->op, ((const int32_t *)input1)[i], ((const int32_t *)input2)[j]),
        p->act_min, p->act_max);
}

static void tinyaot_arith_i32(const struct tinyaot_arith_i32_params *p, const int32_t *dims,
                              const int32_t *strides1, const int32_t *strides2, const int32_t *input1,
                              const int32_t *input2, int32_t *output)
{
    tinyaot_broadcast_each(p, p->size, p->rank, dims, strides1, strides2, input1, input2, output,
                           tinyaot_arith_i32_value);
}

#endif /* TINYAOT_ARITH_I32_H */
