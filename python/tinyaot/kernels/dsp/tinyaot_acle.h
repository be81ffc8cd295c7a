/*
 * tinyaot_acle.h - the ACLE DSP intrinsics the SIMD kernels use, under tinyaot names.
 *
 * On cores with the DSP extension (__ARM_FEATURE_DSP: Cortex-M4, M7, M33 with DSP) each
 * is the <arm_acle.h> intrinsic, one instruction. Elsewhere (the host, Cortex-M0/M3) each
 * is a plain C model of that instruction, so that the host compiles and proves the very
 * same kernel source, under ASan/UBSan, against TFLM. Words of two 16-bit halves are
 * uint32_t, as in <arm_acle.h> (int16x2_t there); the models wrap as the instructions do.
 */
#ifndef TINYAOT_ACLE_H
#define TINYAOT_ACLE_H

#include <stdint.h>
#include <string.h>

#include "tinyaot_common.h"

/* 4 bytes from p, any alignment: one LDR on Armv7-M and up (unaligned LDR is allowed there).
   The builtin: with -ffreestanding (the firmware's) memcpy would stay a call. */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_load_u32(const void *p)
{
    uint32_t v;
#if defined(__GNUC__) || defined(__clang__)
    __builtin_memcpy(&v, p, sizeof v);
#else
    memcpy(&v, p, sizeof v);
#endif
    return v;
}

/* Low half of a, high half of b << sh (PKHBT); high half of a, low half of b >> sh (PKHTB,
   arithmetic); sh a constant. In C on every core: GCC 12's <arm_acle.h> has no __pkhbt, and
   GCC builds the one instruction from these. */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_pkhbt(uint32_t a, uint32_t b, int32_t sh)
{
    return (a & 0xFFFFu) | ((b << sh) & 0xFFFF0000u);
}

static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_pkhtb(uint32_t a, uint32_t b, int32_t sh)
{
    return (a & 0xFFFF0000u) | ((uint32_t)((int32_t)b >> sh) & 0xFFFFu);
}

#if defined(__ARM_FEATURE_DSP) && (__ARM_FEATURE_DSP == 1)
#include <arm_acle.h>

#define TINYAOT_ACLE_DSP 1

/* The two words at *p (4-byte aligned) into *lo and *hi, *p moved past them: one LDRD with
   post-increment (GCC splits a 64-bit load whose halves are used apart into two LDRs). */
static TINYAOT_ALWAYS_INLINE void tinyaot_load2_next(const uint32_t **p, uint32_t *lo, uint32_t *hi)
{
    const uint32_t *q = *p;
    uint32_t a, b;
    __asm__("ldrd %1, %2, [%0], #8" : "+r"(q), "=r"(a), "=r"(b) : "m"(*(const uint32_t(*)[2])q));
    *p = q;
    *lo = a;
    *hi = b;
}

/* acc + lo(x) * lo(y) + hi(x) * hi(y), 16-bit signed halves (SMLAD). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlad(uint32_t x, uint32_t y, int32_t acc)
{
    return __smlad(x, y, acc);
}

/* acc + lo(x) * lo(y) (SMLABB); acc + hi(x) * hi(y) (SMLATT): 16-bit signed halves. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlabb(uint32_t x, uint32_t y, int32_t acc)
{
    return __smlabb((int32_t)x, (int32_t)y, acc);
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlatt(uint32_t x, uint32_t y, int32_t acc)
{
    return __smlatt((int32_t)x, (int32_t)y, acc);
}

/* acc + hi(x) * lo(y) (SMLATB); acc + lo(x) * hi(y) (SMLABT). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlatb(uint32_t x, uint32_t y, int32_t acc)
{
    return __smlatb((int32_t)x, (int32_t)y, acc);
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlabt(uint32_t x, uint32_t y, int32_t acc)
{
    return __smlabt((int32_t)x, (int32_t)y, acc);
}

/* Bytes 0 and 2 of x, each sign-extended to a 16-bit half (SXTB16). */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_sxtb16(uint32_t x)
{
    return __sxtb16(x);
}

/* Bytes 1 and 3 of x, each sign-extended to a 16-bit half: SXTB16 with ROR #8, one instruction
   (GCC 12's <arm_acle.h> has no __ror, and builds __sxtb16 of a rotate from two). */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_sxtb16_ror8(uint32_t x)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}

/* a's halves plus bytes 0 and 2 of x sign-extended (SXTAB16). */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_sxtab16(uint32_t a, uint32_t x)
{
    return __sxtab16(a, x);
}

/* Halves added, each saturated to int16 (QADD16). */
static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_qadd16(uint32_t a, uint32_t b)
{
    return __qadd16(a, b);
}

/* acc + the dot product of the four int8 of w with the values whose halves xe (values 0 and 2)
   and xo (1 and 3) hold: SXTB16, SMLAD, SXTB16 ROR #8, SMLAD through one scratch register (GCC 12
   gives each spread word a register of its own, and spills in four-row loops). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlad_spread(uint32_t xe, uint32_t xo, uint32_t w, int32_t acc)
{
    uint32_t t;
    __asm__("sxtb16 %1, %2\n\tsmlad %0, %3, %1, %0\n\tsxtb16 %1, %2, ror #8\n\tsmlad %0, %4, %1, %0"
            : "+r"(acc), "=&r"(t) : "r"(w), "r"(xe), "r"(xo));
    return acc;
}

/* acc + the high word of x * y + 2^31, rounded: (acc * 2^32 + x * y + 2^31) >> 32 (SMMLAR; GCC 12's
   <arm_acle.h> has no intrinsic for it). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smmlar(int32_t x, int32_t y, int32_t acc)
{
    int32_t r;
    __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(y), "r"(acc));
    return r;
}

/* x saturated to a signed n-bit value (SSAT); n must be a constant. */
#define tinyaot_ssat(x, n) __ssat((x), (n))

#else

#define TINYAOT_ACLE_DSP 0

static TINYAOT_ALWAYS_INLINE void tinyaot_load2_next(const uint32_t **p, uint32_t *lo, uint32_t *hi)
{
    *lo = (*p)[0];
    *hi = (*p)[1];
    *p += 2;
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_half_lo(uint32_t x)
{
    return (int16_t)(x & 0xFFFFu);
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_half_hi(uint32_t x)
{
    return (int16_t)(x >> 16);
}

static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_halves(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16);
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlad(uint32_t x, uint32_t y, int32_t acc)
{
    /* Worked in uint32_t: the instruction's sum wraps (setting the Q flag, which no kernel reads). */
    const uint32_t lo = (uint32_t)(tinyaot_half_lo(x) * tinyaot_half_lo(y));
    const uint32_t hi = (uint32_t)(tinyaot_half_hi(x) * tinyaot_half_hi(y));
    return (int32_t)((uint32_t)acc + lo + hi);
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlabb(uint32_t x, uint32_t y, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)(tinyaot_half_lo(x) * tinyaot_half_lo(y)));
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlatt(uint32_t x, uint32_t y, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)(tinyaot_half_hi(x) * tinyaot_half_hi(y)));
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlatb(uint32_t x, uint32_t y, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)(tinyaot_half_hi(x) * tinyaot_half_lo(y)));
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlabt(uint32_t x, uint32_t y, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)(tinyaot_half_lo(x) * tinyaot_half_hi(y)));
}

static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_sxtb16(uint32_t x)
{
    return tinyaot_halves((int8_t)(x & 0xFFu), (int8_t)((x >> 16) & 0xFFu));
}

static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_sxtb16_ror8(uint32_t x)
{
    return tinyaot_halves((int8_t)((x >> 8) & 0xFFu), (int8_t)(x >> 24));
}

static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_sxtab16(uint32_t a, uint32_t x)
{
    const uint32_t e = tinyaot_sxtb16(x);
    return tinyaot_halves(tinyaot_half_lo(a) + tinyaot_half_lo(e), tinyaot_half_hi(a) + tinyaot_half_hi(e));
}

static TINYAOT_ALWAYS_INLINE uint32_t tinyaot_qadd16(uint32_t a, uint32_t b)
{
    return tinyaot_halves(tinyaot_clamp_i32(tinyaot_half_lo(a) + tinyaot_half_lo(b), -32768, 32767),
                          tinyaot_clamp_i32(tinyaot_half_hi(a) + tinyaot_half_hi(b), -32768, 32767));
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smlad_spread(uint32_t xe, uint32_t xo, uint32_t w, int32_t acc)
{
    return tinyaot_smlad(xo, tinyaot_sxtb16_ror8(w), tinyaot_smlad(xe, tinyaot_sxtb16(w), acc));
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_smmlar(int32_t x, int32_t y, int32_t acc)
{
    /* in uint64_t: the instruction wraps */
    const uint64_t sum = ((uint64_t)(uint32_t)acc << 32) + (uint64_t)((int64_t)x * y) + 0x80000000u;
    return (int32_t)(uint32_t)(sum >> 32);
}

static TINYAOT_ALWAYS_INLINE int32_t tinyaot_ssat(int32_t x, int32_t n)
{
    const int32_t hi = (int32_t)((1u << (n - 1)) - 1u);
    return tinyaot_clamp_i32(x, -hi - 1, hi);
}

#endif

#endif /* TINYAOT_ACLE_H */
