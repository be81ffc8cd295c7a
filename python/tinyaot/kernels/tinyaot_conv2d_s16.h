/*
 * tinyaot_conv2d_s16.h - 16x8 CONV_2D: int16 input and output (zero point 0),
 * int8 weights (per channel), int64 or int32 bias; grouped filters.
 *
 * TFLM's reference_integer_ops::ConvPerChannel for int16: per output value
 * the products over filter rows, columns and input channels (taps in the
 * padding skipped), plus the bias, rescaled per channel and clamped (see
 * tinyaot_s16.h for the sum's width).
 */
#ifndef TINYAOT_CONV2D_S16_H
#define TINYAOT_CONV2D_S16_H

#include "tinyaot_s16.h"

/* A window row's sums for two pixels and four filters (TINYAOT_CONV2D_S16_BLOCK). */
typedef void (*tinyaot_conv2d_s16_block_fn)(const int16_t *in, const int8_t *w, uint32_t acc[8]);

struct tinyaot_conv2d_s16_params {
    int32_t batches;
    int32_t input_h, input_w, input_ch;
    int32_t filter_h, filter_w, filter_ch;  /* filter_ch: input channels per group */
    int32_t filters_per_group;
    int32_t output_h, output_w, output_ch;
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_h, pad_w;  /* top and left padding */
    int32_t act_min, act_max;
    int32_t mode;   /* TINYAOT_S16_BIAS64, _BIAS32, _FOLDED or _FOLDED_MID (tinyaot_s16.h) */
    int32_t sum32;  /* 1: the products' sum is taken in 32 bits (see tinyaot_s16.h) */
    /* 1: one group, 32-bit sums, dilation_w 1 (a window row's taps are contiguous), at
       least four filters: tinyaot_conv2d_s16_single's four filters a step */
    int32_t rows;
    /* NULL, or (rows, up to TINYAOT_PAIR_MAX_CH filters) the window row's two-pixel,
       four-filter loop specialised to the layer's shape */
    tinyaot_conv2d_s16_block_fn block;
};

#if TINYAOT_PIXEL_PAIRS
/* GCC's reassociation would pair a pass's two products before adding them to a sum (the
   wrapping uint32_t sums allow it): eight more values live than the core has registers,
   spilled (the 1x5 32 -> 32 layer: 3.65 instructions per MAC on the Cortex-M3, not 2.35). */
#if defined(__GNUC__) && !defined(__clang__)
#define TINYAOT_CONV2D_S16_IN_ORDER __attribute__((optimize("no-tree-reassoc")))
#else
#define TINYAOT_CONV2D_S16_IN_ORDER
#endif

/*
 * Two output pixels (in and in + in_step) and four filters (w + k * w_step) over a
 * window row of n values: each input value loaded serves four products, each weight
 * two. With n, in_step and w_step constants (TINYAOT_CONV2D_S16_BLOCK_OF) every
 * operand is an immediate offset from one of two pointers and the eight sums stay
 * in registers; two steps a pass, in order (TINYAOT_CONV2D_S16_IN_ORDER): on the
 * Cortex-M3, 32 instructions a pass of sixteen products (one step a pass: 17). Sums
 * in uint32_t: TFLM's int32 sum wraps (BIAS32), and where the sum is int64 the
 * lowering proved it stays in int32.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_s16_dot8(const int16_t *in, const int8_t *w, int32_t n,
                                                          int32_t in_step, int32_t w_step, uint32_t acc[8])
{
    /* Named sums: GCC -O2 keeps an array's in memory. */
    uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6],
             a7 = acc[7];
    const int16_t *const end = in + n, *const pairs_end = in + (n & ~1);
/* One step k values on: eight products. */
#define TINYAOT_CONV2D_S16_STEP(k)                                                                            \
    do {                                                                                                      \
        const int32_t x0 = in[k], x1 = in[(k) + in_step];                                                     \
        int32_t wf = w[k];                                                                                    \
        a0 += (uint32_t)(wf * x0);                                                                            \
        a4 += (uint32_t)(wf * x1);                                                                            \
        wf = w[(k) + w_step];                                                                                 \
        a1 += (uint32_t)(wf * x0);                                                                            \
        a5 += (uint32_t)(wf * x1);                                                                            \
        wf = w[(k) + 2 * w_step];                                                                             \
        a2 += (uint32_t)(wf * x0);                                                                            \
        a6 += (uint32_t)(wf * x1);                                                                            \
        wf = w[(k) + 3 * w_step];                                                                             \
        a3 += (uint32_t)(wf * x0);                                                                            \
        a7 += (uint32_t)(wf * x1);                                                                            \
    } while (0)
    /* Two steps a pass: the pointers' increments and the loop test are shared. */
    for (; in != pairs_end; in += 2, w += 2) {
        TINYAOT_CONV2D_S16_STEP(0);
        TINYAOT_CONV2D_S16_STEP(1);
    }
    if (in != end) {
        TINYAOT_CONV2D_S16_STEP(0);
    }
#undef TINYAOT_CONV2D_S16_STEP
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    acc[4] = a4;
    acc[5] = a5;
    acc[6] = a6;
    acc[7] = a7;
}

/* n: filter_w x input_ch; in_step: stride_w x input_ch; w_step: one filter's size. */
#define TINYAOT_CONV2D_S16_BLOCK_OF(n, in_step, w_step)                                                       \
    static TINYAOT_NOINLINE TINYAOT_CONV2D_S16_IN_ORDER void                                                  \
        tinyaot_conv2d_s16_block_##n##_##in_step##_##w_step(                                                  \
        const int16_t *in, const int8_t *w, uint32_t acc[8])                                                  \
    {                                                                                                         \
        tinyaot_conv2d_s16_dot8(in, w, n, in_step, w_step, acc);                                              \
    }
#define TINYAOT_CONV2D_S16_BLOCK(n, in_step, w_step) tinyaot_conv2d_s16_block_##n##_##in_step##_##w_step
#else
/* Armv6-M's eight low registers hold no eight sums beside the pointers. */
#define TINYAOT_CONV2D_S16_BLOCK_OF(n, in_step, w_step)
#define TINYAOT_CONV2D_S16_BLOCK(n, in_step, w_step) NULL
#endif

/* Output channel oc of the pixel whose window starts at (y0, x0): its sum, taps in
   the padding left out. */
static int64_t tinyaot_conv2d_s16_sum(const struct tinyaot_conv2d_s16_params *p, const int16_t *image,
                                      const int8_t *filter, int32_t y0, int32_t x0, int32_t oc)
{
    /* No division without groups: Armv6-M has none in hardware. */
    const int32_t first_ch = p->filters_per_group == p->output_ch ? 0 : (oc / p->filters_per_group) * p->filter_ch;
    const int8_t *w = filter + oc * p->filter_h * p->filter_w * p->filter_ch;
    int64_t sum64 = 0;
    uint32_t sum32 = 0;
    int32_t fy, fx, ic;
    for (fy = 0; fy < p->filter_h; fy++) {
        const int32_t y = y0 + fy * p->dilation_h;
        if (y < 0 || y >= p->input_h) {
            continue;  /* zero padding: the tap is left out */
        }
        for (fx = 0; fx < p->filter_w; fx++) {
            const int32_t x = x0 + fx * p->dilation_w;
            const int16_t *in;
            const int8_t *wt;
            if (x < 0 || x >= p->input_w) {
                continue;
            }
            in = image + (y * p->input_w + x) * p->input_ch + first_ch;
            wt = w + (fy * p->filter_w + fx) * p->filter_ch;
            if (p->sum32) {
                for (ic = 0; ic < p->filter_ch; ic++) {
                    sum32 += (uint32_t)((int32_t)wt[ic] * in[ic]);
                }
            } else {
                for (ic = 0; ic < p->filter_ch; ic++) {
                    sum64 += (int32_t)wt[ic] * in[ic];
                }
            }
        }
    }
    return p->sum32 ? (int64_t)(int32_t)sum32 : sum64;
}

static int16_t tinyaot_conv2d_s16_value(const struct tinyaot_conv2d_s16_params *p, const int32_t *multipliers,
                                        const int32_t *shifts, const void *bias, int64_t sum, int32_t oc)
{
    if (p->mode == TINYAOT_S16_FOLDED_MID) {
        return tinyaot_s16_output_mid((int32_t)sum, (const int32_t *)bias, oc, multipliers[oc], shifts[oc], p->act_min,
                                      p->act_max);
    }
    return tinyaot_s16_output(p->mode, sum, bias, oc, multipliers[oc], shifts[oc], p->act_min, p->act_max);
}

#if TINYAOT_PIXEL_PAIRS
/*
 * Two pixels whose windows lie inside the image's width (x0 and x0 + stride_w):
 * p->block per window row and four filters, the rest of the filters one by one.
 * The second pixel's outputs wait on the stack until the first's window is read
 * for the last time (ops/overlap.py, convolution).
 */
static void tinyaot_conv2d_s16_pair(const struct tinyaot_conv2d_s16_params *p, const int32_t *multipliers,
                                    const int32_t *shifts, const int16_t *image, const int8_t *filter,
                                    const void *bias, int32_t y0, int32_t x0, int16_t *out)
{
    const int32_t window = p->filter_h * p->filter_w * p->input_ch, row = p->filter_w * p->input_ch;
    const int32_t output_ch = p->output_ch, quads_end = output_ch - output_ch % 4;
    int16_t second[TINYAOT_PAIR_MAX_CH];
    int32_t oc, fy, k;
    for (oc = 0; oc < quads_end; oc += 4) {
        uint32_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        const int8_t *w = filter + oc * window;
        for (fy = 0; fy < p->filter_h; fy++) {
            const int32_t y = y0 + fy * p->dilation_h;
            if (y >= 0 && y < p->input_h) {
                p->block(image + (y * p->input_w + x0) * p->input_ch, w + fy * row, acc);
            }
        }
        for (k = 0; k < 4; k++) {
            out[oc + k] = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias, (int32_t)acc[k], oc + k);
            second[oc + k] = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias, (int32_t)acc[4 + k], oc + k);
        }
    }
    for (; oc < output_ch; oc++) {
        out[oc] = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias,
                                           tinyaot_conv2d_s16_sum(p, image, filter, y0, x0, oc), oc);
        second[oc] = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias,
                                              tinyaot_conv2d_s16_sum(p, image, filter, y0, x0 + p->stride_w, oc),
                                              oc);
    }
    memcpy(out + output_ch, second, (size_t)output_ch * sizeof *out);
}
#endif

/*
 * One pixel (where no pair is: the image's edges, an odd last one, every pixel on
 * Armv6-M) where p->rows is set: four filters a step over each window row's columns
 * inside the image, written as they are done.
 */
static void tinyaot_conv2d_s16_single(const struct tinyaot_conv2d_s16_params *p, const int32_t *multipliers,
                                      const int32_t *shifts, const int16_t *image, const int8_t *filter,
                                      const void *bias, int32_t y0, int32_t x0, int16_t *out)
{
    const int32_t window = p->filter_h * p->filter_w * p->input_ch, row = p->filter_w * p->input_ch;
    const int32_t output_ch = p->output_ch, quads_end = output_ch - output_ch % 4;
    /* Columns [first, last) of the window are inside (dilation_w is 1). */
    const int32_t first = x0 < 0 ? -x0 : 0, last = p->filter_w < p->input_w - x0 ? p->filter_w : p->input_w - x0;
    const int32_t n = (last - first) * p->input_ch;
    int32_t oc, fy, k;
    for (oc = 0; oc < quads_end; oc += 4) {
        uint32_t a[4] = {0, 0, 0, 0};
        for (fy = 0; fy < p->filter_h; fy++) {
            const int32_t y = y0 + fy * p->dilation_h;
            if (y >= 0 && y < p->input_h) {
                tinyaot_s16_dot4(image + (y * p->input_w + x0 + first) * p->input_ch,
                                 filter + oc * window + fy * row + first * p->input_ch, n, window, a);
            }
        }
        for (k = 0; k < 4; k++) {
            out[oc + k] = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias, (int32_t)a[k], oc + k);
        }
    }
    for (; oc < output_ch; oc++) {
        out[oc] = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias,
                                           tinyaot_conv2d_s16_sum(p, image, filter, y0, x0, oc), oc);
    }
}

static void tinyaot_conv2d_s16(const struct tinyaot_conv2d_s16_params *p, const int32_t *multipliers,
                               const int32_t *shifts, const int16_t *input, const int8_t *filter,
                               const void *bias, int16_t *output)
{
    /* The last window column of a pair's second pixel, from the first's x0. */
    const int32_t pair_reach = p->stride_w + (p->filter_w - 1) * p->dilation_w;
    int32_t b, oy, ox, oc;
    for (b = 0; b < p->batches; b++) {
        const int16_t *image = input + b * p->input_h * p->input_w * p->input_ch;
        for (oy = 0; oy < p->output_h; oy++) {
            const int32_t y0 = oy * p->stride_h - p->pad_h;
            for (ox = 0; ox < p->output_w; ox++) {
                const int32_t x0 = ox * p->stride_w - p->pad_w;
#if TINYAOT_PIXEL_PAIRS
                if (p->block != NULL && ox + 1 < p->output_w && x0 >= 0 && x0 + pair_reach < p->input_w) {
                    tinyaot_conv2d_s16_pair(p, multipliers, shifts, image, filter, bias, y0, x0, output);
                    output += 2 * p->output_ch;
                    ox++;
                    continue;
                }
#else
                (void)pair_reach;
#endif
                if (p->rows) {
                    tinyaot_conv2d_s16_single(p, multipliers, shifts, image, filter, bias, y0, x0, output);
                    output += p->output_ch;
                    continue;
                }
                for (oc = 0; oc < p->output_ch; oc++) {
                    *output++ = tinyaot_conv2d_s16_value(p, multipliers, shifts, bias,
                                                         tinyaot_conv2d_s16_sum(p, image, filter, y0, x0, oc), oc);
                }
            }
        }
    }
}

#endif /* TINYAOT_CONV2D_S16_H */
