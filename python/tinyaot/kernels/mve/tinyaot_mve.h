/*
 * tinyaot_mve.h - the Helium (MVE) intrinsics tinyaot's kernels/mve/ use, under tinyaot_
 * names: <arm_mve.h>'s on a core with MVE integer instructions, a plain C model of each
 * elsewhere, so the host compiles and proves the same kernels under ASan/UBSan.
 *
 * The model's predicate is the number of active lanes (the kernels only make tail
 * predicates, VCTP8): a predicated load reads those lanes only and zeroes the others,
 * as the instruction, which touches no memory for an inactive lane.
 */
#ifndef TINYAOT_MVE_H
#define TINYAOT_MVE_H

#include <stdint.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

typedef int8x16_t tinyaot_s8x16;
typedef mve_pred16_t tinyaot_pred;

/* The first min(n, 16) byte lanes active (VCTP.8). */
static inline tinyaot_pred tinyaot_vctp8(uint32_t n)
{
    return vctp8q(n);
}

/* 16 bytes at p, the inactive lanes zero (VLDRB.S8 predicated). */
static inline tinyaot_s8x16 tinyaot_vld_s8_z(const int8_t *p, tinyaot_pred lanes)
{
    return vldrbq_z_s8(p, lanes);
}

/* acc + the dot product of x and y's 16 lanes (VMLADAVA.S8). */
static inline int32_t tinyaot_vmladava_s8(int32_t acc, tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    return vmladavaq_s8(acc, x, y);
}

#else /* the C model */

typedef struct {
    int8_t lane[16];
} tinyaot_s8x16;
typedef uint32_t tinyaot_pred;

static inline tinyaot_pred tinyaot_vctp8(uint32_t n)
{
    return n < 16u ? n : 16u;
}

static inline tinyaot_s8x16 tinyaot_vld_s8_z(const int8_t *p, tinyaot_pred lanes)
{
    tinyaot_s8x16 v;
    uint32_t i;
    for (i = 0; i < 16u; i++) {
        v.lane[i] = i < lanes ? p[i] : 0;
    }
    return v;
}

static inline int32_t tinyaot_vmladava_s8(int32_t acc, tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    uint32_t sum = (uint32_t)acc;  /* the instruction's sum wraps modulo 2^32 */
    int i;
    for (i = 0; i < 16; i++) {
        sum += (uint32_t)((int32_t)x.lane[i] * y.lane[i]);
    }
    return (int32_t)sum;
}

#endif

#endif /* TINYAOT_MVE_H */
