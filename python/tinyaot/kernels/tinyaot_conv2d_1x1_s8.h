/*
 * tinyaot_conv2d_1x1_s8.h - int8 2-D convolution with a 1x1 filter (NHWC input,
 * [output_ch][input_ch] filter), no groups.
 *
 * The same numbers as tinyaot_conv2d_s8 (TFLM's ConvPerChannel), computed as a
 * matrix product: a 1x1 window never leaves the input, so the lowering folds
 * the input offset into the bias (bias + input_offset * sum(w) per output
 * channel) and the inner loop is a plain multiply-accumulate.
 */
#ifndef TINYAOT_CONV2D_1X1_S8_H
#define TINYAOT_CONV2D_1X1_S8_H

#include "tinyaot_common.h"

struct tinyaot_conv2d_1x1_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t output_h, output_w, output_ch;
    int32_t stride_h, stride_w;
    int32_t output_offset;      /* output zero point */
    int32_t act_min;
    int32_t act_max;
    int32_t per_channel;        /* 1: multiplier/shift per output channel, 0: one for all */
};

static inline int8_t tinyaot_conv2d_1x1_out(const struct tinyaot_conv2d_1x1_params *p,
                                            const int32_t *multiplier, const int32_t *shift,
                                            int32_t oc, int32_t acc)
{
    const int32_t ch = p->per_channel ? oc : 0;
    return tinyaot_requantize_s8(acc, multiplier[ch], shift[ch], p->output_offset, p->act_min, p->act_max);
}

/*
 * Every output channel of two output pixels, two channels at a time: each
 * input and weight value loaded serves two products. For an odd pixel out the
 * caller passes the same pixel twice.
 */
static void tinyaot_conv2d_1x1_pixel_pair(const struct tinyaot_conv2d_1x1_params *p,
                                          const int32_t *multiplier, const int32_t *shift,
                                          const int8_t *in0, const int8_t *in1, const int8_t *filter,
                                          const int32_t *bias, int8_t *out0, int8_t *out1)
{
    const int32_t depth = p->input_ch;
    const int32_t output_ch = p->output_ch;
    int32_t oc, ic;
    for (oc = 0; oc + 1 < output_ch; oc += 2) {
        const int8_t *w0 = filter + oc * depth;
        const int8_t *w1 = w0 + depth;
        /* acc<channel><pixel> */
        int32_t acc00 = bias[oc], acc01 = bias[oc];
        int32_t acc10 = bias[oc + 1], acc11 = bias[oc + 1];
        for (ic = 0; ic < depth; ic++) {
            const int32_t x0 = in0[ic], x1 = in1[ic];
            const int32_t a = w0[ic], b = w1[ic];
            acc00 += a * x0;
            acc01 += a * x1;
            acc10 += b * x0;
            acc11 += b * x1;
        }
        out0[oc] = tinyaot_conv2d_1x1_out(p, multiplier, shift, oc, acc00);
        out1[oc] = tinyaot_conv2d_1x1_out(p, multiplier, shift, oc, acc01);
        out0[oc + 1] = tinyaot_conv2d_1x1_out(p, multiplier, shift, oc + 1, acc10);
        out1[oc + 1] = tinyaot_conv2d_1x1_out(p, multiplier, shift, oc + 1, acc11);
    }
    if (oc < output_ch) {
        const int8_t *w0 = filter + oc * depth;
        int32_t acc00 = bias[oc], acc01 = bias[oc];
        for (ic = 0; ic < depth; ic++) {
            acc00 += (int32_t)w0[ic] * in0[ic];
            acc01 += (int32_t)w0[ic] * in1[ic];
        }
        out0[oc] = tinyaot_conv2d_1x1_out(p, multiplier, shift, oc, acc00);
        out1[oc] = tinyaot_conv2d_1x1_out(p, multiplier, shift, oc, acc01);
    }
}

/* From one output pixel's input to the next one's, row by row; *ox counts the column. */
static inline const int8_t *tinyaot_conv2d_1x1_next(const struct tinyaot_conv2d_1x1_params *p,
                                                    const int8_t *in, int32_t *ox)
{
    in += p->stride_w * p->input_ch;
    if (++*ox == p->output_w) {
        *ox = 0;
        in += (p->stride_h * p->input_w - p->output_w * p->stride_w) * p->input_ch;
    }
    return in;
}

/* filter: [output_ch][input_ch]; bias: the folded bias above (never NULL). */
static void tinyaot_conv2d_1x1_s8(const struct tinyaot_conv2d_1x1_params *p,
                                  const int32_t *multiplier, const int32_t *shift,
                                  const int8_t *input, const int8_t *filter,
                                  const int32_t *bias, int8_t *output)
{
    const int32_t pixels = p->output_h * p->output_w;
    const int32_t output_ch = p->output_ch;
    int32_t b, n;

    for (b = 0; b < p->batches; b++) {
        const int8_t *in0 = input + b * p->input_h * p->input_w * p->input_ch;
        int32_t ox = 0;
        for (n = 0; n < pixels; n += 2) {
            const int8_t *in1 = in0;
            int8_t *out1 = output;
            if (n + 1 < pixels) {
                in1 = tinyaot_conv2d_1x1_next(p, in0, &ox);
                out1 = output + output_ch;
            }
            tinyaot_conv2d_1x1_pixel_pair(p, multiplier, shift, in0, in1, filter, bias, output, out1);
            in0 = tinyaot_conv2d_1x1_next(p, in1, &ox);
            output = out1 + output_ch;
        }
    }
}

#endif /* TINYAOT_CONV2D_1X1_S8_H */
