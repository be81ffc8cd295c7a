/*
 * tinyaot_common.h - fixed-point helpers shared by the kernels.
 *
 * These reproduce TFLite Micro's reference arithmetic bit for bit
 * (gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT,
 * TFLite's MultiplyByQuantizedMultiplier with double rounding). Everything is
 * static inline: each generated model includes its own private copy.
 */
#ifndef TINYAOT_COMMON_H
#define TINYAOT_COMMON_H

#include <stdint.h>
#include <string.h>

/*
 * TINYAOT_ALWAYS_INLINE: for small helpers whose constant arguments must reach their loops.
 * TINYAOT_NOINLINE: for inner loops that need every register (inlined into a larger loop
 * nest, the compiler spills their sums to the stack); unused: no warning where a model's
 * kernels never call the function.
 * TINYAOT_RARELY(c): c is seldom true, so its branch goes out of the loop's straight line.
 */
#if defined(__GNUC__) || defined(__clang__)
#define TINYAOT_ALWAYS_INLINE inline __attribute__((always_inline))
#define TINYAOT_NOINLINE __attribute__((noinline, unused))
#define TINYAOT_RARELY(c) __builtin_expect(!!(c), 0)
#else
#define TINYAOT_ALWAYS_INLINE inline
#define TINYAOT_NOINLINE
#define TINYAOT_RARELY(c) (c)
#endif

static inline int32_t tinyaot_max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

static inline int32_t tinyaot_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/*
 * One int8 value as TFLM's ADD_N and CUMSUM sum it: less its zero point
 * (offset = -zero point), shifted left by 20 and scaled by exactly 0.5, so
 * shifted by 19; unsigned, so that sums wrap as TFLM's int32 ones do.
 */
static inline uint32_t tinyaot_sum_term_s8(int32_t offset, int32_t value)
{
    return (uint32_t)(offset + value) << 19;
}

/* (a * b * 2) >> 32, rounded to nearest, saturating the one overflow case. */
static inline int32_t tinyaot_sat_rounding_doubling_high_mul(int32_t a, int32_t b)
{
    int64_t ab;
    int32_t nudge;
    if (a == b && a == INT32_MIN) {
        return INT32_MAX;
    }
    ab = (int64_t)a * (int64_t)b;
    nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
    /* Division, not a shift: gemmlowp rounds toward zero here. */
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* x / 2^exponent, rounded to nearest with ties away from zero. */
static inline int32_t tinyaot_rounding_divide_by_pot(int32_t x, int32_t exponent)
{
    const int32_t mask = (int32_t)(((uint32_t)1 << exponent) - 1u);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/*
 * Cores with a 32x32->64 multiply (Cortex-M3 and up) use it; Armv6-M and
 * Armv8-M Baseline (Cortex-M0/M0+/M1/M23) have none, and a 64-bit product
 * there is a library call: they use four 32-bit multiplies instead.
 * -DTINYAOT_LONG_MULTIPLY=0/1 overrides the choice.
 */
#ifndef TINYAOT_LONG_MULTIPLY
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define TINYAOT_LONG_MULTIPLY 0
#else
#define TINYAOT_LONG_MULTIPLY 1
#endif
#endif

/*
 * Convolutions compute two output pixels together (twice the sums) on cores with
 * the registers for it; Armv6-M and Armv8-M Baseline have eight low registers,
 * too few. Up to TINYAOT_PAIR_MAX_CH output channels: the second pixel's outputs
 * wait in a buffer on the stack until the first's window is done, so that no
 * output is written before its own pixel's reads end (ops/overlap.py).
 */
#ifndef TINYAOT_PIXEL_PAIRS
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define TINYAOT_PIXEL_PAIRS 0
#else
#define TINYAOT_PIXEL_PAIRS 1
#endif
#endif
#define TINYAOT_PAIR_MAX_CH 128

#if TINYAOT_LONG_MULTIPLY
/*
 * x * multiplier * 2^shift as TFLite's MultiplyByQuantizedMultiplier rounds it
 * (SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT). gemmlowp's
 * nudge makes the first rounding floor((P + 2^30) / 2^31) for either sign of
 * the product P; the second, h / 2^r to nearest with ties away from zero, is
 * floor((h + 2^(r-1) - [h < 0]) / 2^r), worked in uint32_t where h + 2^(r-1)
 * passes INT32_MAX. Bit-exact with the two reference functions above
 * (tests/host/test_requantize.py).
 */
static inline int32_t tinyaot_requantize_exact(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t left_shift = shift > 0 ? shift : 0;
    const int32_t right_shift = shift > 0 ? 0 : -shift;
    const int32_t a = (int32_t)((uint32_t)x << left_shift);
    /* The product before the saturation test: in the other order GCC 12 built
       it from three multiplies on one path instead of one signed long multiply. */
    int32_t h = (int32_t)(((int64_t)a * multiplier + 0x40000000) >> 31);
    uint32_t t;
    if (a == INT32_MIN && multiplier == INT32_MIN) {
        h = INT32_MAX;  /* the one product that saturates */
    }
    if (right_shift == 0) {
        return h;
    }
    t = (uint32_t)h + (1u << (right_shift - 1)) - (h < 0 ? 1u : 0u);
    return h < 0 ? (int32_t)t >> right_shift : (int32_t)(t >> right_shift);
}

/*
 * The same, both roundings in one 64-bit multiply-accumulate where that is exact,
 * for a right shift r >= 2 (every shift the generator computes but for scales of
 * 1/4 and up): with P = x * multiplier, the result is
 * floor((P + 2^30 + 2^(30+r) - [P < 0] 2^31) / 2^(31+r)) (derived at
 * tinyaot_tensor_requant below; the one product that saturates, INT32_MIN
 * squared, gives 2^(31-r) either way), and 2^(30+r) is a whole number of 2^32,
 * so that is floor((H / 2^(r-2) + 1) / 2) with H the high word of P + 2^30 or
 * P - 2^30, by P's sign. round: 1, or 1 + 2z to add an output offset z on the
 * way (floor((v + 2z) / 2) = floor(v / 2) + z).
 */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_requantize_folded(int32_t x, int32_t multiplier, int32_t shift,
                                                               int32_t round)
{
    /* 2^30 or -2^30 by P's sign: 0x40000000 with the sign bit of x ^ multiplier
       (a zero product rounds to 0 either way) */
    const int32_t nudge = (int32_t)(((uint32_t)(x ^ multiplier) & 0x80000000u) | 0x40000000u);
    const int32_t h = (int32_t)(((int64_t)x * multiplier + nudge) >> 32);
    return ((h >> (-shift - 2)) + round) >> 1;
}

static inline int32_t tinyaot_requantize(int32_t x, int32_t multiplier, int32_t shift)
{
    if (TINYAOT_RARELY(shift > -2)) {
        return tinyaot_requantize_exact(x, multiplier, shift);
    }
    return tinyaot_requantize_folded(x, multiplier, shift, 1);
}
#else
/* floor((u * m + 2^30 - neg) / 2^31) for u, m <= 2^31 and neg 0 or 1: at most 2^31. */
static inline uint32_t tinyaot_q31_magnitude(uint32_t u, uint32_t m, uint32_t neg)
{
    /* u * m = uh*mh * 2^32 + (uh*ml + ul*mh) * 2^16 + ul*ml in 16-bit halves;
       uh, mh <= 2^15, so the middle sum stays below 2^32. */
    const uint32_t ul = u & 0xFFFFu, uh = u >> 16, ml = m & 0xFFFFu, mh = m >> 16;
    const uint32_t mid = uh * ml + ul * mh;
    const uint32_t lo = ul * ml;
    const uint32_t lo_mid = lo + (mid << 16);
    const uint32_t low = lo_mid + (0x40000000u - neg);
    const uint32_t high = uh * mh + (mid >> 16) + (lo_mid < lo) + (low < lo_mid);
    return (high << 1) | (low >> 31);
}

/*
 * x * multiplier * 2^shift as TFLite's MultiplyByQuantizedMultiplier rounds it
 * (SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT), both roundings
 * worked on magnitudes with 32-bit multiplies: with P = |x'| * |multiplier|
 * (x' = x << left shift) and neg = 1 for a negative product, the first is
 * sign * floor((P + 2^30 - neg) / 2^31) and the second, on that magnitude,
 * floor((q + 2^(r-1)) / 2^r) for either sign. Bit-exact with the two reference
 * functions above (tests/host/test_requantize.py). Out of line: the common
 * case takes the shortcut below.
 */
static TINYAOT_NOINLINE int32_t tinyaot_requantize_exact(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t left_shift = shift > 0 ? shift : 0;
    const int32_t right_shift = shift > 0 ? 0 : -shift;
    const int32_t a = (int32_t)((uint32_t)x << left_shift);
    const int32_t sign = (a ^ multiplier) < 0 ? -1 : 0;  /* a zero product comes out 0 either way */
    const uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    const uint32_t um = multiplier < 0 ? 0u - (uint32_t)multiplier : (uint32_t)multiplier;
    uint32_t q = tinyaot_q31_magnitude(ua, um, (uint32_t)-sign);
    q = (q + ((1u << right_shift) >> 1)) >> right_shift;
    q -= q >> 31;  /* 2^31 only for INT32_MIN * INT32_MIN, which saturates */
    return (int32_t)((q ^ (uint32_t)sign) - (uint32_t)sign);
}

/*
 * The same, three multiplies instead of four where that settles it: for a
 * right shift r >= 1 and a multiplier >= 0 (every one the generator computes),
 * q above is base, base + 1, base + 2 or base + 3, with base the sum without
 * the low product ul * ml (below 2^32, so at most 3 units of 2^31 with the
 * 2^30 nudge and the middle sum's cut bits). When all four round to the same
 * floor((q + 2^(r-1)) / 2^r), that is the result; otherwise (about 3 values
 * in 2^r) the exact path decides.
 */
static inline int32_t tinyaot_requantize(int32_t x, int32_t multiplier, int32_t shift)
{
    if (shift < 0 && multiplier >= 0) {
        const int32_t r = -shift;
        const uint32_t neg = (uint32_t)(x >> 31);  /* all ones for a negative x */
        const uint32_t u = ((uint32_t)x ^ neg) - neg;
        const uint32_t uh = u >> 16, ul = u & 0xFFFFu;
        const uint32_t mh = (uint32_t)multiplier >> 16, ml = (uint32_t)multiplier & 0xFFFFu;
        const uint32_t base = ((uh * mh) << 1) + ((uh * ml + ul * mh) >> 15) + (1u << (r - 1));
        const uint32_t y = base >> r;
        if (y == (base + 3u) >> r) {
            return (int32_t)((y ^ neg) - neg);
        }
    }
    return tinyaot_requantize_exact(x, multiplier, shift);
}
#endif

/*
 * tinyaot_requantize for the kernels' per-output step below, out of line
 * without a long multiply: inlined into an output loop on Armv6-M, its dozen
 * values push the loop's own to the stack (hello_world on qemu_cortex_m0:
 * 5 371 -> 4 998 instructions). Loops of their own (SVDF) keep it inline.
 */
#if TINYAOT_LONG_MULTIPLY
static inline
#else
static TINYAOT_NOINLINE
#endif
int32_t tinyaot_requantize_output(int32_t x, int32_t multiplier, int32_t shift)
{
    return tinyaot_requantize(x, multiplier, shift);
}

/* An int32 accumulator to an int8 output: rescaled, moved to the output zero
   point and clamped to the activation range, as the int8 reference kernels end. */
static inline int8_t tinyaot_requantize_s8(int32_t acc, int32_t multiplier, int32_t shift,
                                           int32_t output_offset, int32_t act_min, int32_t act_max)
{
#if TINYAOT_LONG_MULTIPLY
    if (TINYAOT_RARELY(shift > -2)) {
        acc = tinyaot_requantize_exact(acc, multiplier, shift) + output_offset;
    } else {
        acc = tinyaot_requantize_folded(acc, multiplier, shift, 1 + 2 * output_offset);
    }
#else
    acc = tinyaot_requantize_output(acc, multiplier, shift) + output_offset;
#endif
    return (int8_t)tinyaot_clamp_i32(acc, act_min, act_max);
}

/*
 * One multiplier and shift for a whole tensor: with a long multiply, TFLite's two
 * roundings and the output zero point z fold into one multiply-accumulate. For a
 * right shift r >= 1 and a multiplier m >= 0 (every one the generator computes),
 * with P = x * m: floor(floor(A / 2^31) / 2^r) = floor(A / 2^(31 + r)), so
 * floor((floor((P + 2^30) / 2^31) + 2^(r-1) - [h < 0]) / 2^r) + z is
 * floor((P + 2^30 + 2^(30+r) - [x < 0] 2^31 + z 2^(31+r)) / 2^(31+r)): [x < 0]
 * differs from [h < 0] only where h = 0, which rounds to 0 either way. The high
 * word of that sum, shifted right by r - 1, is the result before the clamp.
 * r <= 23 keeps the sum inside int64_t (|P| < 2^62, |z| <= 128).
 */
struct tinyaot_tensor_requant {
    int64_t nudge;              /* 2^30 + 2^(30+r) + z 2^(31+r) */
    int32_t multiplier, high_shift, act_min, act_max;
};

/* Fills *q and returns 1 where the fold applies (see above); 0 otherwise, and
   always on cores without a long multiply. */
static inline int32_t tinyaot_tensor_requant_of(struct tinyaot_tensor_requant *q, int32_t multiplier, int32_t shift,
                                                int32_t output_offset, int32_t act_min, int32_t act_max)
{
#if TINYAOT_LONG_MULTIPLY
    if (multiplier >= 0 && shift <= -1 && shift >= -23 && output_offset >= -128 && output_offset <= 128) {
        const int32_t r = -shift;
        q->nudge = ((int64_t)1 << 30) + ((int64_t)1 << (30 + r)) + (int64_t)output_offset * ((int64_t)1 << (31 + r));
        q->multiplier = multiplier;
        q->high_shift = r - 1;
        q->act_min = act_min;
        q->act_max = act_max;
        return 1;
    }
#else
    (void)q, (void)multiplier, (void)shift, (void)output_offset, (void)act_min, (void)act_max;
#endif
    return 0;
}

/* tinyaot_requantize(acc, ...) + output offset through the tensor's fold
   (tinyaot_tensor_requant_of returned 1). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_tensor_requantize(const struct tinyaot_tensor_requant *q, int32_t acc)
{
    const int64_t sum = q->nudge + (int64_t)acc * q->multiplier - ((int64_t)((uint32_t)acc >> 31) << 31);
    return (int32_t)(sum >> 32) >> q->high_shift;
}

/* tinyaot_requantize_s8 through the tensor's fold. */
static TINYAOT_ALWAYS_INLINE int8_t tinyaot_tensor_requantize_s8(const struct tinyaot_tensor_requant *q, int32_t acc)
{
    return (int8_t)tinyaot_clamp_i32(tinyaot_tensor_requantize(q, acc), q->act_min, q->act_max);
}

/*
 * A kernel's requantization of its output channels, taken from its parameters
 * into a local: output is int8_t, which may alias anything, so the compiler
 * would reload every field of the parameters after each output store.
 */
struct tinyaot_channel_requant {
    const int32_t *multiplier, *shift;
    int32_t channel_mask;       /* -1: multiplier/shift per output channel, 0: one for all (a mask, not a test) */
    int32_t output_offset, act_min, act_max;
};

static inline struct tinyaot_channel_requant tinyaot_channel_requant_of(const int32_t *multiplier,
                                                                        const int32_t *shift, int32_t per_channel,
                                                                        int32_t output_offset, int32_t act_min,
                                                                        int32_t act_max)
{
    struct tinyaot_channel_requant r;
    r.multiplier = multiplier;
    r.shift = shift;
    r.channel_mask = per_channel ? -1 : 0;
    r.output_offset = output_offset;
    r.act_min = act_min;
    r.act_max = act_max;
    return r;
}

/* Output channel oc's accumulator to its int8 output. */
static inline int8_t tinyaot_channel_requantize_s8(const struct tinyaot_channel_requant *r, int32_t oc, int32_t acc)
{
    const int32_t ch = oc & r->channel_mask;
    return tinyaot_requantize_s8(acc, r->multiplier[ch], r->shift[ch], r->output_offset, r->act_min, r->act_max);
}

/* The same for two output pixels' accumulators of channel oc, its multiplier and
   shift loaded once: both outputs are worked out before either is stored. */
static TINYAOT_ALWAYS_INLINE void tinyaot_channel_requantize2_s8(const struct tinyaot_channel_requant *r, int32_t oc,
                                                                 int32_t a, int32_t b, int8_t *out_a, int8_t *out_b)
{
    const int32_t ch = oc & r->channel_mask;
    const int32_t multiplier = r->multiplier[ch], shift = r->shift[ch];
    const int8_t qa = tinyaot_requantize_s8(a, multiplier, shift, r->output_offset, r->act_min, r->act_max);
    const int8_t qb = tinyaot_requantize_s8(b, multiplier, shift, r->output_offset, r->act_min, r->act_max);
    *out_a = qa;
    *out_b = qb;
}

/*
 * Per output channel, the fold of tinyaot_requantize_folded goes one step further
 * where every channel's multiplier is >= 0 and right shift r is 2..24: with h the
 * high word of x * m + nudge, ((h >> (r-2)) + 1 + 2z) >> 1 is (h + K) >> (r-1) with
 * K = (1 + 2z) * 2^(r-2) (nested floor division), and K goes into the multiply-
 * accumulate's high word. m >= 0 gives the product x's sign, so the nudge is
 * 0x40000000 with x's sign bit. Exact while |h + K| < 2^31: |h| <= 2^30 and
 * |K| <= 255 * 2^22 for z in [-128, 127] (tests/host/test_requantize.py).
 * 1 where that holds for the first `channels` channels of r (one where r has
 * one multiplier for all): a kernel tests it once per call, not per output.
 */
#if TINYAOT_LONG_MULTIPLY
/* Out of line: once per call, from several kernels. */
static TINYAOT_NOINLINE int32_t tinyaot_channel_requant_folds(const struct tinyaot_channel_requant *r,
                                                              int32_t channels)
{
    int32_t c;
    if (r->output_offset < -128 || r->output_offset > 127) {
        return 0;
    }
    channels = r->channel_mask ? channels : 1;
    for (c = 0; c < channels; c++) {
        if (r->multiplier[c] < 0 || r->shift[c] > -2 || r->shift[c] < -24) {
            return 0;
        }
    }
    return 1;
}
#else
/* Never without a long multiply: a constant, so the kernels' folded paths drop out. */
static inline int32_t tinyaot_channel_requant_folds(const struct tinyaot_channel_requant *r, int32_t channels)
{
    (void)r, (void)channels;
    return 0;
}
#endif

#if TINYAOT_LONG_MULTIPLY
/* x's requantization plus output offset before the clamp, for high = K and
   high_shift = r - 1 above. K joins the high word after the multiply-accumulate (the
   same sum: it has no low bits), one add where GCC built a 64-bit add of two. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_requantize_channel_folded(int32_t x, int32_t multiplier, int32_t high,
                                                                       int32_t high_shift)
{
    const int32_t nudge = (int32_t)(((uint32_t)x & 0x80000000u) | 0x40000000u);
    const int64_t sum = (int64_t)x * multiplier + nudge;
    return ((int32_t)(sum >> 32) + high) >> high_shift;
}
#endif

/* r from output channel oc on: its channel k is r's oc + k. For a block of channels
   at constant k: each channel's table index is then k & mask, not (oc + k) & mask. */
static TINYAOT_ALWAYS_INLINE struct tinyaot_channel_requant tinyaot_channel_requant_from(
    const struct tinyaot_channel_requant *r, int32_t oc)
{
    struct tinyaot_channel_requant from = *r;
    from.multiplier += oc & r->channel_mask;
    from.shift += oc & r->channel_mask;
    return from;
}

#if TINYAOT_LONG_MULTIPLY
/* Output channel oc's fold (tinyaot_channel_requant_folds returned 1), loaded once for
   several outputs of the channel. */
struct tinyaot_channel_fold {
    int32_t multiplier, high, high_shift;
};

static TINYAOT_ALWAYS_INLINE struct tinyaot_channel_fold tinyaot_channel_fold_of(
    const struct tinyaot_channel_requant *r, int32_t oc)
{
    struct tinyaot_channel_fold f;
    const int32_t ch = oc & r->channel_mask;
    f.multiplier = r->multiplier[ch];
    f.high_shift = ~r->shift[ch];  /* -shift - 1 */
    f.high = (int32_t)((uint32_t)(1 + 2 * r->output_offset) << f.high_shift) >> 1;
    return f;
}

/* One accumulator of the channel to its int8 output. */
static TINYAOT_ALWAYS_INLINE int8_t tinyaot_channel_fold_s8(const struct tinyaot_channel_requant *r,
                                                            const struct tinyaot_channel_fold *f, int32_t x)
{
    const int32_t q = tinyaot_requantize_channel_folded(x, f->multiplier, f->high, f->high_shift);
    return (int8_t)tinyaot_clamp_i32(q, r->act_min, r->act_max);
}
#endif

/* tinyaot_channel_requantize2_s8 where tinyaot_channel_requant_folds returned 1. */
static TINYAOT_ALWAYS_INLINE void tinyaot_channel_requantize2_folded_s8(const struct tinyaot_channel_requant *r,
                                                                        int32_t oc, int32_t a, int32_t b,
                                                                        int8_t *out_a, int8_t *out_b)
{
#if TINYAOT_LONG_MULTIPLY
    const struct tinyaot_channel_fold f = tinyaot_channel_fold_of(r, oc);
    const int32_t qa = tinyaot_requantize_channel_folded(a, f.multiplier, f.high, f.high_shift);
    const int32_t qb = tinyaot_requantize_channel_folded(b, f.multiplier, f.high, f.high_shift);
    *out_a = (int8_t)tinyaot_clamp_i32(qa, r->act_min, r->act_max);
    *out_b = (int8_t)tinyaot_clamp_i32(qb, r->act_min, r->act_max);
#else
    tinyaot_channel_requantize2_s8(r, oc, a, b, out_a, out_b);
#endif
}

/*
 * The taps k in [*first, *end) of a filter window whose input position
 * origin + k * dilation lies inside [0, size): what the reference kernels test
 * tap by tap, worked out once per output pixel. Returns the input position of
 * tap *first. Loops, not divisions: they only turn at the borders, and
 * Cortex-M0 has no divide instruction.
 */
static inline int32_t tinyaot_window(int32_t origin, int32_t dilation, int32_t taps, int32_t size,
                                     int32_t *first, int32_t *end)
{
    int32_t k = 0;
    int32_t e = taps;
    while (k < taps && origin + k * dilation < 0) {
        k++;
    }
    while (e > k && origin + (e - 1) * dilation >= size) {
        e--;
    }
    *first = k;
    *end = e;
    return origin + k * dilation;
}

/*
 * gemmlowp fixed-point math (fixedpoint.h), used by SOFTMAX, LOGISTIC and TANH.
 * A "Qn" value is an int32 raw with n integer bits and 31 - n fraction bits.
 */

/* gemmlowp's SaturatingRoundingMultiplyByPOT for a positive exponent: x << exponent, saturating. */
static inline int32_t tinyaot_sat_shift_left(int32_t x, int32_t exponent)
{
    const int32_t threshold = (int32_t)(((uint32_t)1 << (31 - exponent)) - 1u);
    if (x > threshold) {
        return INT32_MAX;
    }
    if (x < -threshold) {
        return INT32_MIN;
    }
    return (int32_t)((uint32_t)x << exponent);
}

/* Leading zero bits of x (32 for 0), as TFLite's CountLeadingZeros. */
static inline int32_t tinyaot_count_leading_zeros(uint32_t x)
{
    if (x == 0u) {
        return 32;
    }
#if defined(__GNUC__) && !defined(__ARM_ARCH_6M__) && !defined(__ARM_ARCH_8M_BASE__)
    return __builtin_clz(x);  /* one instruction (CLZ), not a loop of up to 31 steps */
#else
    {
        /* Halving steps: five tests whatever x (a library call under GCC on these cores). */
        int32_t n = 0;
        if (x < 0x10000u) {
            n += 16;
            x <<= 16;
        }
        if (x < 0x1000000u) {
            n += 8;
            x <<= 8;
        }
        if (x < 0x10000000u) {
            n += 4;
            x <<= 4;
        }
        if (x < 0x40000000u) {
            n += 2;
            x <<= 2;
        }
        return x < 0x80000000u ? n + 1 : n;
    }
#endif
}

/* exp(a) for a Q0 value a in [-1/4, 0): Taylor series around -1/8, result Q0. */
static inline int32_t tinyaot_exp_on_interval_neg_quarter_to_0(int32_t a)
{
    const int32_t constant_term = 1895147668;    /* exp(-1/8) */
    const int32_t constant_1_over_3 = 715827883;
    const int32_t x = a + (1 << 28);              /* a + 1/8 */
    const int32_t x2 = tinyaot_sat_rounding_doubling_high_mul(x, x);
    const int32_t x3 = tinyaot_sat_rounding_doubling_high_mul(x2, x);
    const int32_t x4 = tinyaot_sat_rounding_doubling_high_mul(x2, x2);
    const int32_t x4_over_4 = tinyaot_rounding_divide_by_pot(x4, 2);
    const int32_t poly = tinyaot_rounding_divide_by_pot(
        tinyaot_sat_rounding_doubling_high_mul(x4_over_4 + x3, constant_1_over_3) + x2, 1);
    return constant_term + tinyaot_sat_rounding_doubling_high_mul(constant_term, x + poly);
}

/*
 * gemmlowp's exp_on_negative_values: exp(a) for a <= 0 in Q(integer_bits),
 * result Q0. integer_bits is 4 (LOGISTIC) or 5 (SOFTMAX, TANH); gemmlowp's clamp
 * below -32 only exists for more than 5 integer bits.
 */
static inline int32_t tinyaot_exp_on_negative_values(int32_t a, int32_t integer_bits)
{
    /* exp(-2^k) in Q0 for k = -2 .. 4 */
    static const int32_t multipliers[7] = {
        1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242
    };
    const int32_t fractional_bits = 31 - integer_bits;
    const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
    const int32_t a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter;
    const int32_t remainder = a_mod_quarter_minus_one_quarter - a;
    int32_t result = tinyaot_exp_on_interval_neg_quarter_to_0(
        tinyaot_sat_shift_left(a_mod_quarter_minus_one_quarter, integer_bits));
    int32_t k;
    /* Multiply in exp(-2^k) for each bit of the whole quarters that were cut off. */
    for (k = -2; k <= 4 && k < integer_bits; k++) {
        if (remainder & ((int32_t)1 << (fractional_bits + k))) {
            result = tinyaot_sat_rounding_doubling_high_mul(result, multipliers[k + 2]);
        }
    }
    return a == 0 ? INT32_MAX : result;
}

/*
 * 2 / (1 + a) in Q2 for a Q0 a in [0, 1): the Newton-Raphson division that
 * gemmlowp's one_over_one_plus_x_for_x_in_0_1 and
 * one_minus_x_over_one_plus_x_for_x_in_0_1 share.
 */
static inline int32_t tinyaot_two_over_one_plus_x_q2(int32_t a)
{
    /* RoundingHalfSum(a, 1.0): a >= 0, so (a + 2^31 - 1 + 1) / 2 fits in uint32_t. */
    const int32_t half_denominator = (int32_t)(((uint32_t)a + 0x80000000u) >> 1);
    const int32_t constant_48_over_17 = 1515870810;       /* Q2 */
    const int32_t constant_neg_32_over_17 = -1010580540;  /* Q2 */
    const int32_t one_q2 = 1 << 29;
    int32_t x = constant_48_over_17 +
                tinyaot_sat_rounding_doubling_high_mul(half_denominator, constant_neg_32_over_17);
    int32_t i;
    /* Newton-Raphson: x <- x + x * (1 - half_denominator * x), three times. */
    for (i = 0; i < 3; i++) {
        const int32_t one_minus_half_denominator_times_x =
            one_q2 - tinyaot_sat_rounding_doubling_high_mul(half_denominator, x);
        x = x + tinyaot_sat_shift_left(
                    tinyaot_sat_rounding_doubling_high_mul(x, one_minus_half_denominator_times_x), 2);
    }
    return x;  /* 1 / half_denominator */
}

/* gemmlowp's one_over_one_plus_x_for_x_in_0_1: 1 / (1 + a) for a Q0 a in [0, 1), result Q0. */
static inline int32_t tinyaot_one_over_one_plus_x_for_x_in_0_1(int32_t a)
{
    /* Halve the Q2 value (Q1) and rescale to Q0. */
    return tinyaot_sat_shift_left(tinyaot_two_over_one_plus_x_q2(a), 1);
}

/* gemmlowp's one_minus_x_over_one_plus_x_for_x_in_0_1: (1 - a) / (1 + a), result Q0. */
static inline int32_t tinyaot_one_minus_x_over_one_plus_x_for_x_in_0_1(int32_t a)
{
    /* 2 / (1 + a) - 1 in Q2, rescaled to Q0. */
    return tinyaot_sat_shift_left(tinyaot_two_over_one_plus_x_q2(a) - (1 << 29), 2);
}

/* Value i of an int64 tensor or table: memcpy, since a weights blob aligns its tables to 4
   bytes, not 8 (an int64 constant may sit there). */
static inline int64_t tinyaot_load_i64(const void *values, int32_t i)
{
    int64_t v;
    memcpy(&v, (const uint8_t *)values + 8 * i, sizeof v);
    return v;
}

#endif /* TINYAOT_COMMON_H */
