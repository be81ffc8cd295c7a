/*
 * tinyaot_cmsis_nn.h - calls into Arm's CMSIS-NN (v7 API) for the cmsis-nn backend.
 *
 * The generator computes every parameter at build time into flat, static const
 * structs and tables in flash; these functions only unpack them into CMSIS-NN's
 * argument structs and call the kernel, as TFLM's cmsis_nn glue does at Eval.
 * Scratch buffers are planned in the model's arena (NULL where CMSIS-NN needs none).
 * Static, so a model includes only the calls it uses. Each returns CMSIS-NN's status: ARM_CMSIS_NN_SUCCESS for every call the
 * generator emits. The two convolutions' calls stay out of line (TINYAOT_CMSIS_OUT_OF_LINE, one copy
 * a model): inlined, every layer's step carried its own copy of the unpacking (MobileNetV1 0.25 on a
 * Cortex-M4: 160 bytes a layer; now 52-72 and a 40-byte struct).
 */
#ifndef TINYAOT_CMSIS_NN_H
#define TINYAOT_CMSIS_NN_H

#include <stdint.h>

#include <string.h>

#include "arm_nnfunctions.h"
#include "arm_nnsupportfunctions.h" /* arm_nn_lstm_step_s8, _s16 */

#if defined(__GNUC__) || defined(__clang__)
#define TINYAOT_CMSIS_OUT_OF_LINE __attribute__((noinline, unused))
#else
#define TINYAOT_CMSIS_OUT_OF_LINE
#endif

/* CONV_2D and DEPTHWISE_CONV_2D (ch_mult is 1 for CONV_2D). 16-bit fields (the generator keeps
 * a convolution with a larger dimension portable): each layer's struct is 40 bytes of flash. */
struct tinyaot_cmsis_conv_params {
    int16_t input_n, input_h, input_w, input_c;
    int16_t filter_h, filter_w;
    int16_t output_h, output_w, output_c;
    int16_t stride_h, stride_w;
    int16_t pad_h, pad_w;
    int16_t dilation_h, dilation_w;
    int16_t input_offset;   /* -input zero point */
    int16_t output_offset;  /* output zero point */
    int16_t act_min, act_max;
    int16_t ch_mult;
};

struct tinyaot_cmsis_fc_params {
    int32_t batches;
    int32_t accum_depth;
    int32_t output_depth;
    int32_t input_offset;   /* -input zero point */
    int32_t filter_offset;  /* -filter zero point */
    int32_t output_offset;  /* output zero point */
    int32_t act_min, act_max;
    int32_t per_channel;    /* 1: one multiplier/shift per output, 0: one for all */
};

static inline void tinyaot_cmsis_dims(cmsis_nn_dims *d, int32_t n, int32_t h, int32_t w, int32_t c)
{
    d->n = n;
    d->h = h;
    d->w = w;
    d->c = c;
}

/* Input, output and bias shapes of both convolutions. */
static inline void tinyaot_cmsis_conv_dims(const struct tinyaot_cmsis_conv_params *p, cmsis_nn_dims *input,
                                           cmsis_nn_dims *bias, cmsis_nn_dims *output)
{
    tinyaot_cmsis_dims(input, p->input_n, p->input_h, p->input_w, p->input_c);
    tinyaot_cmsis_dims(bias, 1, 1, 1, p->output_c);
    tinyaot_cmsis_dims(output, p->input_n, p->output_h, p->output_w, p->output_c);
}

/* The CMSIS-NN kernel the generator picked for a convolution: the one CMSIS-NN's
 * wrapper would pick at run time, called directly so only it is linked. */
typedef arm_cmsis_nn_status (*tinyaot_cmsis_conv_kernel)(
    const cmsis_nn_context *, const cmsis_nn_conv_params *, const cmsis_nn_per_channel_quant_params *,
    const cmsis_nn_dims *, const int8_t *, const cmsis_nn_dims *, const int8_t *, const cmsis_nn_dims *,
    const int32_t *, const cmsis_nn_dims *, int8_t *);
typedef arm_cmsis_nn_status (*tinyaot_cmsis_depthwise_kernel)(
    const cmsis_nn_context *, const cmsis_nn_dw_conv_params *, const cmsis_nn_per_channel_quant_params *,
    const cmsis_nn_dims *, const int8_t *, const cmsis_nn_dims *, const int8_t *, const cmsis_nn_dims *,
    const int32_t *, const cmsis_nn_dims *, int8_t *);

/* arm_convolve_s8 with the conv kernels' signature (it also takes an unused upscale shape). */
static inline arm_cmsis_nn_status tinyaot_cmsis_convolve_s8(
    const cmsis_nn_context *ctx, const cmsis_nn_conv_params *conv, const cmsis_nn_per_channel_quant_params *quant,
    const cmsis_nn_dims *input_dims, const int8_t *input, const cmsis_nn_dims *filter_dims, const int8_t *filter,
    const cmsis_nn_dims *bias_dims, const int32_t *bias, const cmsis_nn_dims *output_dims, int8_t *output)
{
    return arm_convolve_s8(ctx, conv, quant, input_dims, input, filter_dims, filter, bias_dims, bias, NULL,
                           output_dims, output);
}

/* Everything both convolutions pass to CMSIS-NN but the filter shape and the depth multiplier. */
static inline void tinyaot_cmsis_conv_setup(const struct tinyaot_cmsis_conv_params *p, const int32_t *multiplier,
                                            const int32_t *shift, void *scratch, cmsis_nn_conv_params *conv,
                                            cmsis_nn_per_channel_quant_params *quant, cmsis_nn_context *ctx)
{
    /* CMSIS-NN takes non-const pointers to the tables but only reads them. */
    quant->multiplier = (int32_t *)multiplier;
    quant->shift = (int32_t *)shift;
    conv->input_offset = p->input_offset;
    conv->output_offset = p->output_offset;
    conv->stride.h = p->stride_h;
    conv->stride.w = p->stride_w;
    conv->padding.h = p->pad_h;
    conv->padding.w = p->pad_w;
    conv->dilation.h = p->dilation_h;
    conv->dilation.w = p->dilation_w;
    conv->activation.min = p->act_min;
    conv->activation.max = p->act_max;
    ctx->buf = scratch;
    ctx->size = 0; /* CMSIS-NN does not read it; the planner sized the buffer */
}

/* What a CONV_2D (DEPTHWISE_CONV_2D: dw) call passes to CMSIS-NN but its tensors, int8 or 16x8. */
struct tinyaot_cmsis_conv_args {
    cmsis_nn_per_channel_quant_params quant;
    cmsis_nn_conv_params conv;
    cmsis_nn_dw_conv_params dw;
    cmsis_nn_context ctx;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
};

static inline void tinyaot_cmsis_conv_args_of(const struct tinyaot_cmsis_conv_params *p, const int32_t *multiplier,
                                              const int32_t *shift, void *scratch, struct tinyaot_cmsis_conv_args *a)
{
    tinyaot_cmsis_conv_setup(p, multiplier, shift, scratch, &a->conv, &a->quant, &a->ctx);
    tinyaot_cmsis_conv_dims(p, &a->input_dims, &a->bias_dims, &a->output_dims);
    tinyaot_cmsis_dims(&a->filter_dims, p->output_c, p->filter_h, p->filter_w, p->input_c);
}

static TINYAOT_CMSIS_OUT_OF_LINE int32_t
tinyaot_cmsis_conv_s8(const struct tinyaot_cmsis_conv_params *p, const int32_t *multiplier, const int32_t *shift,
                      void *scratch, const int8_t *input, const int8_t *filter, const int32_t *bias, int8_t *output,
                      tinyaot_cmsis_conv_kernel kernel)
{
    struct tinyaot_cmsis_conv_args a;
    tinyaot_cmsis_conv_args_of(p, multiplier, shift, scratch, &a);
    return kernel(&a.ctx, &a.conv, &a.quant, &a.input_dims, input, &a.filter_dims, filter, &a.bias_dims, bias,
                  &a.output_dims, output);
}

/* 16x8 CONV_2D: arm_convolve_s16, what arm_convolve_wrapper_s16 calls; bias int64 or, with
   int32_bias, int32 (TFLM's cmsis_nn_bias_data). */
static inline int32_t tinyaot_cmsis_conv_s16(const struct tinyaot_cmsis_conv_params *p, const int32_t *multiplier,
                                             const int32_t *shift, void *scratch, const int16_t *input,
                                             const int8_t *filter, const void *bias, int16_t *output,
                                             int32_t int32_bias)
{
    const cmsis_nn_bias_data bias_data = {bias, int32_bias != 0};
    struct tinyaot_cmsis_conv_args a;
    tinyaot_cmsis_conv_args_of(p, multiplier, shift, scratch, &a);
    return arm_convolve_s16(&a.ctx, &a.conv, &a.quant, &a.input_dims, input, &a.filter_dims, filter, &a.bias_dims,
                            &bias_data, &a.output_dims, output);
}

/* 16x8 FULLY_CONNECTED: arm_fully_connected_s16 (per-tensor multiplier, int64 bias or none; no scratch). */
static inline int32_t tinyaot_cmsis_fully_connected_s16(const struct tinyaot_cmsis_fc_params *p, int32_t multiplier,
                                                        int32_t shift, const int16_t *input, const int8_t *weights,
                                                        const int64_t *bias, int16_t *output)
{
    cmsis_nn_context ctx = {NULL, 0};
    cmsis_nn_fc_params fc;
    cmsis_nn_per_tensor_quant_params quant;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    fc.input_offset = 0;
    fc.filter_offset = 0;
    fc.output_offset = 0;
    fc.activation.min = p->act_min;
    fc.activation.max = p->act_max;
    quant.multiplier = multiplier;
    quant.shift = shift;
    tinyaot_cmsis_dims(&input_dims, p->batches, 1, 1, p->accum_depth);
    tinyaot_cmsis_dims(&filter_dims, p->accum_depth, 1, 1, p->output_depth);
    tinyaot_cmsis_dims(&bias_dims, 1, 1, 1, p->output_depth);
    tinyaot_cmsis_dims(&output_dims, p->batches, 1, 1, p->output_depth);
    return arm_fully_connected_s16(&ctx, &fc, &quant, &input_dims, input, &filter_dims, weights, &bias_dims, bias,
                                   &output_dims, output);
}

static inline void tinyaot_cmsis_dw_args_of(const struct tinyaot_cmsis_conv_params *p, const int32_t *multiplier,
                                            const int32_t *shift, void *scratch, struct tinyaot_cmsis_conv_args *a)
{
    tinyaot_cmsis_conv_args_of(p, multiplier, shift, scratch, a);
    a->dw.input_offset = a->conv.input_offset;
    a->dw.output_offset = a->conv.output_offset;
    a->dw.ch_mult = p->ch_mult;
    a->dw.stride = a->conv.stride;
    a->dw.padding = a->conv.padding;
    a->dw.dilation = a->conv.dilation;
    a->dw.activation = a->conv.activation;
    tinyaot_cmsis_dims(&a->filter_dims, 1, p->filter_h, p->filter_w, p->output_c);
}

static TINYAOT_CMSIS_OUT_OF_LINE int32_t
tinyaot_cmsis_depthwise_conv_s8(const struct tinyaot_cmsis_conv_params *p, const int32_t *multiplier,
                                const int32_t *shift, void *scratch, const int8_t *input, const int8_t *filter,
                                const int32_t *bias, int8_t *output, tinyaot_cmsis_depthwise_kernel kernel)
{
    struct tinyaot_cmsis_conv_args a;
    tinyaot_cmsis_dw_args_of(p, multiplier, shift, scratch, &a);
    return kernel(&a.ctx, &a.dw, &a.quant, &a.input_dims, input, &a.filter_dims, filter, &a.bias_dims, bias,
                  &a.output_dims, output);
}

/* 16x8 DEPTHWISE_CONV_2D: arm_depthwise_conv_s16, as TFLM's CMSIS-NN glue calls it (int64 bias or
   none; no scratch). */
static inline int32_t tinyaot_cmsis_depthwise_conv_s16(const struct tinyaot_cmsis_conv_params *p,
                                                       const int32_t *multiplier, const int32_t *shift,
                                                       const int16_t *input, const int8_t *filter,
                                                       const int64_t *bias, int16_t *output)
{
    struct tinyaot_cmsis_conv_args a;
    tinyaot_cmsis_dw_args_of(p, multiplier, shift, NULL, &a);
    return arm_depthwise_conv_s16(&a.ctx, &a.dw, &a.quant, &a.input_dims, input, &a.filter_dims, filter,
                                  &a.bias_dims, bias, &a.output_dims, output);
}

/* kernel_sums: on Helium (MVE) cores, each output's bias + input offset x (its weights' sum +
 * depth x filter offset), computed by the generator (TFLM: arm_vector_sum_s8); NULL elsewhere. */
static inline int32_t tinyaot_cmsis_fully_connected_s8(const struct tinyaot_cmsis_fc_params *p,
                                                const int32_t *multiplier, const int32_t *shift,
                                                const int32_t *kernel_sums, const int8_t *input,
                                                const int8_t *filter, const int32_t *bias, int8_t *output)
{
    cmsis_nn_quant_params quant;
    cmsis_nn_fc_params fc;
    cmsis_nn_context ctx;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    quant.multiplier = (int32_t *)multiplier;
    quant.shift = (int32_t *)shift;
    quant.is_per_channel = p->per_channel;
    fc.input_offset = p->input_offset;
    fc.filter_offset = p->filter_offset;
    fc.output_offset = p->output_offset;
    fc.activation.min = p->act_min;
    fc.activation.max = p->act_max;
    ctx.buf = (void *)(uintptr_t)kernel_sums; /* CMSIS-NN only reads them */
    ctx.size = 0;
    tinyaot_cmsis_dims(&input_dims, p->batches, 1, 1, p->accum_depth);
    tinyaot_cmsis_dims(&filter_dims, p->accum_depth, 1, 1, p->output_depth);
    tinyaot_cmsis_dims(&bias_dims, 1, 1, 1, p->output_depth);
    tinyaot_cmsis_dims(&output_dims, p->batches, 1, 1, p->output_depth);
    return arm_fully_connected_wrapper_s8(&ctx, &fc, &quant, &input_dims, input, &filter_dims, filter,
                                          &bias_dims, bias, &output_dims, output);
}

/* AVERAGE_POOL_2D and MAX_POOL_2D. */
struct tinyaot_cmsis_pool_params {
    int32_t max;  /* 1: MAX_POOL_2D, 0: AVERAGE_POOL_2D */
    int32_t batches, input_h, input_w, channels;
    int32_t filter_h, filter_w;
    int32_t output_h, output_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;
    int32_t act_min, act_max;
};

/* What a pooling call passes to CMSIS-NN but its tensors, int8 or 16x8. */
struct tinyaot_cmsis_pool_args {
    cmsis_nn_context ctx;
    cmsis_nn_pool_params pool;
    cmsis_nn_dims input_dims, filter_dims, output_dims;
};

static inline void tinyaot_cmsis_pool_args_of(const struct tinyaot_cmsis_pool_params *p, void *scratch,
                                              struct tinyaot_cmsis_pool_args *a)
{
    a->ctx.buf = scratch;
    a->ctx.size = 0;
    a->pool.stride.h = p->stride_h;
    a->pool.stride.w = p->stride_w;
    a->pool.padding.h = p->pad_h;
    a->pool.padding.w = p->pad_w;
    a->pool.activation.min = p->act_min;
    a->pool.activation.max = p->act_max;
    tinyaot_cmsis_dims(&a->input_dims, p->batches, p->input_h, p->input_w, p->channels);
    tinyaot_cmsis_dims(&a->filter_dims, 1, p->filter_h, p->filter_w, 1);
    tinyaot_cmsis_dims(&a->output_dims, p->batches, p->output_h, p->output_w, p->channels);
}

static inline int32_t tinyaot_cmsis_pool_s8(const struct tinyaot_cmsis_pool_params *p, void *scratch,
                                            const int8_t *input, int8_t *output)
{
    struct tinyaot_cmsis_pool_args a;
    tinyaot_cmsis_pool_args_of(p, scratch, &a);
    if (p->max) {
        return arm_max_pool_s8(&a.ctx, &a.pool, &a.input_dims, input, &a.filter_dims, &a.output_dims, output);
    }
    return arm_avgpool_s8(&a.ctx, &a.pool, &a.input_dims, input, &a.filter_dims, &a.output_dims, output);
}

/* 16x8 pooling: arm_max_pool_s16 and arm_avgpool_s16. */
static inline int32_t tinyaot_cmsis_pool_s16(const struct tinyaot_cmsis_pool_params *p, void *scratch,
                                             const int16_t *input, int16_t *output)
{
    struct tinyaot_cmsis_pool_args a;
    tinyaot_cmsis_pool_args_of(p, scratch, &a);
    if (p->max) {
        return arm_max_pool_s16(&a.ctx, &a.pool, &a.input_dims, input, &a.filter_dims, &a.output_dims, output);
    }
    return arm_avgpool_s16(&a.ctx, &a.pool, &a.input_dims, input, &a.filter_dims, &a.output_dims, output);
}

/* SOFTMAX over the last dimension: outer_size rows of depth values. */
struct tinyaot_cmsis_softmax_params {
    int32_t outer_size;
    int32_t depth;
    int32_t input_multiplier;
    int32_t input_left_shift;
    int32_t diff_min;
};

static inline void tinyaot_cmsis_softmax_s8(const struct tinyaot_cmsis_softmax_params *p, const int8_t *input,
                                            int8_t *output)
{
    arm_softmax_s8(input, p->outer_size, p->depth, p->input_multiplier, p->input_left_shift, p->diff_min, output);
}

static inline void tinyaot_cmsis_softmax_s8_s16(const struct tinyaot_cmsis_softmax_params *p, const int8_t *input,
                                                int16_t *output)
{
    arm_softmax_s8_s16(input, p->outer_size, p->depth, p->input_multiplier, p->input_left_shift, p->diff_min,
                       output);
}

/* 16x8 SOFTMAX: arm_softmax_s16 with TFLM's exp and 1 / (1 + x) tables (513 values each). */
struct tinyaot_cmsis_softmax_s16_params {
    int32_t outer_size;
    int32_t depth;
    int32_t input_multiplier;
    int32_t input_shift;
};

static inline int32_t tinyaot_cmsis_softmax_s16(const struct tinyaot_cmsis_softmax_s16_params *p,
                                                const int16_t *exp_lut, const int16_t *one_by_one_lut,
                                                const int16_t *input, int16_t *output)
{
    cmsis_nn_softmax_lut_s16 luts;
    luts.exp_lut = exp_lut;
    luts.one_by_one_lut = one_by_one_lut;
    return arm_softmax_s16(input, p->outer_size, p->depth, p->input_multiplier, p->input_shift, &luts, output);
}

/* ADD and MUL of equal shapes (CMSIS-NN's elementwise kernels do not broadcast). */
struct tinyaot_cmsis_add_params {
    int32_t size;
    int32_t input1_offset, input2_offset, output_offset;
    int32_t output_multiplier, output_shift;
    int32_t act_min, act_max;
    int32_t left_shift;
    int32_t input1_multiplier, input1_shift;
    int32_t input2_multiplier, input2_shift;
};

static inline int32_t tinyaot_cmsis_add_s8(const struct tinyaot_cmsis_add_params *p, const int8_t *input1,
                                           const int8_t *input2, int8_t *output)
{
    return arm_elementwise_add_s8(input1, input2, p->input1_offset, p->input1_multiplier, p->input1_shift,
                                  p->input2_offset, p->input2_multiplier, p->input2_shift, p->left_shift, output,
                                  p->output_offset, p->output_multiplier, p->output_shift, p->act_min,
                                  p->act_max, p->size);
}

struct tinyaot_cmsis_mul_params {
    int32_t size;
    int32_t input1_offset, input2_offset, output_offset;
    int32_t output_multiplier, output_shift;
    int32_t act_min, act_max;
};

static inline int32_t tinyaot_cmsis_mul_s8(const struct tinyaot_cmsis_mul_params *p, const int8_t *input1,
                                           const int8_t *input2, int8_t *output)
{
    return arm_elementwise_mul_s8(input1, input2, p->input1_offset, p->input2_offset, output, p->output_offset,
                                  p->output_multiplier, p->output_shift, p->act_min, p->act_max, p->size);
}

/* 16x8 ADD and MUL of equal shapes, zero points 0 (arm_elementwise_add_s16 and _mul_s16 ignore offsets). */
static inline int32_t tinyaot_cmsis_add_s16(const struct tinyaot_cmsis_add_params *p, const int16_t *input1,
                                            const int16_t *input2, int16_t *output)
{
    return arm_elementwise_add_s16(input1, input2, 0, p->input1_multiplier, p->input1_shift, 0,
                                   p->input2_multiplier, p->input2_shift, p->left_shift, output, 0,
                                   p->output_multiplier, p->output_shift, p->act_min, p->act_max, p->size);
}

static inline int32_t tinyaot_cmsis_mul_s16(const struct tinyaot_cmsis_mul_params *p, const int16_t *input1,
                                            const int16_t *input2, int16_t *output)
{
    return arm_elementwise_mul_s16(input1, input2, 0, 0, output, 0, p->output_multiplier, p->output_shift,
                                   p->act_min, p->act_max, p->size);
}

/* SVDF with an int16 activation state and int16 time weights. */
struct tinyaot_cmsis_svdf_params {
    int32_t batches, input_size, num_units, rank, memory_size;
    int32_t input_zero_point, output_offset;
    int32_t multiplier_1, shift_1;  /* input x feature weights -> state */
    int32_t multiplier_2, shift_2;  /* state x time weights -> output */
};

static inline int32_t tinyaot_cmsis_svdf_s8(const struct tinyaot_cmsis_svdf_params *p, int32_t *filter_scratch,
                                            int32_t *unit_scratch, const int8_t *input, const int8_t *feature,
                                            const int16_t *time, const int32_t *bias, int16_t *state,
                                            int8_t *output)
{
    const int32_t num_filters = p->num_units * p->rank;
    cmsis_nn_context filter_ctx, unit_ctx;
    cmsis_nn_svdf_params svdf;
    cmsis_nn_per_tensor_quant_params quant_1, quant_2;
    cmsis_nn_dims input_dims, state_dims, feature_dims, time_dims, bias_dims, output_dims;
    filter_ctx.buf = filter_scratch;
    filter_ctx.size = 0;
    unit_ctx.buf = unit_scratch;
    unit_ctx.size = 0;
    svdf.rank = p->rank;
    svdf.input_offset = p->input_zero_point;
    svdf.output_offset = p->output_offset;
    svdf.input_activation.min = INT16_MIN;
    svdf.input_activation.max = INT16_MAX;
    svdf.output_activation.min = INT8_MIN;
    svdf.output_activation.max = INT8_MAX;
    quant_1.multiplier = p->multiplier_1;
    quant_1.shift = p->shift_1;
    quant_2.multiplier = p->multiplier_2;
    quant_2.shift = p->shift_2;
    tinyaot_cmsis_dims(&input_dims, p->batches, p->input_size, 1, 1);
    tinyaot_cmsis_dims(&state_dims, p->batches, p->memory_size * num_filters, 1, 1);
    tinyaot_cmsis_dims(&feature_dims, num_filters, p->input_size, 1, 1);
    tinyaot_cmsis_dims(&time_dims, num_filters, p->memory_size, 1, 1);
    tinyaot_cmsis_dims(&bias_dims, p->num_units, 1, 1, 1);
    tinyaot_cmsis_dims(&output_dims, p->batches, p->num_units, 1, 1);
    return arm_svdf_state_s16_s8(&filter_ctx, &unit_ctx, &svdf, &quant_1, &quant_2, &input_dims, input,
                                 &state_dims, state, &feature_dims, feature, &time_dims, time, &bias_dims, bias,
                                 &output_dims, output);
}

/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM, int8 or 16x8: arm_nn_lstm_step_s8 / _s16 step by
 * step. Not arm_lstm_unidirectional_s8 / _s16: they zero the cell state and start
 * without a hidden state at every call, while TFLM keeps both variable tensors
 * between calls; here the step reads the hidden state tensor at the first step
 * and updates the cell state tensor in place, and the last step's output is
 * copied into the hidden state. Batch-major input runs one batch at a time
 * (params built for one batch): each batch's first step then reads its own
 * contiguous state row. Scratch: two int16 gate buffers of batches x units
 * (time major) or units values.
 */
struct tinyaot_cmsis_lstm_params {
    int32_t batches, steps, input_size, units, time_major;
    int32_t input_offset;      /* -input zero point */
    int32_t output_offset;     /* the hidden state's (and output's) zero point */
    int32_t cell_clip;         /* quantized; 0: none */
    int32_t cell_scale_power;  /* the cell state's scale is 2^cell_scale_power */
};

/* multiplier, shift: per gate (TFLite's order: input, forget, cell, output) the input FC's,
   then the recurrent FC's, then forget x cell, input x cell gate, output x tanh(cell).
   bias: per gate the input FC's effective bias (bias and input offset), then the recurrent
   FC's (hidden offset): bias_stride values apart, [units] each. */
static inline void tinyaot_cmsis_lstm_setup(cmsis_nn_lstm_params *lstm, const struct tinyaot_cmsis_lstm_params *p,
                                            const int32_t *multiplier, const int32_t *shift, const void *bias_in,
                                            const void *bias_rec, size_t bias_stride, size_t bias_rec_stride,
                                            const int8_t *const *input_weights, const int8_t *const *recurrent_weights)
{
    cmsis_nn_lstm_gate *gates[4];
    int32_t g;
    gates[0] = &lstm->input_gate;
    gates[1] = &lstm->forget_gate;
    gates[2] = &lstm->cell_gate;
    gates[3] = &lstm->output_gate;
    lstm->time_major = p->time_major;
    lstm->batch_size = p->time_major ? p->batches : 1;
    lstm->time_steps = p->steps;
    lstm->input_size = p->input_size;
    lstm->hidden_size = p->units;
    lstm->input_offset = p->input_offset;
    lstm->forget_to_cell_multiplier = multiplier[8];
    lstm->forget_to_cell_shift = shift[8];
    lstm->input_to_cell_multiplier = multiplier[9];
    lstm->input_to_cell_shift = shift[9];
    lstm->cell_clip = p->cell_clip;
    lstm->cell_scale_power = p->cell_scale_power;
    lstm->output_multiplier = multiplier[10];
    lstm->output_shift = shift[10];
    lstm->output_offset = p->output_offset;
    for (g = 0; g < 4; g++) {
        cmsis_nn_lstm_gate *gate = gates[g];
        gate->input_multiplier = multiplier[g];
        gate->input_shift = shift[g];
        gate->input_weights = input_weights[g];
        gate->input_effective_bias = (const uint8_t *)bias_in + (size_t)g * bias_stride;
        gate->hidden_multiplier = multiplier[4 + g];
        gate->hidden_shift = shift[4 + g];
        gate->hidden_weights = recurrent_weights[g];
        gate->hidden_effective_bias = (const uint8_t *)bias_rec + (size_t)g * bias_rec_stride;
        gate->bias = NULL;  /* read by neither step: the effective biases hold it */
        gate->activation_type = g == 2 ? ARM_TANH : ARM_SIGMOID;
    }
}

/* The step loop of both forms: `lstm_step` is arm_nn_lstm_step_s8 or _s16, `type` int8_t or int16_t. */
#define TINYAOT_CMSIS_LSTM_STEPS(type, lstm_step)                                                                  \
    do {                                                                                                          \
        const int32_t runs = p->time_major ? 1 : p->batches;    /* batch-major: one batch a run */                \
        const int32_t rows = p->time_major ? p->batches : 1;    /* rows of one step */                            \
        int32_t run, t;                                                                                           \
        ctx.temp1 = gate_scratch1;                                                                                \
        ctx.temp2 = gate_scratch2;                                                                                \
        for (run = 0; run < runs; run++) {                                                                        \
            const type *h = hidden + run * p->units;                                                              \
            type *out = NULL;                                                                                     \
            ctx.cell_state = cell + run * p->units;                                                               \
            for (t = 0; t < p->steps; t++) {                                                                      \
                const int32_t row = p->time_major ? t * p->batches : run * p->steps + t;                          \
                out = output + row * p->units;                                                                    \
                status = lstm_step(input + row * p->input_size, h, out, &lstm, &ctx, 1);                          \
                if (status != ARM_CMSIS_NN_SUCCESS) {                                                             \
                    return status;                                                                                \
                }                                                                                                 \
                h = out;                                                                                          \
            }                                                                                                     \
            memcpy(hidden + run * p->units, out, (size_t)(rows * p->units) * sizeof(type));                        \
        }                                                                                                         \
    } while (0)

static inline int32_t tinyaot_cmsis_lstm_s8(const struct tinyaot_cmsis_lstm_params *p, const int32_t *multiplier,
                                            const int32_t *shift, const int32_t *bias, int16_t *gate_scratch1,
                                            int16_t *gate_scratch2, const int8_t *input,
                                            const int8_t *const *input_weights,
                                            const int8_t *const *recurrent_weights, int8_t *hidden, int16_t *cell,
                                            int8_t *output)
{
    cmsis_nn_lstm_params lstm;
    cmsis_nn_lstm_context ctx;
    arm_cmsis_nn_status status = ARM_CMSIS_NN_SUCCESS;
    const size_t stride = (size_t)p->units * sizeof(int32_t);
    tinyaot_cmsis_lstm_setup(&lstm, p, multiplier, shift, bias, bias + 4 * p->units, stride, stride, input_weights,
                             recurrent_weights);
    TINYAOT_CMSIS_LSTM_STEPS(int8_t, arm_nn_lstm_step_s8);
    return status;
}

/* bias: the four gates' int64 biases [gate][unit], then `units` zeros: every gate's recurrent
   effective bias (the hidden state's zero point is 0). */
static inline int32_t tinyaot_cmsis_lstm_s16(const struct tinyaot_cmsis_lstm_params *p, const int32_t *multiplier,
                                             const int32_t *shift, const int64_t *bias, int16_t *gate_scratch1,
                                             int16_t *gate_scratch2, const int16_t *input,
                                             const int8_t *const *input_weights,
                                             const int8_t *const *recurrent_weights, int16_t *hidden, int16_t *cell,
                                             int16_t *output)
{
    cmsis_nn_lstm_params lstm;
    cmsis_nn_lstm_context ctx;
    arm_cmsis_nn_status status = ARM_CMSIS_NN_SUCCESS;
    tinyaot_cmsis_lstm_setup(&lstm, p, multiplier, shift, bias, bias + 4 * p->units,
                             (size_t)p->units * sizeof(int64_t), 0, input_weights, recurrent_weights);
    TINYAOT_CMSIS_LSTM_STEPS(int16_t, arm_nn_lstm_step_s16);
    return status;
}

#endif /* TINYAOT_CMSIS_NN_H */
