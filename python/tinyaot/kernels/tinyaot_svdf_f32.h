/*
 * tinyaot_svdf_f32.h - float32 SVDF (float32 input, weights, bias, state, output).
 *
 * TFLM's EvalFloatSvdfReference (svdf_common.cc) operation for operation:
 *   1. shift every state row left by one (drop the oldest activation),
 *   2. newest activation = feature_row . input, summed from 0.0f in input order,
 *   3. per filter, time_row . state_row summed from 0.0f in memory order,
 *   4. out[unit] = bias (0.0f without one), then += each of the unit's `rank`
 *      filter sums in order, then the fused activation with TFLM's
 *      ActivationValFloat (fmaxf/fminf, as TFLM outside Zephyr; TANH is the
 *      C library's tanhf, SIGN_BIT 1.0f for a set sign bit, else 0.0f).
 * TFLM does step 1 for all rows, then 2 for all, then 3 into a scratch buffer;
 * rows are independent, so doing 1-3 filter by filter gives the same floats
 * with no scratch memory. Identical to TFLM where the compiler does not fuse a
 * multiply and an add (Cortex-M0/M3 soft-float never fuses).
 *
 * State layout, as in TFLM: [batch][filter][memory], oldest first.
 */
#ifndef TINYAOT_SVDF_F32_H
#define TINYAOT_SVDF_F32_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* The TFLite fused activation codes SVDF takes in float32. */
#define TINYAOT_SVDF_ACT_NONE 0
#define TINYAOT_SVDF_ACT_RELU 1
#define TINYAOT_SVDF_ACT_RELU_N1_TO_1 2
#define TINYAOT_SVDF_ACT_RELU6 3
#define TINYAOT_SVDF_ACT_TANH 4
#define TINYAOT_SVDF_ACT_SIGN_BIT 5

struct tinyaot_svdf_f32_params {
    int32_t batches;
    int32_t input_size;       /* input values per batch */
    int32_t num_units;        /* output values per batch */
    int32_t rank;             /* filters per unit */
    int32_t memory_size;      /* activations kept per filter */
    int32_t activation;       /* TINYAOT_SVDF_ACT_* */
};

/*
 * Moves one filter's history left by one, stores its newest activation for
 * this input, and returns time_weights . history.
 */
static inline float tinyaot_svdf_f32_filter(const struct tinyaot_svdf_f32_params *p, const float *in,
                                            const float *feature, const float *time, float *row)
{
    int32_t i;
    float acc = 0.0f;
    for (i = 0; i + 1 < p->memory_size; i++) {
        row[i] = row[i + 1];
    }
    for (i = 0; i < p->input_size; i++) {
        acc += feature[i] * in[i];
    }
    row[p->memory_size - 1] = acc;

    acc = 0.0f;
    for (i = 0; i < p->memory_size; i++) {
        acc += time[i] * row[i];
    }
    return acc;
}

static inline float tinyaot_svdf_f32_activate(int32_t activation, float x)
{
    switch (activation) {
    case TINYAOT_SVDF_ACT_RELU: return fmaxf(0.0f, x);
    case TINYAOT_SVDF_ACT_RELU_N1_TO_1: return fmaxf(-1.0f, fminf(x, 1.0f));
    case TINYAOT_SVDF_ACT_RELU6: return fmaxf(0.0f, fminf(x, 6.0f));
    case TINYAOT_SVDF_ACT_TANH: return tanhf(x);
    case TINYAOT_SVDF_ACT_SIGN_BIT: return signbit(x) ? 1.0f : 0.0f;
    default: return x;
    }
}

/*
 * feature_weights: [num_units * rank][input_size]; time_weights:
 * [num_units * rank][memory_size]; bias: [num_units] or NULL;
 * state: [batches][num_units * rank][memory_size], kept between calls.
 */
static void tinyaot_svdf_f32(const struct tinyaot_svdf_f32_params *p, const float *input,
                             const float *feature_weights, const float *time_weights,
                             const float *bias, float *state, float *output)
{
    const int32_t num_filters = p->num_units * p->rank;
    int32_t b, u, r;
    for (b = 0; b < p->batches; b++) {
        const float *in = input + b * p->input_size;
        for (u = 0; u < p->num_units; u++) {
            float acc = bias != NULL ? bias[u] : 0.0f;
            for (r = 0; r < p->rank; r++) {
                const int32_t f = u * p->rank + r;
                acc += tinyaot_svdf_f32_filter(p, in, feature_weights + f * p->input_size,
                                               time_weights + f * p->memory_size,
                                               state + (b * num_filters + f) * p->memory_size);
            }
            output[b * p->num_units + u] = tinyaot_svdf_f32_activate(p->activation, acc);
        }
    }
}

#endif /* TINYAOT_SVDF_F32_H */
