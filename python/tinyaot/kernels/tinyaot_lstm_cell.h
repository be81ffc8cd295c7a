/*
 * tinyaot_lstm_cell.h - what the integer LSTM kernels (tinyaot_lstm_s8.h,
 * tinyaot_lstm_s16.h) share: TFLM's integer cell and hidden state update of one
 * unit from its four gates' pre-activations (lstm_eval.h UpdateLstmCell,
 * UpdateLstmHidden):
 *   c = sat16(sat16(rq(forget * c)) + sat16(rq(input * cell_gate))), clipped
 *     to +-cell_clip unless that is -1;
 *   h = rq(tanh(c) * output), tanh(c) rescaled by the cell state's power-of-two
 *     scale; the kernel adds the hidden state's zero point and clamps.
 * The gates are TFLM's reference_integer_ops::Logistic/Tanh on int16 at 2^-12
 * in, 2^-15 out.
 */
#ifndef TINYAOT_LSTM_CELL_H
#define TINYAOT_LSTM_CELL_H

#include <stdint.h>
#if defined(__ARM_FEATURE_SAT) && __ARM_FEATURE_SAT
#include <arm_acle.h>
#endif

#include "tinyaot_common.h"
#include "tinyaot_sigmoid.h"

struct tinyaot_lstm_int_params {
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

/* One SSAT where the core has it (GCC does not find it in the clamp's compares). */
static inline int32_t tinyaot_lstm_s16_sat(int32_t x)
{
#if defined(__ARM_FEATURE_SAT) && __ARM_FEATURE_SAT
    return __ssat(x, 16);
#else
    return tinyaot_clamp_i32(x, -32768, 32767);
#endif
}

/*
 * Whether the hidden state (`bytes` bytes) is at its zero point, every byte `rest`
 * (int8: the zero point's byte; int16: zero point 0): so after a reset and at the
 * first call. Then every recurrent sum (offset folded into its bias) is exactly 0
 * and so is its requantized term: the step skips those dot products and their
 * requantization (TFLM + CMSIS-NN's glue skips them at every call's first step).
 */
static inline int32_t tinyaot_lstm_at_rest(const void *hidden, int32_t bytes, uint8_t rest)
{
    const uint8_t *h = (const uint8_t *)hidden;
    int32_t i;
    for (i = 0; i < bytes; i++) {
        if (h[i] != rest) {
            return 0;
        }
    }
    return 1;
}

/*
 * tinyaot_requantize for the cell's products. Their multipliers are mostly 2^30 (the forget
 * product's always: 2^-15 * s_c / s_c; the others with power-of-two cell and hidden scales),
 * and then, without a long multiply, the two roundings of |x| 2^30 are one shift:
 * floor((|x| 2^30 + 2^30 + 2^(30+r) - neg) / 2^(31+r)) = floor((|x| + 1 + 2^r - neg) / 2^(1+r))
 * (neg < 2^30: it only lowers a whole number). Constant multiplier and shift: one path is kept.
 */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_lstm_rescale_product(int32_t x, int32_t multiplier, int32_t shift,
                                                                  int32_t by_shift)
{
#if !TINYAOT_LONG_MULTIPLY
    if (by_shift && multiplier == 0x40000000 && shift <= -1 && shift >= -30) {
        const uint32_t neg = (uint32_t)(x >> 31); /* all ones for a negative x */
        const uint32_t mag = ((((uint32_t)x ^ neg) - neg) + (1u << -shift) + 1u + neg) >> (1 - shift);
        return (int32_t)((mag ^ neg) - neg);
    }
#else
    (void)by_shift;
#endif
    return tinyaot_requantize(x, multiplier, shift);
}

/* gate: the input, forget, cell and output gates' pre-activations at 2^-12 (int16
   values); updates *c and returns the new hidden value less its zero point. by_shift (a
   constant): the products through tinyaot_lstm_rescale_product; the 16x8 kernel passes 0, since
   with it GCC 12 spills in that kernel's dot loop on Armv6-M (lstm_seq28_16x8 on qemu_cortex_m0:
   1.09 M -> 1.21 M instructions). */
static inline int32_t tinyaot_lstm_cell_update(const struct tinyaot_lstm_int_params *p, const int32_t *multiplier,
                                               const int32_t *shift, const uint16_t *sigmoid, const int32_t *gate,
                                               int16_t *c, int32_t by_shift)
{
    /* At 2^-12 the sigmoid table's steps are 3 input steps. */
    const int32_t in_gate = tinyaot_sigmoid_s16_of(sigmoid, 3 * gate[0]);
    const int32_t forget = tinyaot_sigmoid_s16_of(sigmoid, 3 * gate[1]);
    const int32_t cell_gate = tinyaot_tanh_s16_of(sigmoid, 3 * gate[2]);
    const int32_t out_gate = tinyaot_sigmoid_s16_of(sigmoid, 3 * gate[3]);
    const int32_t tanh_round = p->tanh_shift > 0 ? 1 << (p->tanh_shift - 1) : 0;
    int32_t c_new = tinyaot_lstm_s16_sat(
        tinyaot_lstm_s16_sat(tinyaot_lstm_rescale_product(forget * *c, multiplier[TINYAOT_LSTM_FORGET_MUL],
                                                          shift[TINYAOT_LSTM_FORGET_MUL], by_shift))
        + tinyaot_lstm_s16_sat(tinyaot_lstm_rescale_product(in_gate * cell_gate, multiplier[TINYAOT_LSTM_INPUT_MUL],
                                                            shift[TINYAOT_LSTM_INPUT_MUL], by_shift)));
    int32_t tanh_c;
    if (p->cell_clip >= 0) {
        c_new = tinyaot_clamp_i32(c_new, -p->cell_clip, p->cell_clip);
    }
    *c = (int16_t)c_new;
    tanh_c = tinyaot_tanh_s16_of(sigmoid, (c_new * p->tanh_multiplier + tanh_round) >> p->tanh_shift);
    return tinyaot_lstm_rescale_product(tanh_c * out_gate, multiplier[TINYAOT_LSTM_HIDDEN_MUL],
                                        shift[TINYAOT_LSTM_HIDDEN_MUL], by_shift);
}

#endif /* TINYAOT_LSTM_CELL_H */
