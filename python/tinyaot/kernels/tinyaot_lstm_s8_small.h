/*
 * tinyaot_lstm_s8_small.h - the int8 UNIDIRECTIONAL_SEQUENCE_LSTM for --optimize size:
 * tinyaot_lstm_s8's arithmetic (its gates, tinyaot_lstm_cell.h's update: the same
 * results) on the model's int8 weights as they are, one multiply a product, instead of
 * tinyaot_lstm_s8.h's packed gate pairs (two gates' weights in an int32: twice the
 * weights' flash for about half the instructions).
 *
 * Weights: input [units][input_size], recurrent [units][units], per gate in TFLite's
 * order (input, forget, cell, output). States: [batches][units].
 */
#ifndef TINYAOT_LSTM_S8_SMALL_H
#define TINYAOT_LSTM_S8_SMALL_H

#include <stdint.h>
#include <string.h>

#include "tinyaot_lstm_s8.h"

/* acc[g] += x . (row `row` of gate g's weights) over n values (unsigned sums: they wrap as
   tinyaot_lstm_s8's folded offsets assume). Out of line: its pointers and sums then stay in registers
   (inlined, GCC 12 spills them on the M3: 15 instructions a value, not 11). Armv6-M has eight low
   registers and LDRSB only with a register offset: four gates in one pass need nine (x, four weight
   rows, the count, the value, a product; GCC then keeps pointers in high registers and on the stack:
   20 instructions a value), so there two gates a pass, the value loaded once for each pair and the
   index counting down (`while (n-- > 0)`: GCC 12 -O2 ends the loop on SUBS; BCS): 9 instructions a
   value and pair, 18 for the four gates (lstm_seq28_units100 on qemu_cortex_m0: see README's LSTM
   section). The pair's two sums come back in r0:r1 as a uint64_t: four arguments, all in registers,
   and no pointer to keep, so the call costs about 20 instructions. */
#if defined(__ARM_ARCH_6M__)
static TINYAOT_NOINLINE uint64_t tinyaot_lstm_s8_small_dot2(const int8_t *x, const int8_t *w0, const int8_t *w1,
                                                           int32_t n)
{
    uint32_t a0 = 0, a1 = 0;
    while (n-- > 0) {
        const int32_t v = x[n];
        a0 += (uint32_t)(v * w0[n]);
        a1 += (uint32_t)(v * w1[n]);
    }
    return (uint64_t)a1 << 32 | a0;
}

static inline void tinyaot_lstm_s8_small_dot4(const int8_t *x, const int8_t *const *weights, int32_t row, int32_t n,
                                              int32_t *acc)
{
    int32_t g;
    for (g = 0; g < 4; g += 2) {
        const uint64_t sums = tinyaot_lstm_s8_small_dot2(x, weights[g] + row * n, weights[g + 1] + row * n, n);
        acc[g] = (int32_t)((uint32_t)acc[g] + (uint32_t)sums);
        acc[g + 1] = (int32_t)((uint32_t)acc[g + 1] + (uint32_t)(sums >> 32));
    }
}
#else
static TINYAOT_NOINLINE void tinyaot_lstm_s8_small_dot4(const int8_t *x, const int8_t *const *weights, int32_t row, int32_t n,
                                              int32_t *acc)
{
    const int8_t *w0 = weights[0] + row * n, *w1 = weights[1] + row * n;
    const int8_t *w2 = weights[2] + row * n, *w3 = weights[3] + row * n;
    uint32_t a0 = (uint32_t)acc[0], a1 = (uint32_t)acc[1], a2 = (uint32_t)acc[2], a3 = (uint32_t)acc[3];
    int32_t i;
    for (i = 0; i < n; i++) {
        const int32_t v = x[i];
        a0 += (uint32_t)(v * w0[i]);
        a1 += (uint32_t)(v * w1[i]);
        a2 += (uint32_t)(v * w2[i]);
        a3 += (uint32_t)(v * w3[i]);
    }
    acc[0] = (int32_t)a0;
    acc[1] = (int32_t)a1;
    acc[2] = (int32_t)a2;
    acc[3] = (int32_t)a3;
}
#endif

/* bias: as tinyaot_lstm_s8's ([gate][unit] input FC sums with the input offset, then recurrent). */
static inline void tinyaot_lstm_s8_small(const struct tinyaot_lstm_int_params *p, const int32_t *multiplier,
                                         const int32_t *shift, const int32_t *bias, const uint16_t *sigmoid,
                                         const int8_t *input, const int8_t *const *input_weights,
                                         const int8_t *const *recurrent_weights, int8_t *hidden, int16_t *cell,
                                         int8_t *output)
{
    int32_t b, t, u, g;
    for (b = 0; b < p->batches; b++) {
        int8_t *h = hidden + b * p->units;
        int16_t *c = cell + b * p->units;
        for (t = 0; t < p->steps; t++) {
            const int32_t row = p->time_major ? t * p->batches + b : b * p->steps + t;
            const int8_t *in = input + row * p->input_size;
            int8_t *out = output + row * p->units;
            const int32_t at_rest = tinyaot_lstm_at_rest(h, p->units, (uint8_t)p->output_offset);
            for (u = 0; u < p->units; u++) {
                int32_t x[4], y[4], gate[4];
                for (g = 0; g < 4; g++) {
                    x[g] = bias[g * p->units + u];
                    y[g] = bias[(TINYAOT_LSTM_RECURRENT + g) * p->units + u];
                }
                tinyaot_lstm_s8_small_dot4(in, input_weights, u, p->input_size, x);
                if (!at_rest) {
                    tinyaot_lstm_s8_small_dot4(h, recurrent_weights, u, p->units, y);
                }
                for (g = 0; g < 4; g++) {
                    gate[g] = tinyaot_lstm_s8_gate(x[g], y[g], at_rest, multiplier, shift, g);
                }
                out[u] = (int8_t)tinyaot_clamp_i32(
                    p->output_offset + tinyaot_lstm_cell_update(p, multiplier, shift, sigmoid, gate, &c[u], 1), -128, 127);
            }
            memcpy(h, out, (size_t)p->units);
        }
    }
}

#endif /* TINYAOT_LSTM_S8_SMALL_H */
