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
 * Weights: input [units][input_size], recurrent [units][units], per gate in
 * TFLite's order (input, forget, cell, output). States: [batches][units].
 */
#ifndef TINYAOT_LSTM_S8_H
#define TINYAOT_LSTM_S8_H

#include <stdint.h>
#include <string.h>

#include "tinyaot_lstm_cell.h"

/*
 * acc[g] += x . (row `row` of gate g's weights), the four gates in one pass: each
 * x[i] is loaded once for four multiply-adds.
 */
static inline void tinyaot_lstm_s8_dot4(const int8_t *x, const int8_t *const *weights, int32_t row, int32_t n,
                                        int32_t *acc)
{
    const int8_t *w0 = weights[0] + row * n, *w1 = weights[1] + row * n;
    const int8_t *w2 = weights[2] + row * n, *w3 = weights[3] + row * n;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t i;
    for (i = 0; i < n; i++) {
        const int32_t v = x[i];
        a0 += v * w0[i];
        a1 += v * w1[i];
        a2 += v * w2[i];
        a3 += v * w3[i];
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* bias: [gate][unit] input FC sums (bias and input offset), then [gate][unit] recurrent (hidden offset). */
static void tinyaot_lstm_s8(const struct tinyaot_lstm_int_params *p, const int32_t *multiplier, const int32_t *shift,
                            const int32_t *bias, const uint16_t *sigmoid, const int8_t *input,
                            const int8_t *const *input_weights, const int8_t *const *recurrent_weights,
                            int8_t *hidden, int16_t *cell, int8_t *output)
{
    int32_t b, t, u;
    for (b = 0; b < p->batches; b++) {
        int8_t *h = hidden + b * p->units;
        int16_t *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const int8_t *in = input + row * p->input_size;
            int8_t *out = output + row * p->units;
            for (u = 0; u < p->units; u++) {
                int32_t x[4], y[4], gate[4], g;
                for (g = 0; g < 4; g++) {
                    x[g] = bias[g * p->units + u];
                    y[g] = bias[(TINYAOT_LSTM_RECURRENT + g) * p->units + u];
                }
                tinyaot_lstm_s8_dot4(in, input_weights, u, p->input_size, x);
                tinyaot_lstm_s8_dot4(h, recurrent_weights, u, p->units, y);
                for (g = 0; g < 4; g++) {
                    const int32_t r = TINYAOT_LSTM_RECURRENT + g;
                    const int32_t from_x = tinyaot_lstm_s16_sat(tinyaot_requantize(x[g], multiplier[g], shift[g]));
                    const int32_t from_h = tinyaot_lstm_s16_sat(tinyaot_requantize(y[g], multiplier[r], shift[r]));
                    gate[g] = tinyaot_lstm_s16_sat(from_x + from_h);
                }
                out[u] = (int8_t)tinyaot_clamp_i32(
                    p->output_offset + tinyaot_lstm_cell_update(p, multiplier, shift, sigmoid, gate, &c[u]), -128, 127);
            }
            memcpy(h, out, (size_t)p->units);
        }
    }
}

#endif /* TINYAOT_LSTM_S8_H */
