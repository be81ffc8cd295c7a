/*
 * tinyaot_lstm_s16.h - 16x8 UNIDIRECTIONAL_SEQUENCE_LSTM: int16 input, hidden
 * state and output (zero points 0), int8 weights (zero point 0), int64 biases,
 * int16 cell state.
 *
 * TFLM's LstmStep (lstm_eval.h) for int16 activations, per unit and step: each
 * gate's pre-activation is sat16(sat16(rq64(W_in . x + bias)) + sat16(rq64(W_rec . h)))
 * at scale 2^-12 (TFLM's int64 sums and 64-bit MultiplyByQuantizedMultiplier,
 * tinyaot_s16.h); tinyaot_lstm_cell.h takes it from there to the new cell state
 * and h = sat16(...). A product is at most 2^22 in magnitude, so up to 511 of
 * them add exactly in 32 bits: the sums run in 32 bits, widened every 511.
 * As tinyaot_lstm_s8.h: one unit at a time, the new h written to the output row
 * and copied into the state after the row; no scratch memory.
 *
 * Weights: input [units][input_size], recurrent [units][units], per gate in
 * TFLite's order (input, forget, cell, output). States: [batches][units].
 */
#ifndef TINYAOT_LSTM_S16_H
#define TINYAOT_LSTM_S16_H

#include <stdint.h>
#include <string.h>

#include "tinyaot_lstm_cell.h"
#include "tinyaot_s16.h"

#define TINYAOT_LSTM_S16_EXACT_TERMS 511

/* acc[g] = x . (row `row` of gate g's weights) in int64, the four gates in one pass. */
static inline void tinyaot_lstm_s16_dot4(const int16_t *x, const int8_t *const *weights, int32_t row, int32_t n,
                                         int64_t *acc)
{
    const int8_t *w0 = weights[0] + row * n, *w1 = weights[1] + row * n;
    const int8_t *w2 = weights[2] + row * n, *w3 = weights[3] + row * n;
    int32_t start, i;
    acc[0] = acc[1] = acc[2] = acc[3] = 0;
    for (start = 0; start < n; start += TINYAOT_LSTM_S16_EXACT_TERMS) {
        const int32_t end = n - start > TINYAOT_LSTM_S16_EXACT_TERMS ? start + TINYAOT_LSTM_S16_EXACT_TERMS : n;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (i = start; i < end; i++) {
            const int32_t v = x[i];
            a0 += v * w0[i];
            a1 += v * w1[i];
            a2 += v * w2[i];
            a3 += v * w3[i];
        }
        acc[0] += a0;
        acc[1] += a1;
        acc[2] += a2;
        acc[3] += a3;
    }
}

/* A gate's pre-activation: sat16(sat16(rq64(from_x + bias)) + sat16(rq64(from_h))); the recurrent
   term 0 at rest (tinyaot_lstm_at_rest; from_h then ignored). Called with a constant g, so that the
   multipliers and shifts of the generated tables are constants. */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_lstm_s16_gate(int64_t from_x, int64_t from_h, int64_t bias,
                                                           int32_t at_rest, const int32_t *multiplier,
                                                           const int32_t *shift, int32_t g)
{
    const int32_t r = TINYAOT_LSTM_RECURRENT + g;
    const int32_t x_term = tinyaot_lstm_s16_sat(tinyaot_requantize_s64(from_x + bias, multiplier[g], shift[g]));
    if (at_rest) {
        return x_term;
    }
    return tinyaot_lstm_s16_sat(x_term + tinyaot_lstm_s16_sat(tinyaot_requantize_s64(from_h, multiplier[r], shift[r])));
}

/* multiplier, shift: per gate input FC, then recurrent FC, then the products (tinyaot_lstm_cell.h);
   biases: the four gates' int64 biases, [gate][unit]. Inlined into each call: every layer's sizes,
   multipliers and shifts become constants. */
static TINYAOT_ALWAYS_INLINE void tinyaot_lstm_s16(const struct tinyaot_lstm_int_params *p, const int32_t *multiplier,
                                                   const int32_t *shift, const int64_t *biases, const uint16_t *sigmoid,
                                                   const int16_t *input, const int8_t *const *input_weights,
                                                   const int8_t *const *recurrent_weights, int16_t *hidden,
                                                   int16_t *cell, int16_t *output)
{
    int32_t b, t, u;
    for (b = 0; b < p->batches; b++) {
        int16_t *h = hidden + b * p->units;
        int16_t *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const int16_t *in = input + row * p->input_size;
            int16_t *out = output + row * p->units;
            const int32_t at_rest = tinyaot_lstm_at_rest(h, p->units * (int32_t)sizeof(int16_t), 0);
            for (u = 0; u < p->units; u++) {
                int64_t x[4], y[4] = {0, 0, 0, 0};
                int32_t gate[4];
                tinyaot_lstm_s16_dot4(in, input_weights, u, p->input_size, x);
                /* The gates branch on at_rest each: on the M0 lstm_seq28_16x8 1.09 M instructions, 1.20 M with
                   one branch a unit (tinyaot_lstm_s8.h's way; 0.99x that on the M3). */
                if (!at_rest) {
                    tinyaot_lstm_s16_dot4(h, recurrent_weights, u, p->units, y);
                }
                gate[0] = tinyaot_lstm_s16_gate(x[0], y[0], biases[u], at_rest, multiplier, shift, 0);
                gate[1] = tinyaot_lstm_s16_gate(x[1], y[1], biases[p->units + u], at_rest, multiplier, shift, 1);
                gate[2] = tinyaot_lstm_s16_gate(x[2], y[2], biases[2 * p->units + u], at_rest, multiplier, shift, 2);
                gate[3] = tinyaot_lstm_s16_gate(x[3], y[3], biases[3 * p->units + u], at_rest, multiplier, shift, 3);
                out[u] = (int16_t)tinyaot_lstm_s16_sat(tinyaot_lstm_cell_update(p, multiplier, shift, sigmoid, gate,
                                                                                &c[u], 0));
            }
            memcpy(h, out, (size_t)p->units * sizeof(int16_t));
        }
    }
}

#endif /* TINYAOT_LSTM_S16_H */
