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

/* 16 bytes at p (VLDRB.S8). */
static inline tinyaot_s8x16 tinyaot_vld_s8(const int8_t *p)
{
    return vldrbq_s8(p);
}

/* acc + the dot product of x and y's 16 lanes (VMLADAVA.S8). */
static inline int32_t tinyaot_vmladava_s8(int32_t acc, tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    return vmladavaq_s8(acc, x, y);
}

/* The dot product of x and y's 16 lanes (VMLADAV.S8). */
static inline int32_t tinyaot_vmladav_s8(tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    return vmladavq_s8(x, y);
}

/* 16 bytes to p (VSTRB.8). */
static inline void tinyaot_vst_s8(int8_t *p, tinyaot_s8x16 v)
{
    vstrbq_s8(p, v);
}

/* The active lanes of v to p, no other byte touched (VSTRB.8 predicated). */
static inline void tinyaot_vst_s8_p(int8_t *p, tinyaot_s8x16 v, tinyaot_pred lanes)
{
    vstrbq_p_s8(p, v, lanes);
}

typedef int32x4_t tinyaot_s32x4;
typedef uint32x4_t tinyaot_u32x4;

/* 4 words at p (VLDRW.32). */
static inline tinyaot_s32x4 tinyaot_vld_s32(const int32_t *p)
{
    return vldrwq_s32(p);
}

static inline tinyaot_u32x4 tinyaot_vld_u32(const uint32_t *p)
{
    return vldrwq_u32(p);
}

/* x shifted left by s >= 0 in each lane, bits above 32 lost (VSHL.S32 by a register). */
static inline tinyaot_s32x4 tinyaot_vshl_s32(tinyaot_s32x4 x, int32_t s)
{
    return vshlq_r_s32(x, s);
}

/* The high half of 2 x x x m rounded, saturated (VQRDMULH.S32 by a scalar). */
static inline tinyaot_s32x4 tinyaot_vqrdmulh_s32(tinyaot_s32x4 x, int32_t m)
{
    return vqrdmulhq_n_s32(x, m);
}

/* x & y (VAND). */
static inline tinyaot_s32x4 tinyaot_vand_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    return vandq_s32(x, y);
}

/* x >> 31 arithmetic (VSHR.S32 #31): -1 where negative. */
static inline tinyaot_s32x4 tinyaot_vsign_s32(tinyaot_s32x4 x)
{
    return vshrq_n_s32(x, 31);
}

/* x + y saturated (VQADD.S32). */
static inline tinyaot_s32x4 tinyaot_vqadd_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    return vqaddq_s32(x, y);
}

/* x shifted by s (a negative s: right, rounding half up; VRSHL.S32 by a register). */
static inline tinyaot_s32x4 tinyaot_vrshl_s32(tinyaot_s32x4 x, int32_t s)
{
    return vrshlq_n_s32(x, s);
}

static inline tinyaot_s32x4 tinyaot_vdup_s32(int32_t v)
{
    return vdupq_n_s32(v);
}

/* The vector {a0, a1, a2, a3} (VDUP and three VMOV to a lane: no trip through memory). */
static inline tinyaot_s32x4 tinyaot_vcreate_s32(int32_t a0, int32_t a1, int32_t a2, int32_t a3)
{
    return vsetq_lane_s32(a3, vsetq_lane_s32(a2, vsetq_lane_s32(a1, vdupq_n_s32(a0), 1), 2), 3);
}

/* x + v (VADD.I32 by a scalar). */
static inline tinyaot_s32x4 tinyaot_vadd_n_s32(tinyaot_s32x4 x, int32_t v)
{
    return vaddq_n_s32(x, v);
}

static inline tinyaot_s32x4 tinyaot_vmax_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    return vmaxq_s32(x, y);
}

static inline tinyaot_s32x4 tinyaot_vmin_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    return vminq_s32(x, y);
}

/* Lane i's low byte to base[offset[i]] (VSTRB.32 scatter). */
static inline void tinyaot_vst_scatter_s8(int8_t *base, tinyaot_u32x4 offset, tinyaot_s32x4 v)
{
    vstrbq_scatter_offset_s32(base, offset, v);
}

/* For the depthwise kernel (tinyaot_depthwise_conv2d_s8_mve.h): byte products widened to
   16 bits, 16-bit lanes widened to 32, narrowed back, and the per-lane requantization. */
typedef int16x8_t tinyaot_s16x8;

/* The products of x and y's even (B) or odd (T) byte lanes, 16 bits each (VMULLB/VMULLT.S8). */
static inline tinyaot_s16x8 tinyaot_vmullb_s8(tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    return vmullbq_int_s8(x, y);
}

static inline tinyaot_s16x8 tinyaot_vmullt_s8(tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    return vmulltq_int_s8(x, y);
}

/* x + y, 16-bit lanes wrapping (VADD.I16). */
static inline tinyaot_s16x8 tinyaot_vadd_s16(tinyaot_s16x8 x, tinyaot_s16x8 y)
{
    return vaddq_s16(x, y);
}

/* x's even (B) or odd (T) 16-bit lanes sign-extended to 32 bits (VMOVLB/VMOVLT.S16). */
static inline tinyaot_s32x4 tinyaot_vmovlb_s16(tinyaot_s16x8 x)
{
    return vmovlbq_s16(x);
}

static inline tinyaot_s32x4 tinyaot_vmovlt_s16(tinyaot_s16x8 x)
{
    return vmovltq_s16(x);
}

/* x + y, wrapping (VADD.I32). */
static inline tinyaot_s32x4 tinyaot_vadd_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    return vaddq_s32(x, y);
}

/* Per lane: x shifted left by s (VSHL.S32 by a vector, s >= 0), the rounded doubling high half
   of x * m (VQRDMULH.S32), x shifted by s (VRSHL.S32 by a vector, s <= 0: right, rounding). */
static inline tinyaot_s32x4 tinyaot_vshlv_s32(tinyaot_s32x4 x, tinyaot_s32x4 s)
{
    return vshlq_s32(x, s);
}

static inline tinyaot_s32x4 tinyaot_vqrdmulhv_s32(tinyaot_s32x4 x, tinyaot_s32x4 m)
{
    return vqrdmulhq_s32(x, m);
}

static inline tinyaot_s32x4 tinyaot_vrshlv_s32(tinyaot_s32x4 x, tinyaot_s32x4 s)
{
    return vrshlq_s32(x, s);
}

/* even's lanes to the even (B), odd's to the odd (T) halves of a vector of half-width lanes,
   each saturated to the narrower type (VQMOVNB then VQMOVNT; into odd's register, whose
   every half they overwrite: no undefined vector read from the stack). */
static inline tinyaot_s16x8 tinyaot_vqmovn_s32(tinyaot_s32x4 even, tinyaot_s32x4 odd)
{
    return vqmovntq_s32(vqmovnbq_s32(vreinterpretq_s16_s32(odd), even), odd);
}

static inline tinyaot_s8x16 tinyaot_vqmovn_s16(tinyaot_s16x8 even, tinyaot_s16x8 odd)
{
    return vqmovntq_s16(vqmovnbq_s16(vreinterpretq_s8_s16(odd), even), odd);
}

/* x clamped to [lo, hi] per byte lane (VMAX.S8, VMIN.S8). */
static inline tinyaot_s8x16 tinyaot_vclamp_s8(tinyaot_s8x16 x, tinyaot_s8x16 lo, tinyaot_s8x16 hi)
{
    return vminq_s8(vmaxq_s8(x, lo), hi);
}

static inline tinyaot_s8x16 tinyaot_vdup_s8(int8_t v)
{
    return vdupq_n_s8(v);
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

static inline tinyaot_s8x16 tinyaot_vld_s8(const int8_t *p)
{
    return tinyaot_vld_s8_z(p, 16u);
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

static inline int32_t tinyaot_vmladav_s8(tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    return tinyaot_vmladava_s8(0, x, y);
}

static inline void tinyaot_vst_s8_p(int8_t *p, tinyaot_s8x16 v, tinyaot_pred lanes)
{
    uint32_t i;
    for (i = 0; i < lanes; i++) {
        p[i] = v.lane[i];
    }
}

static inline void tinyaot_vst_s8(int8_t *p, tinyaot_s8x16 v)
{
    tinyaot_vst_s8_p(p, v, 16u);
}

typedef struct {
    int32_t lane[4];
} tinyaot_s32x4;
typedef struct {
    uint32_t lane[4];
} tinyaot_u32x4;

static inline tinyaot_s32x4 tinyaot_vld_s32(const int32_t *p)
{
    tinyaot_s32x4 v;
    int i;
    for (i = 0; i < 4; i++) {
        v.lane[i] = p[i];
    }
    return v;
}

static inline tinyaot_u32x4 tinyaot_vld_u32(const uint32_t *p)
{
    tinyaot_u32x4 v;
    int i;
    for (i = 0; i < 4; i++) {
        v.lane[i] = p[i];
    }
    return v;
}

static inline tinyaot_s32x4 tinyaot_vshl_s32(tinyaot_s32x4 x, int32_t s)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = (int32_t)((uint32_t)x.lane[i] << s);
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vqrdmulh_s32(tinyaot_s32x4 x, int32_t m)
{
    int i;
    for (i = 0; i < 4; i++) {
        const int64_t product = 2 * (int64_t)x.lane[i] * m + ((int64_t)1 << 31);
        x.lane[i] = x.lane[i] == INT32_MIN && m == INT32_MIN ? INT32_MAX : (int32_t)(product >> 32);
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vand_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] &= y.lane[i];
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vsign_s32(tinyaot_s32x4 x)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = x.lane[i] < 0 ? -1 : 0;
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vqadd_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    int i;
    for (i = 0; i < 4; i++) {
        const int64_t sum = (int64_t)x.lane[i] + y.lane[i];
        x.lane[i] = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int32_t)sum;
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vrshl_s32(tinyaot_s32x4 x, int32_t s)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = s >= 0 ? (int32_t)((uint32_t)x.lane[i] << s)
                           : (int32_t)(((int64_t)x.lane[i] + ((int64_t)1 << (-s - 1))) >> -s);
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vdup_s32(int32_t v)
{
    tinyaot_s32x4 x;
    x.lane[0] = x.lane[1] = x.lane[2] = x.lane[3] = v;
    return x;
}

static inline tinyaot_s32x4 tinyaot_vcreate_s32(int32_t a0, int32_t a1, int32_t a2, int32_t a3)
{
    tinyaot_s32x4 x;
    x.lane[0] = a0, x.lane[1] = a1, x.lane[2] = a2, x.lane[3] = a3;
    return x;
}

static inline tinyaot_s32x4 tinyaot_vadd_n_s32(tinyaot_s32x4 x, int32_t v)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = (int32_t)((uint32_t)x.lane[i] + (uint32_t)v);
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vmax_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = x.lane[i] > y.lane[i] ? x.lane[i] : y.lane[i];
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vmin_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = x.lane[i] < y.lane[i] ? x.lane[i] : y.lane[i];
    }
    return x;
}

static inline void tinyaot_vst_scatter_s8(int8_t *base, tinyaot_u32x4 offset, tinyaot_s32x4 v)
{
    int i;
    for (i = 0; i < 4; i++) {
        base[offset.lane[i]] = (int8_t)(uint8_t)((uint32_t)v.lane[i] & 0xffu);
    }
}

typedef struct {
    int16_t lane[8];
} tinyaot_s16x8;

static inline tinyaot_s16x8 tinyaot_vmullb_s8(tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    tinyaot_s16x8 r;
    int i;
    for (i = 0; i < 8; i++) {
        r.lane[i] = (int16_t)(x.lane[2 * i] * y.lane[2 * i]);
    }
    return r;
}

static inline tinyaot_s16x8 tinyaot_vmullt_s8(tinyaot_s8x16 x, tinyaot_s8x16 y)
{
    tinyaot_s16x8 r;
    int i;
    for (i = 0; i < 8; i++) {
        r.lane[i] = (int16_t)(x.lane[2 * i + 1] * y.lane[2 * i + 1]);
    }
    return r;
}

static inline tinyaot_s16x8 tinyaot_vadd_s16(tinyaot_s16x8 x, tinyaot_s16x8 y)
{
    int i;
    for (i = 0; i < 8; i++) {
        x.lane[i] = (int16_t)(uint16_t)((uint32_t)x.lane[i] + (uint32_t)y.lane[i]);
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vmovlb_s16(tinyaot_s16x8 x)
{
    tinyaot_s32x4 r;
    int i;
    for (i = 0; i < 4; i++) {
        r.lane[i] = x.lane[2 * i];
    }
    return r;
}

static inline tinyaot_s32x4 tinyaot_vmovlt_s16(tinyaot_s16x8 x)
{
    tinyaot_s32x4 r;
    int i;
    for (i = 0; i < 4; i++) {
        r.lane[i] = x.lane[2 * i + 1];
    }
    return r;
}

static inline tinyaot_s32x4 tinyaot_vadd_s32(tinyaot_s32x4 x, tinyaot_s32x4 y)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = (int32_t)((uint32_t)x.lane[i] + (uint32_t)y.lane[i]);
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vshlv_s32(tinyaot_s32x4 x, tinyaot_s32x4 s)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = tinyaot_vshl_s32(tinyaot_vdup_s32(x.lane[i]), s.lane[i]).lane[0];
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vqrdmulhv_s32(tinyaot_s32x4 x, tinyaot_s32x4 m)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = tinyaot_vqrdmulh_s32(tinyaot_vdup_s32(x.lane[i]), m.lane[i]).lane[0];
    }
    return x;
}

static inline tinyaot_s32x4 tinyaot_vrshlv_s32(tinyaot_s32x4 x, tinyaot_s32x4 s)
{
    int i;
    for (i = 0; i < 4; i++) {
        x.lane[i] = tinyaot_vrshl_s32(tinyaot_vdup_s32(x.lane[i]), s.lane[i]).lane[0];
    }
    return x;
}

static inline int32_t tinyaot_saturate(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static inline tinyaot_s16x8 tinyaot_vqmovn_s32(tinyaot_s32x4 even, tinyaot_s32x4 odd)
{
    tinyaot_s16x8 r;
    int i;
    for (i = 0; i < 4; i++) {
        r.lane[2 * i] = (int16_t)tinyaot_saturate(even.lane[i], INT16_MIN, INT16_MAX);
        r.lane[2 * i + 1] = (int16_t)tinyaot_saturate(odd.lane[i], INT16_MIN, INT16_MAX);
    }
    return r;
}

static inline tinyaot_s8x16 tinyaot_vqmovn_s16(tinyaot_s16x8 even, tinyaot_s16x8 odd)
{
    tinyaot_s8x16 r;
    int i;
    for (i = 0; i < 8; i++) {
        r.lane[2 * i] = (int8_t)tinyaot_saturate(even.lane[i], INT8_MIN, INT8_MAX);
        r.lane[2 * i + 1] = (int8_t)tinyaot_saturate(odd.lane[i], INT8_MIN, INT8_MAX);
    }
    return r;
}

static inline tinyaot_s8x16 tinyaot_vclamp_s8(tinyaot_s8x16 x, tinyaot_s8x16 lo, tinyaot_s8x16 hi)
{
    int i;
    for (i = 0; i < 16; i++) {
        x.lane[i] = (int8_t)tinyaot_saturate(x.lane[i], lo.lane[i], hi.lane[i]);
    }
    return x;
}

static inline tinyaot_s8x16 tinyaot_vdup_s8(int8_t v)
{
    tinyaot_s8x16 x;
    int i;
    for (i = 0; i < 16; i++) {
        x.lane[i] = v;
    }
    return x;
}

#endif

/*
 * Four pixels' sums with two filters over chunks >= 1 chunks of 16 bytes: s[k] += pixel k's
 * chunk . filter 0's and s[4 + k] += pixel k's . filter 1's, x laid out [chunk][pixel][16], w
 * [chunk][filter][16]; returns w past its chunks (the next pair's). With GCC on the core in
 * assembly: VMLADAVA accumulates into an even register, and the eight sums take all of r0-r12
 * and lr (GCC's loops of the intrinsics move them around, its LE loop keeps lr): 6 loads and 8
 * VMLADAVAs a chunk, a SUBS/BNE loop. Elsewhere (the host's C models, other compilers) the
 * same loop of the intrinsics.
 */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && defined(__GNUC__) && !defined(__clang__)
static inline const int8_t *tinyaot_vmladava_4x2_s8(const int8_t *x, const int8_t *w, int32_t chunks, int32_t s[8])
{
    int32_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], b0 = s[4], b1 = s[5], b2 = s[6], b3 = s[7];
    __asm__("1:\n\t"
            "vldrb.8 q0, [%[w]], #16\n\t"
            "vldrb.8 q1, [%[w]], #16\n\t"
            "vldrb.8 q2, [%[x]], #16\n\t"
            "vmladava.s8 %[a0], q2, q0\n\t"
            "vmladava.s8 %[b0], q2, q1\n\t"
            "vldrb.8 q2, [%[x]], #16\n\t"
            "vmladava.s8 %[a1], q2, q0\n\t"
            "vmladava.s8 %[b1], q2, q1\n\t"
            "vldrb.8 q2, [%[x]], #16\n\t"
            "vmladava.s8 %[a2], q2, q0\n\t"
            "vmladava.s8 %[b2], q2, q1\n\t"
            "vldrb.8 q2, [%[x]], #16\n\t"
            "vmladava.s8 %[a3], q2, q0\n\t"
            "vmladava.s8 %[b3], q2, q1\n\t"
            "subs %[n], #1\n\t"
            "bne 1b"
            : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [b0] "+Te"(b0), [b1] "+Te"(b1),
              [b2] "+Te"(b2), [b3] "+Te"(b3), [x] "+r"(x), [w] "+r"(w), [n] "+r"(chunks)
            :
            : "q0", "q1", "q2", "memory", "cc");
    s[0] = a0, s[1] = a1, s[2] = a2, s[3] = a3, s[4] = b0, s[5] = b1, s[6] = b2, s[7] = b3;
    return w;
}
#else
static inline const int8_t *tinyaot_vmladava_4x2_s8(const int8_t *x, const int8_t *w, int32_t chunks, int32_t s[8])
{
    int32_t k;
    for (; chunks > 0; chunks--, x += 64, w += 32) {
        for (k = 0; k < 4; k++) {
            s[k] = tinyaot_vmladava_s8(s[k], tinyaot_vld_s8(x + 16 * k), tinyaot_vld_s8(w));
            s[4 + k] = tinyaot_vmladava_s8(s[4 + k], tinyaot_vld_s8(x + 16 * k), tinyaot_vld_s8(w + 16));
        }
    }
    return w;
}
#endif

/*
 * x * multiplier * 2^(left + right) in each lane (left >= 0, right <= 0: the shift split, as
 * a table built ahead holds it), as TFLite's MultiplyByQuantizedMultiplier rounds it (double
 * rounding): VQRDMULH after the left shift, then RoundingDivideByPOT as CMSIS-NN's
 * arm_divide_by_power_of_two_mve (a negative value's rounding fixed up, then VRSHL).
 */
static inline tinyaot_s32x4 tinyaot_vrequantize_s32(tinyaot_s32x4 x, int32_t multiplier, int32_t left, int32_t right)
{
    const tinyaot_s32x4 high = tinyaot_vqrdmulh_s32(tinyaot_vshl_s32(x, left), multiplier);
    const tinyaot_s32x4 fixup = tinyaot_vsign_s32(tinyaot_vand_s32(high, tinyaot_vdup_s32(right)));
    return tinyaot_vrshl_s32(tinyaot_vqadd_s32(high, fixup), right);
}

/* The same with left 0 and right < 0 (the common case): the fix-up on every lane, no left shift. */
static inline tinyaot_s32x4 tinyaot_vrequantize_right_s32(tinyaot_s32x4 x, int32_t multiplier, int32_t right)
{
    const tinyaot_s32x4 high = tinyaot_vqrdmulh_s32(x, multiplier);
    return tinyaot_vrshl_s32(tinyaot_vqadd_s32(high, tinyaot_vsign_s32(high)), right);
}

#endif /* TINYAOT_MVE_H */
