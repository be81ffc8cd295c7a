/*
 * tinyaot_lstm_f32.h - float32 UNIDIRECTIONAL_SEQUENCE_LSTM (no peephole,
 * projection or layer norm: TFLM's kernel runs none).
 *
 * TFLM's LstmStep (lstm_eval.h) operation for operation, per time step:
 *   gate = clamp(W_in . x + bias) + clamp(W_rec . h + 0.0f)   (each dot product
 *          summed from 0.0f in order, clamp = min(max(v, -FLT_MAX), FLT_MAX)),
 *   then sigmoid (input, forget, output gates) or tanhf (cell gate);
 *   c = clamp(forget * c) + clamp(input * cell_gate), clipped to +-cell_clip
 *   when cell_clip > 0; h = clamp(tanhf(c) * output); the step's output is h.
 * TFLM computes each stage for all units into scratch buffers; units are
 * independent within a step (the gates read the previous h), so this kernel
 * runs one unit at a time (its four gates' dot products in one pass over x,
 * one over h), writing the new h to the output row and copying it
 * into the state after the row: no scratch memory, the same floats. Identical
 * to TFLM where the compiler does not fuse a multiply and an add.
 *
 * Weights: input [units][input_size], recurrent [units][units], per gate in
 * TFLite's order (input, forget, cell, output). States: [batches][units].
 */
#ifndef TINYAOT_LSTM_F32_H
#define TINYAOT_LSTM_F32_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "tinyaot_sigmoid.h"

struct tinyaot_lstm_f32_params {
    int32_t batches;
    int32_t steps;
    int32_t input_size;
    int32_t units;
    int32_t time_major;  /* input and output [steps][batches][...], else [batches][steps][...] */
    float cell_clip;     /* 0: no clipping */
};

enum { TINYAOT_LSTM_INPUT_GATE, TINYAOT_LSTM_FORGET_GATE, TINYAOT_LSTM_CELL_GATE, TINYAOT_LSTM_OUTPUT_GATE };

/* TFLM's ActivationFunctionWithMinMax for no activation: +-inf become +-FLT_MAX. */
static inline float tinyaot_lstm_f32_clamp(float x)
{
    x = (x < -FLT_MAX) ? -FLT_MAX : x;
    return (FLT_MAX < x) ? FLT_MAX : x;
}

/*
 * acc[g] = x . (row `row` of gate g's weights), each summed from 0.0f in order, the
 * four gates in one pass: each x[i] is loaded once for four multiply-adds.
 */
static inline void tinyaot_lstm_f32_dot4(const float *x, const float *const *weights, int32_t row, int32_t n,
                                         float *acc)
{
    const float *w0 = weights[0] + row * n, *w1 = weights[1] + row * n;
    const float *w2 = weights[2] + row * n, *w3 = weights[3] + row * n;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    int32_t i;
    for (i = 0; i < n; i++) {
        const float v = x[i];
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

static void tinyaot_lstm_f32(const struct tinyaot_lstm_f32_params *p, const float *input,
                             const float *const *input_weights, const float *const *recurrent_weights,
                             const float *const *biases, float *hidden, float *cell, float *output)
{
    int32_t b, t, u;
    for (b = 0; b < p->batches; b++) {
        float *h = hidden + b * p->units;
        float *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const float *in = input + row * p->input_size;
            float *out = output + row * p->units;
            for (u = 0; u < p->units; u++) {
                float x[4], y[4], gate[4], forget, in_gate, cell_gate, out_gate;
                int32_t g;
                tinyaot_lstm_f32_dot4(in, input_weights, u, p->input_size, x);
                tinyaot_lstm_f32_dot4(h, recurrent_weights, u, p->units, y);
                for (g = 0; g < 4; g++) {
                    gate[g] = tinyaot_lstm_f32_clamp(x[g] + biases[g][u]) + tinyaot_lstm_f32_clamp(y[g] + 0.0f);
                }
                forget = tinyaot_sigmoid_f32(gate[TINYAOT_LSTM_FORGET_GATE]);
                in_gate = tinyaot_sigmoid_f32(gate[TINYAOT_LSTM_INPUT_GATE]);
                cell_gate = tanhf(gate[TINYAOT_LSTM_CELL_GATE]);
                out_gate = tinyaot_sigmoid_f32(gate[TINYAOT_LSTM_OUTPUT_GATE]);
                float c_new = tinyaot_lstm_f32_clamp(forget * c[u]) + tinyaot_lstm_f32_clamp(in_gate * cell_gate);
                if (p->cell_clip > 0.0f) {
                    /* std::max(std::min(clip, c), -clip): a NaN becomes clip */
                    c_new = (c_new < p->cell_clip) ? c_new : p->cell_clip;
                    c_new = (c_new < -p->cell_clip) ? -p->cell_clip : c_new;
                }
                c[u] = c_new;
                out[u] = tinyaot_lstm_f32_clamp(tanhf(c_new) * out_gate);
            }
            memcpy(h, out, (size_t)p->units * sizeof(float));
        }
    }
}

#endif /* TINYAOT_LSTM_F32_H */
