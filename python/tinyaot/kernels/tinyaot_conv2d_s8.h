/*
 * tinyaot_conv2d_s8.h - int8 2-D convolution (NHWC input, OHWI filter).
 *
 * Matches TFLM's reference_integer_ops::ConvPerChannel, grouped convolution
 * included: out = requant(sum(w * (in - in_zp)) + bias), clamped to the fused
 * activation. Taps outside the input are skipped (zero padding in real terms).
 * Where a window lies wholly inside the input, the lowering's folded bias
 * (bias + input_offset * sum(w)) leaves the taps a plain w * x.
 */
#ifndef TINYAOT_CONV2D_S8_H
#define TINYAOT_CONV2D_S8_H

#include <stddef.h>

#include "tinyaot_conv2d_params.h"

/*
 * Four filters' sums of w * (x + k->offset) over rows x k->cols runs, added to
 * acc: in points at the first tap, w at its four weights for input channel 0
 * ([taps][filter_ch][4] from there, rows w_y apart). Each input value loaded
 * serves four products. Not inlined, here and in tinyaot_conv2d_pair4: inlined
 * into the pixel loop, their sums were spilled to the stack.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_window4(const int8_t *in, const int8_t *w, int32_t rows,
                                                    const struct tinyaot_conv2d_walk *k, int32_t w_y, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t fy, fx;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = k->cols; fx > 0; fx--) {
            const int8_t *x = in_tap;
            const int8_t *const x_end = x + k->run;
            do {
                const int32_t v = *x++ + k->offset;
                a0 += (int32_t)w_tap[0] * v;
                a1 += (int32_t)w_tap[1] * v;
                a2 += (int32_t)w_tap[2] * v;
                a3 += (int32_t)w_tap[3] * v;
                w_tap += 4;
            } while (x != x_end);
            in_tap += k->in_x;
        }
        in += k->in_y;
        w += w_y;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/*
 * The same sums for two output pixels, the second's input pixel_step after the
 * first's, over rows of whole window rows whose weights follow one another from
 * w: each weight loaded serves two products, each input value four. acc: the
 * first pixel's four, then the second's. Inlined into the two versions below,
 * so that the one for folded biases adds no offset.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_pair4_sums(const int8_t *in, int32_t pixel_step, const int8_t *w,
                                                            int32_t rows, const struct tinyaot_conv2d_walk *k,
                                                            int32_t offset, int32_t acc[8])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t b0 = acc[4], b1 = acc[5], b2 = acc[6], b3 = acc[7];
    int32_t fy, fx;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        for (fx = k->cols; fx > 0; fx--) {
            const int8_t *x = in_tap;
            const int8_t *const x_end = x + k->run;
            do {
                const int32_t u = x[0] + offset, v = x[pixel_step] + offset;
                int32_t wk;
                wk = w[0];
                a0 += wk * u;
                b0 += wk * v;
                wk = w[1];
                a1 += wk * u;
                b1 += wk * v;
                wk = w[2];
                a2 += wk * u;
                b2 += wk * v;
                wk = w[3];
                a3 += wk * u;
                b3 += wk * v;
                w += 4;
                x++;
            } while (x != x_end);
            in_tap += k->in_x;
        }
        in += k->in_y;
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    acc[4] = b0, acc[5] = b1, acc[6] = b2, acc[7] = b3;
}

/*
 * TINYAOT_CONV2D_PAIR4_STEP(step) defines the pairs' loop over whole windows (the input
 * offset folded into the bias) for pairs whose inputs lie `step` bytes apart (stride_w *
 * input_ch), and TINYAOT_CONV2D_PAIR4(step) names it for a convolution's p->pair4: the
 * generated code has one for each distance its convolutions take. A constant distance
 * is an immediate offset in the second pixel's loads, which leaves the loop a register
 * (Cortex-M3: 17 instructions per 8 multiply-accumulates instead of 18 with the loop's
 * end spilled). TINYAOT_CONV2D_PAIR4(any) reads the distance from k->pixel_step: for
 * distances below 4, where GCC 12 carries the second pixel's values over to the first's
 * in registers and spills three sums (24 instructions). NULL on cores without pixel pairs.
 */
#if TINYAOT_PIXEL_PAIRS
/* The pair loop `name` from `sums` (tinyaot_conv2d_pair4_sums or a SIMD level's) for pairs
   `step` bytes apart, over whole windows (offset 0). */
#define TINYAOT_CONV2D_PAIR4_DEFINE(name, sums, step)                                                          \
    static TINYAOT_NOINLINE void name(const int8_t *in, const int8_t *w, int32_t rows,                         \
                                      const struct tinyaot_conv2d_walk *k, int32_t acc[8])                     \
    {                                                                                                          \
        sums(in, step, w, rows, k, 0, acc);                                                                    \
    }
#define TINYAOT_CONV2D_PAIR4_STEP(step) \
    TINYAOT_CONV2D_PAIR4_DEFINE(tinyaot_conv2d_pair4_##step, tinyaot_conv2d_pair4_sums, step)
#define TINYAOT_CONV2D_PAIR4(step) tinyaot_conv2d_pair4_##step
TINYAOT_CONV2D_PAIR4_DEFINE(tinyaot_conv2d_pair4_any, tinyaot_conv2d_pair4_sums, k->pixel_step)
#else
#define TINYAOT_CONV2D_PAIR4_STEP(step)
#define TINYAOT_CONV2D_PAIR4(step) NULL
#endif

/* Windows cut by the top or bottom border, the input offset added per input value. */
static TINYAOT_NOINLINE void tinyaot_conv2d_pair4_offset(const int8_t *in, const int8_t *w, int32_t rows,
                                                         const struct tinyaot_conv2d_walk *k, int32_t acc[8])
{
    tinyaot_conv2d_pair4_sums(in, k->pixel_step, w, rows, k, k->offset, acc);
}

/* One filter's sum of w * (x + k->offset) over a window, w a plain [taps][filter_ch] row. */
static int32_t tinyaot_conv2d_window1(const int8_t *in, const int8_t *w, int32_t rows,
                                      const struct tinyaot_conv2d_walk *k, int32_t w_y)
{
    int32_t acc = 0;
    int32_t fy, fx, i;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = k->cols; fx > 0; fx--) {
            for (i = 0; i < k->run; i++) {
                acc += (int32_t)w_tap[i] * (in_tap[i] + k->offset);
            }
            in_tap += k->in_x;
            w_tap += k->run;
        }
        in += k->in_y;
        w += w_y;
    }
    return acc;
}

/*
 * The sums of w * (x + offset) of `filters` (1 or 2: a constant once inlined) filters whose
 * plain rows lie `next` bytes apart, over the windows of a pixel pair (`pixel_step` bytes
 * apart): filter f's at acc[2 * f] and acc[2 * f + 1], added to what they hold. Each weight
 * is loaded once for both pixels and each input value once for both filters. For the
 * filters left after the blocks of four (cnn_kws_small's second convolution, 30 = 28 + 2
 * filters, on the Cortex-M3: 2.53 -> 2.23 instructions per multiply-accumulate).
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_rest_pair_sums(const int8_t *in, int32_t pixel_step,
                                                                const int8_t *w, int32_t next, int32_t filters,
                                                                int32_t rows, const struct tinyaot_conv2d_walk *k,
                                                                int32_t w_y, int32_t offset, int32_t acc[4])
{
    int32_t a0 = acc[0], a1 = acc[1], b0 = acc[2], b1 = acc[3];
    int32_t fy, fx;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        const int8_t *w_tap = w;
        for (fx = k->cols; fx > 0; fx--) {
            const int8_t *x = in_tap;
            const int8_t *const x_end = x + k->run;
            const int8_t *wt = w_tap;
            while (x != x_end) {
                const int32_t u = x[0] + offset, v = x[pixel_step] + offset;
                const int32_t wv = wt[0];
                a0 += wv * u;
                a1 += wv * v;
                if (filters == 2) {
                    const int32_t wv2 = wt[next];
                    b0 += wv2 * u;
                    b1 += wv2 * v;
                }
                wt++;
                x++;
            }
            in_tap += k->in_x;
            w_tap += k->run;
        }
        in += k->in_y;
        w += w_y;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = b0;
    acc[3] = b1;
}

/* Whole windows (the input offset folded into the bias) and windows cut by the top or
   bottom border (the offset added per value), for one filter and for two. */
static TINYAOT_NOINLINE void tinyaot_conv2d_rest_pair(const int8_t *in, int32_t pixel_step, const int8_t *w,
                                                      int32_t next, int32_t filters, int32_t rows,
                                                      const struct tinyaot_conv2d_walk *k, int32_t w_y,
                                                      int32_t offset, int32_t acc[4])
{
    if (filters == 2 && offset == 0) {
        tinyaot_conv2d_rest_pair_sums(in, pixel_step, w, next, 2, rows, k, w_y, 0, acc);
    } else if (filters == 2) {
        tinyaot_conv2d_rest_pair_sums(in, pixel_step, w, next, 2, rows, k, w_y, offset, acc);
    } else if (offset == 0) {
        tinyaot_conv2d_rest_pair_sums(in, pixel_step, w, next, 1, rows, k, w_y, 0, acc);
    } else {
        tinyaot_conv2d_rest_pair_sums(in, pixel_step, w, next, 1, rows, k, w_y, offset, acc);
    }
}

/*
 * Where a pixel's window lies: its taps inside the input are `rows` rows from
 * tap tap_offset of a plain filter on (no rows when no column is inside either),
 * walked as k.
 */
struct tinyaot_conv2d_window {
    int32_t rows, tap_offset;
    int border;  /* some taps lie outside */
    struct tinyaot_conv2d_walk k;
};

/*
 * Filters oc .. oc + n - 1 of `pixels` output pixels, pixel px's sums at acc[4 * px + k]
 * and its outputs at out[px]: the requantization that does not fold, and a lone
 * pixel's, in one copy out of line, for flash.
 */
static TINYAOT_NOINLINE void tinyaot_conv2d_requantize(const struct tinyaot_channel_requant *r, int32_t oc, int32_t n,
                                                       int32_t pixels, const int32_t acc[8], int8_t *const out[2])
{
    int32_t px, k;
    for (px = 0; px < pixels; px++) {
        for (k = 0; k < n; k++) {
            out[px][oc + k] = tinyaot_channel_requantize_s8(r, oc + k, acc[4 * px + k]);
        }
    }
}

/*
 * Every filter of one output pixel (pixels 1) or of two horizontally adjacent
 * ones whose windows have the same rows and every column inside the input
 * (pixels 2); window points at the first pixel's first tap inside, channel 0.
 * Four filters at a time, then the filters left over (a pair's two pixels
 * and two filters together); the second
 * pixel's outputs are written after all of them. Whole windows of pairs start
 * from the folded bias; the rest from the plain one and add the input offset
 * to each input value (cheaper than taking the skipped taps' weights back out).
 */
static void tinyaot_conv2d_pixels(const struct tinyaot_conv2d_params *p, const struct tinyaot_channel_requant *r,
                                  int32_t folds, const int8_t *window, const int8_t *filter, const int32_t *bias,
                                  int8_t *output, const struct tinyaot_conv2d_window *v, int32_t pixels)
{
    const int32_t filter_ch = p->filter_ch;
    const int32_t filters_per_group = p->filters_per_group;
    const int32_t blocked = filters_per_group - filters_per_group % 4;
    const int32_t filter_row = p->filter_w * filter_ch;
    const int32_t filter_size = p->filter_h * filter_row;
    const int32_t pixel_step = v->k.pixel_step;
    /* Copies: the int8_t output stores may alias anything, *p, *r and *v too. */
    const struct tinyaot_channel_requant rq = *r;
    const struct tinyaot_conv2d_window win = *v;
    const int32_t groups = p->groups, output_ch = p->output_ch;
    const tinyaot_conv2d_pair4_fn pair4 = p->pair4;
    const int folded = pixels == 2 && !win.border;
    const int32_t *plain_bias = bias + output_ch;
    const int32_t *start = folded ? bias : plain_bias;
    int8_t second[TINYAOT_PAIR_MAX_CH];
    int8_t *out[2];
    int32_t oc = 0, g, n, j;
    out[0] = output;
    out[1] = second;
    for (g = 0; g < groups; g++) {
        const int8_t *group_window = window + g * filter_ch;
        for (n = 0; n < blocked; n += 4, oc += 4) {
            const int8_t *w = filter + oc * filter_size + 4 * win.tap_offset;
            int32_t acc[8];
            for (j = 0; j < 4; j++) {
                acc[j] = acc[4 + j] = start[oc + j];
            }
            if (folded) {
                pair4(group_window, w, win.rows, &win.k, acc);
            } else if (pixels == 2) {
                tinyaot_conv2d_pair4_offset(group_window, w, win.rows, &win.k, acc);
            } else {
                tinyaot_conv2d_window4(group_window, w, win.rows, &win.k, 4 * filter_row, acc);
            }
            if (pixels == 2 && folds) {
                for (j = 0; j < 4; j++) {
                    tinyaot_channel_requantize2_folded_s8(&rq, oc + j, acc[j], acc[4 + j], &output[oc + j],
                                                          &second[oc + j]);
                }
            } else {
                tinyaot_conv2d_requantize(&rq, oc, 4, pixels, acc, out);
            }
        }
        for (; n < filters_per_group && pixels == 2; n += j, oc += j) {
            /* A pair's pixels together, two filters at a time while two are left. */
            const int8_t *w = filter + oc * filter_size + win.tap_offset;
            int32_t sums[4], acc[8];
            j = filters_per_group - n >= 2 ? 2 : 1;
            sums[0] = sums[1] = start[oc];
            sums[2] = sums[3] = start[oc + j - 1];
            tinyaot_conv2d_rest_pair(group_window, pixel_step, w, filter_size, j, win.rows, &win.k, filter_row,
                                     folded ? 0 : win.k.offset, sums);
            acc[0] = sums[0];
            acc[4] = sums[1];
            acc[1] = sums[2];
            acc[5] = sums[3];
            tinyaot_conv2d_requantize(&rq, oc, j, 2, acc, out);
        }
        for (; n < filters_per_group; n++, oc++) {
            const int8_t *w = filter + oc * filter_size + win.tap_offset;
            int32_t acc[8];
            acc[0] = plain_bias[oc] + tinyaot_conv2d_window1(group_window, w, win.rows, &win.k, filter_row);
            tinyaot_conv2d_requantize(&rq, oc, 1, pixels, acc, out);
        }
    }
    for (oc = 0; pixels == 2 && oc < output_ch; oc++) {
        output[output_ch + oc] = second[oc];
    }
}

/*
 * filter: in each group, each block of four filters as [filter_h][filter_w][filter_ch][4]
 * (re-laid out by the lowering), the filters_per_group % 4 left as plain
 * [filter_h][filter_w][filter_ch] rows; bias: output_ch values with the input
 * offset folded in (bias + input_offset * sum(w)), then output_ch plain ones
 * (0 without a bias). Output pixels in raster order, two at a time where both
 * windows have every column inside the input (with p->pair4, up to
 * TINYAOT_PAIR_MAX_CH filters), each block of filters written after it has
 * read its pixel's window.
 */
static void tinyaot_conv2d_s8(const struct tinyaot_conv2d_params *p,
                              const int32_t *multiplier, const int32_t *shift,
                              const int8_t *input, const int8_t *filter,
                              const int32_t *bias, int8_t *output)
{
    const int32_t filter_ch = p->filter_ch;
    /* Distance in the input between horizontally and vertically adjacent taps. */
    const int32_t tap_step_x = p->dilation_w * p->input_ch;
    const int32_t tap_step_y = p->dilation_h * p->input_w * p->input_ch;
    /* From a window's first column to its last, in input columns. */
    const int32_t reach_x = (p->filter_w - 1) * p->dilation_w;
    /* Adjacent taps are adjacent pixels' every channel: a window row is one run. */
    const int contiguous = tap_step_x == filter_ch;
    const int32_t output_ch = p->output_ch;
    /* TINYAOT_PIXEL_PAIRS 0 leaves the pairs' code out altogether (pair4 is NULL then). */
    const int pairs = TINYAOT_PIXEL_PAIRS && p->pair4 != NULL && output_ch <= TINYAOT_PAIR_MAX_CH;
    struct tinyaot_conv2d_window v;
    const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(multiplier, shift, p->per_channel,
                                                                        p->output_offset, p->act_min, p->act_max);
    const int32_t folds = tinyaot_channel_requant_folds(&r, output_ch);
    int32_t b, oy, ox;
    v.k.in_x = tap_step_x;
    v.k.in_y = tap_step_y;
    v.k.offset = p->input_offset;
    v.k.pixel_step = p->stride_w * p->input_ch;

    for (b = 0; b < p->batches; b++) {
        const int8_t *in_image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            int32_t fy_first, fy_end;
            const int32_t in_y = tinyaot_window(oy * p->stride_h - p->pad_h, p->dilation_h, p->filter_h,
                                                p->input_h, &fy_first, &fy_end);
            for (ox = 0; ox < p->output_w; ox++) {
                int32_t fx_first, fx_end;
                const int32_t in_x = tinyaot_window(ox * p->stride_w - p->pad_w, p->dilation_w, p->filter_w,
                                                    p->input_w, &fx_first, &fx_end);
                const int32_t cols = fx_end - fx_first;
                const int32_t pixels = pairs && cols == p->filter_w && ox + 1 < p->output_w &&
                                       in_x + p->stride_w + reach_x < p->input_w ? 2 : 1;
                v.rows = cols > 0 ? fy_end - fy_first : 0;
                v.border = v.rows != p->filter_h || cols != p->filter_w;
                v.tap_offset = fy_first * p->filter_w * filter_ch + fx_first * filter_ch;
                v.k.cols = contiguous ? 1 : cols;
                v.k.run = contiguous ? cols * filter_ch : filter_ch;
                tinyaot_conv2d_pixels(p, &r, folds, in_image + (in_y * p->input_w + in_x) * p->input_ch, filter, bias,
                                      output, &v, pixels);
                output += pixels * output_ch;
                ox += pixels - 1;
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_S8_H */
