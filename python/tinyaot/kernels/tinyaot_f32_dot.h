/*
 * tinyaot_f32_dot.h - a float32 dot product summed from 0.0f in order
 * (acc += x[i] * w[i], each product and each sum rounded to float32), bit for bit
 * what the soft-float library computes, at a fraction of its cost on cores
 * without an FPU.
 *
 * IEEE-754 single precision with round-to-nearest-even is deterministic, so any
 * correct implementation gives the library's bits. Here the operands are split
 * into sign, exponent and 24-bit mantissa (x once per call site with
 * tinyaot_f32_unpack, the weights as they are read) and each multiply and add is
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

/* A float split for the integer path: m = 1.mantissa as 24 bits, e the biased
 * exponent, s the sign bit in place (bit 31). A value that is not normal finite
 * gets e = TINYAOT_F32_NOT_NORMAL, which pushes every product out of range. */
struct tinyaot_f32_unpacked {
    uint32_t m;
    int32_t e;
    uint32_t s;
};

#define TINYAOT_F32_NOT_NORMAL (-1024)

static inline float tinyaot_f32_from_bits(uint32_t u)
{
    union {
        uint32_t u;
        float f;
    } bits;
    bits.u = u;
    return bits.f;
}

static inline void tinyaot_f32_unpack(const float *x, int32_t n, struct tinyaot_f32_unpacked *out)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        const uint32_t u = tinyaot_f32_bits(x[i]);
        const int32_t e = (int32_t)((u >> 23) & 0xFFu);
        out[i].m = (u & 0x7FFFFFu) | 0x800000u;
        out[i].e = (e == 0 || e == 0xFF) ? TINYAOT_F32_NOT_NORMAL : e;
        out[i].s = u & 0x80000000u;
    }
}

/* The 48-bit product of two 24-bit mantissas as hi * 2^24 + lo (lo < 2^24). */
static inline uint32_t tinyaot_f32_mul24(uint32_t a, uint32_t b, uint32_t *lo)
{
#if !TINYAOT_LONG_MULTIPLY
    /* No long multiply: 12-bit halves, four 32-bit products. */
    const uint32_t ah = a >> 12, al = a & 0xFFFu, bh = b >> 12, bl = b & 0xFFFu;
    const uint32_t mid = ah * bl + al * bh;
    uint32_t low = ((mid & 0xFFFu) << 12) + al * bl;
    const uint32_t hi = ah * bh + (mid >> 12) + (low >> 24);
    *lo = low & 0xFFFFFFu;
    return hi;
#else
    const uint64_t p = (uint64_t)a * b;
    *lo = (uint32_t)p & 0xFFFFFFu;
    return (uint32_t)(p >> 24);
#endif
}

/* The packed float of a normal or zero unpacked accumulator (e = 0: a signed zero). */
static inline float tinyaot_f32_pack(uint32_t s, int32_t e, uint32_t m)
{
    return tinyaot_f32_from_bits(e == 0 ? s : s | ((uint32_t)e << 23) | (m & 0x7FFFFFu));
}

/* acc + x * w as the library computes it: the steps the integer path leaves (kept out of its loop). */
static TINYAOT_NOINLINE float tinyaot_f32_mac_library(float acc, float x, float w)
{
    return acc + x * w;
}

/*
 * sum from 0.0f of x[i] * w[i] in order, as the C expression `acc += x[i] * w[i]`
 * (no fused multiply-add); xu is x unpacked by tinyaot_f32_unpack.
 */
static inline float tinyaot_f32_dot(const float *x, const struct tinyaot_f32_unpacked *xu, const float *w,
                                    int32_t n)
{
    uint32_t sa = 0u, ma = 0u; /* the accumulator: +0.0f (ea = 0), else normal */
    int32_t ea = 0, i;
    for (i = 0; i < n; i++) {
        const uint32_t wb = tinyaot_f32_bits(w[i]);
        const int32_t ew = (int32_t)((wb >> 23) & 0xFFu);
        uint32_t lo, mp, sp, rem;
        int32_t ep;
        if (TINYAOT_RARELY((uint32_t)(ew - 1) > 253u)) {
            goto library; /* the weight is not normal finite */
        }
        /* product: round the 48-bit mantissa product to 24 bits, to nearest even */
        mp = tinyaot_f32_mul24(xu[i].m, (wb & 0x7FFFFFu) | 0x800000u, &lo);
        if (mp & 0x800000u) {
            ep = xu[i].e + ew - 126;
            rem = lo;
        } else {
            mp = (mp << 1) | (lo >> 23);
            ep = xu[i].e + ew - 127;
            rem = (lo << 1) & 0xFFFFFFu;
        }
        if (rem > 0x800000u || (rem == 0x800000u && (mp & 1u))) {
            if (++mp == 0x1000000u) {
                mp = 0x800000u;
                ep++;
            }
        }
        if (TINYAOT_RARELY((uint32_t)(ep - 1) > 253u)) {
            goto library; /* overflow, underflow or a non-normal x */
        }
        sp = xu[i].s ^ (wb & 0x80000000u);
        if (ea == 0) {
            sa = sp; /* 0 + p = p for p not zero */
            ea = ep;
            ma = mp;
            continue;
        }
        {
            /* sum: 6 guard bits, the smaller operand's lost bits jammed into its lowest */
            uint32_t big, small, sum;
            int32_t d = ea - ep, e;
            uint32_t s;
            if (d >= 0) {
                big = ma << 6;
                small = mp << 6;
                e = ea;
                s = sa;
            } else {
                big = mp << 6;
                small = ma << 6;
                e = ep;
                s = sp;
                d = -d;
            }
            if (d > 31) {
                small = 1u;
            } else if (d > 0) {
                small = (small >> d) | ((small << (32 - d)) != 0u);
            }
            if (sa == sp) {
                sum = big + small;
                if (sum & 0x40000000u) {
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
                if (sum == 0u) {
                    sa = 0u; /* x + -x = +0 */
                    ea = 0;
                    continue;
                }
                while (!(sum & 0x20000000u)) {
                    sum <<= 1;
                    e--;
                }
            }
            rem = sum & 63u;
            sum >>= 6;
            if (rem > 32u || (rem == 32u && (sum & 1u))) {
                if (++sum == 0x1000000u) {
                    sum = 0x800000u;
                    e++;
                }
            }
            if (TINYAOT_RARELY((uint32_t)(e - 1) > 253u)) {
                goto library; /* overflow or a subnormal sum */
            }
            sa = s;
            ea = e;
            ma = sum;
            continue;
        }
    library: {
        /* this step as the library computes it, then back to the integer path if it can */
        float acc = tinyaot_f32_mac_library(tinyaot_f32_pack(sa, ea, ma), x[i], w[i]);
        uint32_t ab;
        int32_t e;
        ab = tinyaot_f32_bits(acc);
        e = (int32_t)((ab >> 23) & 0xFFu);
        if ((ab & 0x7FFFFFFFu) == 0u) {
            sa = ab; /* a signed zero */
            ea = 0;
        } else if (e != 0 && e != 0xFF) {
            sa = ab & 0x80000000u;
            ea = e;
            ma = (ab & 0x7FFFFFu) | 0x800000u;
        } else {
            for (i++; i < n; i++) {
                acc = tinyaot_f32_mac_library(acc, x[i], w[i]);
            }
            return acc;
        }
    }
    }
    return tinyaot_f32_pack(sa, ea, ma);
}

#endif /* TINYAOT_F32_DOT_H */
