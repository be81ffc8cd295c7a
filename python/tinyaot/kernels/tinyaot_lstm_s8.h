/*
 * tinyaot_lstm_s8.h - integer UNIDIRECTIONAL_SEQUENCE_LSTM: int8 input, hidden
 * state and output, int8 weights (zero point 0), int32 biases, int16 cell state.
 *
 * TFLM's LstmStep (lstm_eval.h) with its integer arithmetic, per unit and step:
 *   each gate = sat16(sat16(rq(W_in . (x - x_zp) + bias)) + sat16(rq(W_rec . (h - h_zp))))
 *     at scale 2^-12 (rq: MultiplyByQuantizedMultiplier by the generator's
 *     multipliers), then int16 sigmoid (input, forget, output gates) or tanh
 *     (cell gate), TFLM's reference_integer_ops::Logistic/Tanh, at scale 2^-15;
 *   c = sat16(sat16(rq(forget * c)) + sat16(rq(input * cell_gate))), clipped
 *     to +-cell_clip when that is not 0;
 *   h = sat8(rq(tanh(c) * output) + h_zp), tanh(c) rescaled by the cell
 *     state's power-of-two scale; the step's output is h.
 * The input offsets are folded into per-gate, per-unit tables at build time
 * (exact: int32 sums wrap alike). Units are independent within a step (the
 * gates read the previous h), so one unit is done at a time, the new h is
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

#include "tinyaot_common.h"
#include "tinyaot_sigmoid.h"

struct tinyaot_lstm_s8_params {
    int32_t batches;
    int32_t steps;
    int32_t input_size;
    int32_t units;
    int32_t time_major;       /* input and output [steps][batches][...], else [batches][steps][...] */
    int32_t output_offset;    /* the hidden state's (and output's) zero point */
    int32_t cell_clip;        /* quantized; -1: no clipping */
    int32_t tanh_multiplier;  /* the cell state to tanh's input steps: */
    int32_t tanh_shift;       /* (c * multiplier + round) >> shift */
};

/* Indices into the multiplier and shift tables: per gate input FC, then recurrent FC, then the products. */
#define TINYAOT_LSTM_RECURRENT 4
#define TINYAOT_LSTM_FORGET_MUL 8
#define TINYAOT_LSTM_INPUT_MUL 9
#define TINYAOT_LSTM_HIDDEN_MUL 10

static inline int32_t tinyaot_lstm_s16_sat(int32_t x) { return tinyaot_clamp_i32(x, -32768, 32767); }

static inline int32_t tinyaot_lstm_s8_dot(const int8_t *x, const int8_t *w, int32_t n, int32_t acc)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        acc += (int32_t)x[i] * w[i];
    }
    return acc;
}

/* Gate g's pre-activation for unit u, at scale 2^-12. */
static inline int32_t tinyaot_lstm_s8_gate(const struct tinyaot_lstm_s8_params *p, const int32_t *multiplier,
                                           const int32_t *shift, const int32_t *bias, const int8_t *in,
                                           const int8_t *h, const int8_t *w_in, const int8_t *w_rec, int32_t g,
                                           int32_t u)
{
    const int32_t r = TINYAOT_LSTM_RECURRENT;
    const int32_t x = tinyaot_lstm_s8_dot(in, w_in + u * p->input_size, p->input_size, bias[g * p->units + u]);
    const int32_t y = tinyaot_lstm_s8_dot(h, w_rec + u * p->units, p->units, bias[(r + g) * p->units + u]);
    return tinyaot_lstm_s16_sat(tinyaot_lstm_s16_sat(tinyaot_requantize(x, multiplier[g], shift[g]))
                                + tinyaot_lstm_s16_sat(tinyaot_requantize(y, multiplier[r + g], shift[r + g])));
}

/* bias: [gate][unit] input FC sums (bias and input offset), then [gate][unit] recurrent (hidden offset). */
static void tinyaot_lstm_s8(const struct tinyaot_lstm_s8_params *p, const int32_t *multiplier, const int32_t *shift,
                            const int32_t *bias, const uint16_t *sigmoid, const int8_t *input,
                            const int8_t *const *input_weights, const int8_t *const *recurrent_weights,
                            int8_t *hidden, int16_t *cell, int8_t *output)
{
    const int32_t tanh_round = p->tanh_shift > 0 ? 1 << (p->tanh_shift - 1) : 0;
    int32_t b, t, u;
    for (b = 0; b < p->batches; b++) {
        int8_t *h = hidden + b * p->units;
        int16_t *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const int8_t *in = input + row * p->input_size;
            int8_t *out = output + row * p->units;
            for (u = 0; u < p->units; u++) {
#define TINYAOT_LSTM_S8_GATE(g) \
    tinyaot_lstm_s8_gate(p, multiplier, shift, bias, in, h, input_weights[g], recurrent_weights[g], g, u)
                /* The gates' inputs are at 2^-12: the sigmoid table's steps are 3 of them. */
                const int32_t forget = tinyaot_sigmoid_s16_of(sigmoid, 3 * TINYAOT_LSTM_S8_GATE(1));
                const int32_t in_gate = tinyaot_sigmoid_s16_of(sigmoid, 3 * TINYAOT_LSTM_S8_GATE(0));
                const int32_t cell_gate = tinyaot_tanh_s16_of(sigmoid, 3 * TINYAOT_LSTM_S8_GATE(2));
                const int32_t out_gate = tinyaot_sigmoid_s16_of(sigmoid, 3 * TINYAOT_LSTM_S8_GATE(3));
#undef TINYAOT_LSTM_S8_GATE
                int32_t c_new = tinyaot_lstm_s16_sat(
                    tinyaot_lstm_s16_sat(tinyaot_requantize(forget * c[u], multiplier[TINYAOT_LSTM_FORGET_MUL],
                                                            shift[TINYAOT_LSTM_FORGET_MUL]))
                    + tinyaot_lstm_s16_sat(tinyaot_requantize(in_gate * cell_gate, multiplier[TINYAOT_LSTM_INPUT_MUL],
                                                              shift[TINYAOT_LSTM_INPUT_MUL])));
                int32_t tanh_c;
                if (p->cell_clip >= 0) {
                    c_new = tinyaot_clamp_i32(c_new, -p->cell_clip, p->cell_clip);
                }
                c[u] = (int16_t)c_new;
                tanh_c = tinyaot_tanh_s16_of(sigmoid, (c_new * p->tanh_multiplier + tanh_round) >> p->tanh_shift);
                out[u] = (int8_t)tinyaot_clamp_i32(
                    p->output_offset + tinyaot_requantize(tanh_c * out_gate, multiplier[TINYAOT_LSTM_HIDDEN_MUL],
                                                          shift[TINYAOT_LSTM_HIDDEN_MUL]),
                    -128, 127);
            }
            memcpy(h, out, (size_t)p->units);
        }
    }
}

#endif /* TINYAOT_LSTM_S8_H */
