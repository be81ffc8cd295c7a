/*
 * tinyaot_lstm_s8.h - integer UNIDIRECTIONAL_SEQUENCE_LSTM: int8 input, hidden
 * state and output, int8 weights (zero point 0), int32 biases, int16 cell state.
 *
 * TFLM's LstmStep (lstm_eval.h) with its integer arithmetic, per unit and step:
 * each gate's pre-activation is
 *   sat16(sat16(rq(W_in . (x - x_zp) + bias)) + sat16(rq(W_rec . (h - h_zp))))
 * at scale 2^-12 (rq: MultiplyByQuantizedMultiplier by the generator's
 * multipliers); tinyaot_lstm_cell.h takes it from there to the new cell state
 * and h = sat8(... + h_zp); the step's output is h.
 * The input offsets are folded into per-gate, per-unit tables at build time
 * (exact: int32 sums wrap alike). Units are independent within a step (the
 * gates read the previous h), so one unit is done at a time (its four gates'
 * dot products in one pass over x, one over h), the new h is
 * written to the output row and copied into the state after the row: no
 * scratch memory.
 *
 * Gate pairs: the lowering packs two gates' int8 weights of one input value into
 * one int32, w_a + w_b * 2^23, so that one 32 x 32 -> 64-bit multiply-accumulate
 * (SMLAL) makes two products: the sum is S_a + S_b * 2^23 with |S_a| < 2^22 over
 * up to 255 terms (each product within 2^14), so both sums come out exactly.
 * Weights: input [units][input_size][2], recurrent [units][units][2], the pairs
 * (input, forget) then (cell, output) gates. States: [batches][units].
 */
#ifndef TINYAOT_LSTM_S8_H
#define TINYAOT_LSTM_S8_H

#include <stdint.h>
#include <string.h>

#include "tinyaot_lstm_cell.h"

#define TINYAOT_LSTM_S8_PAIR_SHIFT 23
#define TINYAOT_LSTM_S8_PAIR_TERMS 255 /* products that keep S_a within 2^22 */

/* S_a from the low 32 bits of a pair's sum S_a + S_b * 2^23: its low 23, sign-extended. */
static inline int32_t tinyaot_lstm_s8_low(uint32_t sum)
{
    return (int32_t)(sum << (32 - TINYAOT_LSTM_S8_PAIR_SHIFT)) >> (32 - TINYAOT_LSTM_S8_PAIR_SHIFT);
}

/* Adds S_a and S_b of sum = S_a + S_b * 2^23 to *a and *b. */
static inline void tinyaot_lstm_s8_unpair(int64_t sum, int32_t *a, int32_t *b)
{
    const int32_t low = tinyaot_lstm_s8_low((uint32_t)sum);
    *a += low;
    *b += (int32_t)((sum - low) >> TINYAOT_LSTM_S8_PAIR_SHIFT);
}

#if TINYAOT_LONG_MULTIPLY
/* Input value k's products with its two gate pairs (w: the value's pairs). */
#define TINYAOT_LSTM_S8_TAP(k)                                                                                    \
    do {                                                                                                        \
        const int32_t v = x[k];                                                                                 \
        a01 += (int64_t)v * w[2 * (k)];                                                                         \
        a23 += (int64_t)v * w[2 * (k) + 1];                                                                     \
    } while (0)
#define TINYAOT_LSTM_S8_TAP4(k)                                                                                   \
    do {                                                                                                        \
        TINYAOT_LSTM_S8_TAP(k);                                                                                 \
        TINYAOT_LSTM_S8_TAP((k) + 1);                                                                           \
        TINYAOT_LSTM_S8_TAP((k) + 2);                                                                           \
        TINYAOT_LSTM_S8_TAP((k) + 3);                                                                           \
    } while (0)

/* acc[g] += x . (gate g's weights) over n values, w: [n][2] packed gate pairs. */
static inline void tinyaot_lstm_s8_dot4(const int8_t *x, const int32_t *w, int32_t n, int32_t *acc)
{
    while (n > 0) {
        const int32_t terms = n > TINYAOT_LSTM_S8_PAIR_TERMS ? TINYAOT_LSTM_S8_PAIR_TERMS : n;
        const int8_t *const end = x + terms;
        int64_t a01 = 0, a23 = 0;
        int32_t steps;
        /* Eight values a step, then four, counted down (GCC 12 then keeps the sums in registers: on
           Cortex-M3 23 instructions for four values, against 27 with an end pointer). */
        for (steps = terms >> 3; steps != 0; steps--) {
            TINYAOT_LSTM_S8_TAP4(0);
            TINYAOT_LSTM_S8_TAP4(4);
            x += 8;
            w += 16;
        }
        if (terms & 4) {
            TINYAOT_LSTM_S8_TAP4(0);
            x += 4;
            w += 8;
        }
        while (x != end) {
            TINYAOT_LSTM_S8_TAP(0);
            x++;
            w += 2;
        }
        tinyaot_lstm_s8_unpair(a01, &acc[0], &acc[1]);
        tinyaot_lstm_s8_unpair(a23, &acc[2], &acc[3]);
        n -= terms;
    }
}
#else
/*
 * No 64-bit multiply (Armv6-M, Armv8-M Baseline: a library call). v * (w_a + w_b * 2^23)
 * wraps in 32 bits, but its low 23 bits still sum to S_a exactly (|S_a| < 2^22): one
 * multiply for gate a; gate b's weight, the pair rounded at 2^23, gets its own.
 */
#define TINYAOT_LSTM_S8_HIGH(pair) ((((pair) >> (TINYAOT_LSTM_S8_PAIR_SHIFT - 1)) + 1) >> 1)
static inline void tinyaot_lstm_s8_dot4(const int8_t *x, const int32_t *w, int32_t n, int32_t *acc)
{
    while (n > 0) {
        const int32_t terms = n > TINYAOT_LSTM_S8_PAIR_TERMS ? TINYAOT_LSTM_S8_PAIR_TERMS : n;
        const int8_t *const end = x + terms;
        uint32_t a01 = 0, a23 = 0;
        int32_t b1 = 0, b3 = 0;
        while (x != end) {
            const int32_t v = *x++;
            const int32_t w01 = w[0], w23 = w[1];
            a01 += (uint32_t)v * (uint32_t)w01;
            b1 += v * TINYAOT_LSTM_S8_HIGH(w01);
            a23 += (uint32_t)v * (uint32_t)w23;
            b3 += v * TINYAOT_LSTM_S8_HIGH(w23);
            w += 2;
        }
        acc[0] += tinyaot_lstm_s8_low(a01);
        acc[1] += b1;
        acc[2] += tinyaot_lstm_s8_low(a23);
        acc[3] += b3;
        n -= terms;
    }
}
#endif

#if !TINYAOT_LONG_MULTIPLY
/*
 * sat16(tinyaot_requantize(x, m, -r)) without a long multiply, for a multiplier m in
 * [2^30, 2^31) and a right shift r in 0..14 (the gates' usual ones: constants, the kernel
 * is inlined). On the magnitude u = |x| the two roundings are one floor,
 * floor((u m + 2^30 + R - neg) / 2^(31+r)) with R = 2^(30+r) for r >= 1, else 0
 * (tinyaot_requantize_folded's comment), and it is monotone in u: from u = 2^(16+r) on it is
 * >= 2^15 (m >= 2^30), which saturates either sign, so u is clamped there. Then
 * u = uh 2^16 + ul with uh <= 2^r, and with m = mh 2^16 + ml the sum over 2^16,
 * floor((u m + 2^30 + R - neg) / 2^16), is B 2^16 + A with
 *   B = uh mh,  A = ul mh + uh ml + floor((ul ml + 2^16 - neg) / 2^16) + 2^14 + R / 2^16 - 1
 * (2^16 of the constant moved into the low sum, so that it neither wraps nor overflows;
 * A < 2^32 for r <= 14), and the result floor((2B + floor(A / 2^15)) / 2^r): four short
 * multiplies, no call (tests/host/c/requantize_check.c compares every u of the clamped range
 * for r <= 2).
 */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_lstm_s8_rescale_short(int32_t x, uint32_t m, int32_t r)
{
    const uint32_t neg = (uint32_t)(x >> 31); /* all ones for a negative x */
    const uint32_t top = 1u << (16 + r);
    const uint32_t round = (1u << 14) + (r > 0 ? 1u << (14 + r) : 0u) - 1u;
    uint32_t u = ((uint32_t)x ^ neg) - neg, uh, ul, a, mag;
    if (u > top) {
        u = top;
    }
    uh = u >> 16;
    ul = u & 0xFFFFu;
    a = ul * (m >> 16) + uh * (m & 0xFFFFu) + ((ul * (m & 0xFFFFu) + 0x10000u + neg) >> 16) + round;
    mag = (((uh * (m >> 16)) << 1) + (a >> 15)) >> r;
    return tinyaot_lstm_s16_sat((int32_t)((mag ^ neg) - neg));
}
#endif

/* sat16(tinyaot_requantize(x, multiplier, shift)); without a long multiply the short path above where it
   applies, else the exact one (the three-multiply shortcut never settles a right shift of 1 and only one
   value in four of 2). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_lstm_s8_rescale(int32_t x, int32_t multiplier, int32_t shift)
{
#if !TINYAOT_LONG_MULTIPLY
    if (multiplier >= 0x40000000 && shift <= 0 && shift >= -14) {
        return tinyaot_lstm_s8_rescale_short(x, (uint32_t)multiplier, -shift);
    }
    if (shift > -3) {
        return tinyaot_lstm_s16_sat(tinyaot_requantize_exact(x, multiplier, shift));
    }
#endif
    return tinyaot_lstm_s16_sat(tinyaot_requantize(x, multiplier, shift));
}

/* A gate's pre-activation: sat16(sat16(rq(from_x)) + sat16(rq(from_h))), g's FC multipliers; the
   recurrent term 0 at rest (from_h then ignored). Called with a constant g, so that the multipliers
   and shifts of the generated tables are constants. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_lstm_s8_gate(int32_t from_x, int32_t from_h, int32_t at_rest,
                                                          const int32_t *multiplier, const int32_t *shift, int32_t g)
{
    const int32_t r = TINYAOT_LSTM_RECURRENT + g;
    const int32_t x_term = tinyaot_lstm_s8_rescale(from_x, multiplier[g], shift[g]);
    if (at_rest) {
        return x_term;
    }
    return tinyaot_lstm_s16_sat(x_term + tinyaot_lstm_s8_rescale(from_h, multiplier[r], shift[r]));
}

/* bias: [gate][unit] input FC sums (bias and input offset), then [gate][unit] recurrent (hidden offset).
   Inlined into each call: every layer's sizes, multipliers and shifts become constants. */
static TINYAOT_ALWAYS_INLINE void tinyaot_lstm_s8(const struct tinyaot_lstm_int_params *p, const int32_t *multiplier,
                                                  const int32_t *shift, const int32_t *bias, const uint16_t *sigmoid,
                                                  const int8_t *input, const int32_t *input_pairs,
                                                  const int32_t *recurrent_pairs, int8_t *hidden, int16_t *cell,
                                                  int8_t *output)
{
    int32_t b, t, u;
    for (b = 0; b < p->batches; b++) {
        int8_t *h = hidden + b * p->units;
        int16_t *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const int8_t *in = input + row * p->input_size;
            int8_t *out = output + row * p->units;
            const int32_t at_rest = tinyaot_lstm_at_rest(h, p->units, (uint8_t)p->output_offset);
            for (u = 0; u < p->units; u++) {
                int32_t x[4], y[4], gate[4], g;
                for (g = 0; g < 4; g++) {
                    x[g] = bias[g * p->units + u];
                    y[g] = bias[(TINYAOT_LSTM_RECURRENT + g) * p->units + u];
                }
                tinyaot_lstm_s8_dot4(in, input_pairs + 2 * u * p->input_size, p->input_size, x);
                /* One branch a unit, each arm's gates with a constant at_rest and g (constant rescales): on the
                   M3 lstm_seq28 363 k instructions, 370 k branching in each gate (tinyaot_lstm_s16.h's way). */
                if (at_rest) {
                    gate[0] = tinyaot_lstm_s8_gate(x[0], 0, 1, multiplier, shift, 0);
                    gate[1] = tinyaot_lstm_s8_gate(x[1], 0, 1, multiplier, shift, 1);
                    gate[2] = tinyaot_lstm_s8_gate(x[2], 0, 1, multiplier, shift, 2);
                    gate[3] = tinyaot_lstm_s8_gate(x[3], 0, 1, multiplier, shift, 3);
                } else {
                    tinyaot_lstm_s8_dot4(h, recurrent_pairs + 2 * u * p->units, p->units, y);
                    gate[0] = tinyaot_lstm_s8_gate(x[0], y[0], 0, multiplier, shift, 0);
                    gate[1] = tinyaot_lstm_s8_gate(x[1], y[1], 0, multiplier, shift, 1);
                    gate[2] = tinyaot_lstm_s8_gate(x[2], y[2], 0, multiplier, shift, 2);
                    gate[3] = tinyaot_lstm_s8_gate(x[3], y[3], 0, multiplier, shift, 3);
                }
                out[u] = (int8_t)tinyaot_clamp_i32(
                    p->output_offset + tinyaot_lstm_cell_update(p, multiplier, shift, sigmoid, gate, &c[u], 1), -128, 127);
            }
            memcpy(h, out, (size_t)p->units);
        }
    }
}

#endif /* TINYAOT_LSTM_S8_H */
