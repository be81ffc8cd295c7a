/*
 * tinyaot_f32_dot.h - a float32 dot product summed from 0.0f in order
 * (acc += x[i] * w[i], each product and each sum rounded to float32), bit for bit
 * what the soft-float library computes, at a fraction of its cost on cores
 * without an FPU.
 *
 * IEEE-754 single precision with round-to-nearest-even is deterministic, so any
 * correct implementation gives the library's bits. Here the operands are split
 * into sign, exponent and 24-bit mantissa (x once per call site with
 * tinyaot_f32_unpack, the constant weights by the generator) and each multiply and add is
 * done in integers, rounded to nearest even after every operation, the
 * accumulator kept unpacked between the adds. Only normal finite operands and
 * results take this path: a zero, subnormal, infinite or NaN operand, and a
 * product or sum that would overflow or leave the normal range, fall back to the
 * C float expression for that one step (the library's own call), so the result
 * is always the library's. tests/host/test_lstm.py checks the routines bit for bit
 * against the host's IEEE float.
 */
#ifndef TINYAOT_F32_DOT_H
#define TINYAOT_F32_DOT_H

#include <stdint.h>

#include "tinyaot_common.h"
#include "tinyaot_f32_compare.h"

/*
 * The integer path is for where float arithmetic is a library call: Arm cores
 * without a single-precision FPU, and the host (where the tests check it). With
 * an FPU the callers multiply and add floats (TINYAOT_F32_DOT_INTEGER 0).
 */
#ifndef TINYAOT_F32_DOT_INTEGER
#if defined(__ARM_FP) && (__ARM_FP & 4)
#define TINYAOT_F32_DOT_INTEGER 0
#else
#define TINYAOT_F32_DOT_INTEGER 1
#endif
#endif

/*
 * x split for the integer path: m = 1.mantissa with its top bit at bit 31, es =
 * the sign bit in place (bit 31) | the biased exponent. A value that is not
 * normal finite keeps its bits in m and gets TINYAOT_F32_NOT_NORMAL as its
 * exponent, which pushes every product out of range.
 *
 * The weights, split by the generator (tinyaot/ops/lstm.py), come as two arrays
 * of the same layout: the floats' bits (what an FPU multiplies), and 1.mantissa
 * with its top bit at bit 30 (0 for a weight that is not normal finite, which
 * the product then catches).
 */
struct tinyaot_f32_unpacked {
    uint32_t m;
    uint32_t es;
};

#define TINYAOT_F32_NOT_NORMAL 0x4000u

static inline struct tinyaot_f32_unpacked tinyaot_f32_split(float f)
{
    const uint32_t u = tinyaot_f32_bits(f), e = (u >> 23) & 0xFFu;
    struct tinyaot_f32_unpacked out;
    if (e == 0u || e == 0xFFu) {
        out.m = u;
        out.es = (u & 0x80000000u) | TINYAOT_F32_NOT_NORMAL;
    } else {
        out.m = ((u & 0x7FFFFFu) | 0x800000u) << 8;
        out.es = (u & 0x80000000u) | e;
    }
    return out;
}

/* The float a split x holds. */
static inline float tinyaot_f32_value(const struct tinyaot_f32_unpacked *x)
{
    if ((x->es & 0x7FFFFFFFu) == TINYAOT_F32_NOT_NORMAL) {
        return tinyaot_f32_from_bits(x->m);
    }
    return tinyaot_f32_from_bits((x->es & 0x80000000u) | (x->es << 23) | ((x->m >> 8) & 0x7FFFFFu));
}

/* x split into out, for tinyaot_f32_dot. */
static inline void tinyaot_f32_unpack(const float *x, int32_t n, struct tinyaot_f32_unpacked *out)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        out[i] = tinyaot_f32_split(x[i]);
    }
}

/* The top 32 bits of a * b; *lo gets the low 32 (only tested for 0 by the caller). */
static inline uint32_t tinyaot_f32_mul_high(uint32_t a, uint32_t b, uint32_t *lo)
{
#if TINYAOT_LONG_MULTIPLY
    const uint64_t p = (uint64_t)a * b;
    *lo = (uint32_t)p;
    return (uint32_t)(p >> 32);
#else
    /* No long multiply: 16-bit halves, four 32-bit products. */
    const uint32_t ah = a >> 16, al = a & 0xFFFFu, bh = b >> 16, bl = b & 0xFFFFu;
    const uint32_t cross1 = ah * bl, cross2 = al * bh, low = al * bl;
    const uint32_t mid = (low >> 16) + (cross1 & 0xFFFFu) + (cross2 & 0xFFFFu);
    *lo = (mid << 16) | (low & 0xFFFFu);
    return ah * bh + (cross1 >> 16) + (cross2 >> 16) + (mid >> 16);
#endif
}

/*
 * A mantissa with its top bit at bit 30 and 7 bits below the float's 24, rounded
 * to nearest even at bit 7 (bits 6..0 cleared); `sticky` jammed into bit 0 says
 * whether anything below was not zero. A carry out of the mantissa gives 2^31,
 * which the caller leaves to the library.
 */
static inline uint32_t tinyaot_f32_round7(uint32_t m)
{
    return (m + 0x3Fu + ((m >> 7) & 1u)) & ~0x7Fu;
}

/*
 * The sum of a normal `big` (sign s, exponent e) and `small` (exponent e - d, d >= 0;
 * a zero accumulator is a small 0), both mantissas as tinyaot_f32_round7 leaves
 * them, `same` when their signs agree: the smaller shifted to the larger's
 * exponent, its lost bits jammed into bit 0, then rounded. Returns 0, writing
 * nothing, where the library must take the step.
 */
static inline int tinyaot_f32_sum(uint32_t big, uint32_t small, int32_t d, int32_t e, uint32_t s, int same,
                                  uint32_t *sa, int32_t *ea, uint32_t *ma)
{
    uint32_t sum;
    if (d > 7) { /* bits 6..0 are zero: a shift of up to 7 loses nothing */
        if (d > 31) {
            d = 31;
        }
        small = (small >> d) | ((small << (32 - d)) != 0u);
    } else {
        small >>= d;
    }
    if (same) {
        sum = big + small;
        if (sum & 0x80000000u) {
            sum = (sum >> 1) | (sum & 1u);
            e++;
        }
    } else {
        if (small > big) { /* equal exponents only */
            sum = small - big;
            s ^= 0x80000000u;
        } else {
            sum = big - small;
        }
        if (TINYAOT_RARELY(sum == 0u)) {
            *sa = 0u; /* x + -x = +0 */
            *ea = 0;
            *ma = 0u;
            return 1;
        }
        while (!(sum & 0x40000000u)) {
            sum <<= 1;
            e--;
        }
    }
    sum = tinyaot_f32_round7(sum);
    if (TINYAOT_RARELY(sum & 0x80000000u) || TINYAOT_RARELY((uint32_t)(e - 1) > 253u)) {
        return 0; /* overflow, a subnormal sum or (rarely) one rounded up to 2.0 */
    }
    *sa = s;
    *ea = e;
    *ma = sum;
    return 1;
}

/* The float of the accumulator below (ea = 0: a signed zero). */
static inline float tinyaot_f32_pack(uint32_t s, int32_t e, uint32_t m)
{
    return tinyaot_f32_from_bits(e == 0 ? s : s | ((uint32_t)e << 23) | ((m >> 7) & 0x7FFFFFu));
}

/* acc + x * w as the library computes it: the steps the integer path leaves (kept out of its loop). */
static TINYAOT_NOINLINE float tinyaot_f32_mac_library(float acc, float x, float w)
{
    return acc + x * w;
}

/*
 * sum from 0.0f of x[i] * w[i] in order, as the C expression `acc += x[i] * w[i]`
 * (no fused multiply-add); xu is x unpacked by tinyaot_f32_unpack, w the weights
 * and wm their mantissas (see above).
 *
 * The accumulator: sign sa (bit 31), biased exponent ea and mantissa ma (top bit
 * at bit 30, bits 6..0 zero); ea = 0 with ma = 0 is a zero, which the sum below
 * handles as any smaller operand (0 + p = p exactly).
 */
static inline float tinyaot_f32_dot(const struct tinyaot_f32_unpacked *xu, const float *w, const uint32_t *wm,
                                    int32_t n)
{
    const struct tinyaot_f32_unpacked *const end = xu + n;
    uint32_t sa = 0u, ma = 0u;
    int32_t ea = 0;
    for (; xu != end; xu++, w++, wm++) {
        const uint32_t wb = tinyaot_f32_bits(*w);
        const uint32_t es = xu->es + ((wb >> 23) & 0xFFu); /* x's sign, the exponents' sum */
        uint32_t lo, mp, sp;
        int32_t ep, d, e;
        /* product: 1.x * 1.w in [2^61, 2^63), its top word normalised to bit 30 and rounded */
        mp = tinyaot_f32_mul_high(xu->m, *wm, &lo);
        ep = (int32_t)(es & 0x7FFFFFFFu) - 126;
        if (!(mp & 0x40000000u)) {
            if (TINYAOT_RARELY(mp == 0u)) {
                goto library; /* the weight is not normal finite */
            }
            mp = (mp << 1) | (lo >> 31);
            lo <<= 1;
            ep--;
        }
        mp = tinyaot_f32_round7(mp | (lo != 0u));
        if (TINYAOT_RARELY(mp & 0x80000000u) || TINYAOT_RARELY((uint32_t)(ep - 1) > 253u)) {
            /* overflow, underflow, an x that is not normal finite, or (rarely) a
             * mantissa rounded up to 2.0: the library's step */
            goto library;
        }
        sp = (es ^ wb) & 0x80000000u;
        /* sum: written out for either operand the larger, so neither is moved */
        d = ea - ep;
        if (d >= 0 ? !tinyaot_f32_sum(ma, mp, d, ea, sa, sa == sp, &sa, &ea, &ma)
                   : !tinyaot_f32_sum(mp, ma, -d, ep, sp, sa == sp, &sa, &ea, &ma)) {
            goto library;
        }
        continue;
    library: {
        /* this step as the library computes it, then back to the integer path if it can */
        const float acc = tinyaot_f32_mac_library(tinyaot_f32_pack(sa, ea, ma), tinyaot_f32_value(xu),
                                                  *w);
        const uint32_t ab = tinyaot_f32_bits(acc);
        e = (int32_t)((ab >> 23) & 0xFFu);
        sa = ab & 0x80000000u;
        if ((ab & 0x7FFFFFFFu) == 0u) {
            ea = 0; /* a signed zero */
            ma = 0u;
        } else if (e != 0 && e != 0xFF) {
            ea = e;
            ma = ((ab << 7) & 0x3FFFFF80u) | 0x40000000u;
        } else {
            float rest = acc;
            for (xu++, w++; xu != end; xu++, w++) {
                rest = tinyaot_f32_mac_library(rest, tinyaot_f32_value(xu), *w);
            }
            return rest;
        }
    }
    }
    return tinyaot_f32_pack(sa, ea, ma);
}

#endif /* TINYAOT_F32_DOT_H */
