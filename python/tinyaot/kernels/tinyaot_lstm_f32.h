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
 * runs one unit at a time, writing the new h to the output row and copying it
 * into the state after the row: the same floats. Identical to TFLM where the
 * compiler does not fuse a multiply and an add. The dot products, nearly all of
 * the work, run in tinyaot_f32_dot.h's integer arithmetic on cores without an
 * FPU (the same bits as the soft-float calls, a fraction of their cost): x and h
 * are unpacked once per step into `unpacked` (input_size + units entries, in the
 * arena; unused with an FPU), the weights split by the generator.
 *
 * Weights: input [units][input_size], recurrent [units][units], per gate in
 * TFLite's order (input, forget, cell, output); their mantissas (see
 * tinyaot_f32_dot.h) as one [gate][units][...] array each. States: [batches][units].
 */
#ifndef TINYAOT_LSTM_F32_H
#define TINYAOT_LSTM_F32_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "tinyaot_f32_dot.h"
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

/* TFLM's ActivationFunctionWithMinMax for no activation: +-inf become +-FLT_MAX, NaN
 * stays; on the bits, since a float compare is a library call on cores without an FPU. */
static inline float tinyaot_lstm_f32_clamp(float x)
{
    const uint32_t u = tinyaot_f32_bits(x);
    if ((u & 0x7FFFFFFFu) == 0x7F800000u) {
        return (u >> 31) ? -FLT_MAX : FLT_MAX;
    }
    return x;
}

/* y + 0.0f (TFLM adds the recurrent product to a zero bias): y, but -0 becomes +0;
 * on the bits, a float add being a library call on cores without an FPU. */
static inline float tinyaot_lstm_f32_plus_zero(float y)
{
    return (tinyaot_f32_bits(y) == 0x80000000u) ? 0.0f : y;
}

#if !TINYAOT_F32_DOT_INTEGER
/*
 * With an FPU: acc[g] = x . (row u of gate g's weights), each summed from 0.0f in
 * order, the four gates in one pass (each x[i] loaded once for four multiply-adds).
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
#endif

static void tinyaot_lstm_f32(const struct tinyaot_lstm_f32_params *p, const float *input,
                             const float *const *input_weights, const uint32_t *input_mantissas,
                             const float *const *recurrent_weights, const uint32_t *recurrent_mantissas,
                             const float *const *biases, float *hidden, float *cell, float *output,
                             struct tinyaot_f32_unpacked *unpacked)
{
    int32_t b, t, u;
#if TINYAOT_F32_DOT_INTEGER
    struct tinyaot_f32_unpacked *in_unpacked = unpacked, *h_unpacked = unpacked + p->input_size;
#else
    (void)unpacked; /* with an FPU the floats are multiplied as they are */
    (void)input_mantissas;
    (void)recurrent_mantissas;
#endif
    for (b = 0; b < p->batches; b++) {
        float *h = hidden + b * p->units;
        float *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const float *in = input + row * p->input_size;
            float *out = output + row * p->units;
#if TINYAOT_F32_DOT_INTEGER
            tinyaot_f32_unpack(in, p->input_size, in_unpacked);
            tinyaot_f32_unpack(h, p->units, h_unpacked);
#endif
            for (u = 0; u < p->units; u++) {
                float x[4], y[4], gate[4], forget, in_gate, cell_gate, out_gate;
                int32_t g;
#if TINYAOT_F32_DOT_INTEGER
                for (g = 0; g < 4; g++) {
                    const int32_t gate_row = g * p->units + u;
                    x[g] = tinyaot_f32_dot(in_unpacked, input_weights[g] + u * p->input_size,
                                           input_mantissas + gate_row * p->input_size, p->input_size);
                    y[g] = tinyaot_f32_dot(h_unpacked, recurrent_weights[g] + u * p->units,
                                           recurrent_mantissas + gate_row * p->units, p->units);
                }
#else
                tinyaot_lstm_f32_dot4(in, input_weights, u, p->input_size, x);
                tinyaot_lstm_f32_dot4(h, recurrent_weights, u, p->units, y);
#endif
                for (g = 0; g < 4; g++) {
                    gate[g] = tinyaot_lstm_f32_clamp(x[g] + biases[g][u]) +
                              tinyaot_lstm_f32_clamp(tinyaot_lstm_f32_plus_zero(y[g]));
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
