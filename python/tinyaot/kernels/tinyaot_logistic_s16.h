/*
 * tinyaot_logistic_s16.h - int16 LOGISTIC and TANH (16x8): int16 input and
 * output, zero points 0, output scale 1/32768.
 *
 * Matches TFLM's reference_integer_ops::Logistic and Tanh for int16: the input
 * is rescaled to steps of 1/(3*4096) (sigmoid) or 1/(3*2048) (tanh(x) =
 * 2 sigmoid(2x) - 1), and its magnitude interpolated linearly between the
 * knots of a 256-entry table of sigmoid (computed by the generator,
 * tinyaot.ops.lut.sigmoid_table), 512 (sigmoid) or 256 (tanh) steps apart;
 * negative inputs mirror it. All arithmetic fits in 32 bits.
 */
#ifndef TINYAOT_LOGISTIC_S16_H
#define TINYAOT_LOGISTIC_S16_H

#include "tinyaot_common.h"
#include "tinyaot_sigmoid.h"

struct tinyaot_logistic_s16_params {
    int32_t size;              /* number of values */
    int32_t tanh;              /* 0: LOGISTIC, 1: TANH */
    int32_t input_multiplier;  /* input x multiplier, rounded right by input_shift, */
    int32_t input_shift;       /* gives the table's steps */
};

static void tinyaot_logistic_s16(const struct tinyaot_logistic_s16_params *p, const uint16_t *sigmoid,
                                 const int16_t *input, int16_t *output)
{
    const int32_t round = p->input_shift > 0 ? 1 << (p->input_shift - 1) : 0;
    int32_t i;
    for (i = 0; i < p->size; i++) {
        const int32_t x = ((int32_t)input[i] * p->input_multiplier + round) >> p->input_shift;
        output[i] = p->tanh ? tinyaot_tanh_s16_of(sigmoid, x) : tinyaot_sigmoid_s16_of(sigmoid, x);
    }
}

#endif /* TINYAOT_LOGISTIC_S16_H */
