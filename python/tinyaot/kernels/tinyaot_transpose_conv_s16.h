/*
 * tinyaot_transpose_conv_s16.h - 16x8 TRANSPOSE_CONV: int16 input and output
 * (zero point 0), int8 weights [out ch, h, w, in ch] (zero point 0), int64 bias
 * (an int16 one is widened by the generator, as TFLM widens it at Eval) or none.
 *
 * TFLM's reference_integer_ops::TransposeConv for int16 scatters every input
 * value's products into an int64 scratch copy of the output, then adds the bias
 * and rescales (64-bit MultiplyByQuantizedMultiplier). Integer sums do not
 * depend on their order, so this gathers instead: per output value, the
 * products of the input values whose windows reach it, in one local sum, and no
 * scratch but a list of the taps reaching one output value (listed once for all
 * its channels). The sum is int64, or int32 where the lowering proved it fits
 * (sum32); then four output channels are summed a step (each input value loaded
 * serves four products) and mode may be TINYAOT_S16_FOLDED or _FOLDED_MID (tinyaot_s16.h).
 */
#ifndef TINYAOT_TRANSPOSE_CONV_S16_H
#define TINYAOT_TRANSPOSE_CONV_S16_H

#include "tinyaot_s16.h"
#include "tinyaot_transpose_conv.h"

/*
 * The taps reaching output (oy, ox): those (fy, fx) whose input position
 * (oy + pad - fy) / stride is whole and inside. For each, into at: the input pixel's
 * offset in the image and the tap's offset in output channel 0's filter. Returns
 * their number (at most the lowering's scratch size: ceil(filter / stride) per axis).
 */
static int32_t tinyaot_transpose_conv_s16_taps(const struct tinyaot_transpose_conv_params *p, int32_t oy, int32_t ox,
                                               int32_t *at)
{
    int32_t fy, fx, n = 0;
    for (fy = (oy + p->pad_h) % p->stride_h; fy < p->filter_h && fy <= oy + p->pad_h; fy += p->stride_h) {
        const int32_t iy = (oy + p->pad_h - fy) / p->stride_h;
        if (iy >= p->input_h) {
            continue;
        }
        for (fx = (ox + p->pad_w) % p->stride_w; fx < p->filter_w && fx <= ox + p->pad_w; fx += p->stride_w) {
            const int32_t ix = (ox + p->pad_w - fx) / p->stride_w;
            if (ix >= p->input_w) {
                continue;
            }
            at[2 * n] = (iy * p->input_w + ix) * p->input_ch;
            at[2 * n + 1] = (fy * p->filter_w + fx) * p->input_ch;
            n++;
        }
    }
    return n;
}

/* One output channel's sum over the listed taps (w: its filter). */
static int64_t tinyaot_transpose_conv_s16_sum(const int16_t *in, const int8_t *w, int32_t depth, int32_t sum32,
                                              const int32_t *at, int32_t taps)
{
    int64_t sum64 = 0;
    uint32_t sum = 0;
    int32_t t, k;
    for (t = 0; t < taps; t++) {
        const int16_t *x = in + at[2 * t];
        const int8_t *f = w + at[2 * t + 1];
        if (sum32) {
            for (k = 0; k < depth; k++) {
                sum += (uint32_t)((int32_t)f[k] * x[k]);
            }
        } else {
            for (k = 0; k < depth; k++) {
                sum64 += (int32_t)f[k] * x[k];
            }
        }
    }
    return sum32 ? (int64_t)(int32_t)sum : sum64;
}

/* Four output channels' 32-bit sums over the listed taps (w: the first channel's filter); out of line,
   so that the four sums have the registers. */
static TINYAOT_NOINLINE void tinyaot_transpose_conv_s16_sum4(const int16_t *in, const int8_t *w, int32_t window,
                                                             int32_t depth, const int32_t *at, int32_t taps,
                                                             uint32_t sums[4])
{
    int32_t t;
    sums[0] = sums[1] = sums[2] = sums[3] = 0;
    for (t = 0; t < taps; t++) {
        tinyaot_s16_dot4(in + at[2 * t], w + at[2 * t + 1], depth, window, sums);
    }
}

/* Output channel oc's value from its sum. */
static TINYAOT_ALWAYS_INLINE int16_t tinyaot_transpose_conv_s16_value(const struct tinyaot_transpose_conv_params *p,
                                                                      int32_t mode, const int32_t *multipliers,
                                                                      const int32_t *shifts, const void *bias,
                                                                      int64_t sum, int32_t oc)
{
    if (mode == TINYAOT_S16_FOLDED_MID) {
        return tinyaot_s16_output_mid((int32_t)sum, (const int32_t *)bias, oc, multipliers[oc], shifts[oc], p->act_min,
                                      p->act_max);
    }
    return tinyaot_s16_output(mode, sum, bias, oc, multipliers[oc], shifts[oc], p->act_min, p->act_max);
}

/* taps: scratch for the tap list, two int32 per tap reaching one output value. */
static void tinyaot_transpose_conv_s16(const struct tinyaot_transpose_conv_params *p, int32_t sum32, int32_t mode,
                                       const int32_t *multipliers, const int32_t *shifts, int32_t *taps,
                                       const int16_t *input, const int8_t *filter, const void *bias,
                                       int16_t *output)
{
    const int32_t window = p->filter_h * p->filter_w * p->input_ch;
    const int32_t quads_end = sum32 ? p->output_ch - p->output_ch % 4 : 0;
    int32_t b, oy, ox, oc, k;
    for (b = 0; b < p->batches; b++) {
        const int16_t *in = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t n = tinyaot_transpose_conv_s16_taps(p, oy, ox, taps);
                for (oc = 0; oc < quads_end; oc += 4) {
                    uint32_t sums[4];
                    tinyaot_transpose_conv_s16_sum4(in, filter + oc * window, window, p->input_ch, taps, n, sums);
                    for (k = 0; k < 4; k++) {
                        output[oc + k] = tinyaot_transpose_conv_s16_value(p, mode, multipliers, shifts, bias,
                                                                          (int32_t)sums[k], oc + k);
                    }
                }
                for (; oc < p->output_ch; oc++) {
                    const int64_t sum =
                        tinyaot_transpose_conv_s16_sum(in, filter + oc * window, p->input_ch, sum32, taps, n);
                    output[oc] = tinyaot_transpose_conv_s16_value(p, mode, multipliers, shifts, bias, sum, oc);
                }
                output += p->output_ch;
            }
        }
    }
}

#endif /* TINYAOT_TRANSPOSE_CONV_S16_H */
