/*
 * cmsis_nn_dsp.h - CMSIS-NN's DSP paths (ARM_MATH_DSP) on the host: force-included
 * (-include) into CMSIS-NN's sources and the generated .c of a DSP --cpu, it gives
 * CMSIS-NN's intrinsic names (Internal/arm_nn_compiler.h defines them only under
 * __ARM_FEATURE_DSP) as C models of the instructions, so the host runs the very C
 * that a Cortex-M4/M7/M33 runs. The arithmetic is tinyaot_acle.h's (the models the
 * portable SIMD kernels are proven with); the few instructions those kernels do not
 * use are modelled here. Never used on an Arm target.
 */
#ifndef TINYAOT_HOST_CMSIS_NN_DSP_H
#define TINYAOT_HOST_CMSIS_NN_DSP_H

#if defined(__arm__) || defined(__ARM_FEATURE_DSP)
#error "cmsis_nn_dsp.h models the DSP instructions for the host; an Arm core has them"
#endif

#include <stdint.h>

#include "tinyaot_acle.h"

#define ARM_MATH_DSP 1

static inline uint32_t tinyaot_host_ror(uint32_t x, uint32_t n)
{
    n %= 32u;
    return n ? (x >> n) | (x << (32u - n)) : x;
}

static inline int32_t tinyaot_host_byte(uint32_t x, int k)
{
    return (int8_t)((x >> (8 * k)) & 0xFFu);
}

#define ROR(x, n) tinyaot_host_ror((uint32_t)(x), (uint32_t)(n))
#define SMLAD(x, y, acc) ((uint32_t)tinyaot_smlad((uint32_t)(x), (uint32_t)(y), (int32_t)(acc)))
#define SMLABB(x, y, acc) tinyaot_smlabb((uint32_t)(x), (uint32_t)(y), (int32_t)(acc))
#define SMLATT(x, y, acc) tinyaot_smlatt((uint32_t)(x), (uint32_t)(y), (int32_t)(acc))
#define SMULBB(x, y) ((uint32_t)tinyaot_smlabb((uint32_t)(x), (uint32_t)(y), 0))
#define SMULTT(x, y) ((uint32_t)tinyaot_smlatt((uint32_t)(x), (uint32_t)(y), 0))
#define SXTB16(x) tinyaot_sxtb16((uint32_t)(x))
#define __sxtb16(x) tinyaot_sxtb16((uint32_t)(x))
#define SXTAB16(a, x) tinyaot_sxtab16((uint32_t)(a), (uint32_t)(x))
#define SXTB16_RORn(x, n) SXTB16(ROR((x), (n)))
#define SXTAB16_RORn(a, x, n) SXTAB16((a), ROR((x), (n)))
#define PKHBT(a, b, sh) tinyaot_pkhbt((uint32_t)(a), (uint32_t)(b), (sh))
#define PKHTB(a, b, sh) tinyaot_pkhtb((uint32_t)(a), (uint32_t)(b), (sh))

/* acc + lo(x) * lo(y) + hi(x) * hi(y), 64-bit accumulator (SMLALD). */
static inline uint64_t SMLALD(uint32_t x, uint32_t y, uint64_t acc)
{
    const int64_t sum = (int64_t)tinyaot_smlabb(x, y, 0) + (int64_t)tinyaot_smlatt(x, y, 0);
    return acc + (uint64_t)sum;
}

/* Saturating 32-bit add (QADD). */
static inline int32_t QADD(int32_t a, int32_t b)
{
    const int64_t s = (int64_t)a + b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
}

/* Halves added, wrapping (SADD16); subtracted, saturated to int16 (QSUB16). */
static inline uint32_t SADD16(uint32_t a, uint32_t b)
{
    return tinyaot_halves(tinyaot_half_lo(a) + tinyaot_half_lo(b), tinyaot_half_hi(a) + tinyaot_half_hi(b));
}

static inline uint32_t QSUB16(uint32_t a, uint32_t b)
{
    return tinyaot_halves(tinyaot_clamp_i32(tinyaot_half_lo(a) - tinyaot_half_lo(b), -32768, 32767),
                          tinyaot_clamp_i32(tinyaot_half_hi(a) - tinyaot_half_hi(b), -32768, 32767));
}

/* Bytes subtracted, each saturated to int8 (QSUB8). */
static inline uint32_t QSUB8(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        const int32_t d = tinyaot_clamp_i32(tinyaot_host_byte(a, k) - tinyaot_host_byte(b, k), -128, 127);
        r |= ((uint32_t)d & 0xFFu) << (8 * k);
    }
    return r;
}

#endif /* TINYAOT_HOST_CMSIS_NN_DSP_H */
