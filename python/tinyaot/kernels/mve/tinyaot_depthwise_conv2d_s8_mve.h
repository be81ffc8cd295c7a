/*
 * tinyaot_depthwise_conv2d_s8_mve.h - int8 depthwise 2-D convolution for Helium (MVE) cores:
 * depth multiplier 1, any window, stride, dilation and padding (NHWC input). Bit-exact with
 * TFLM's DepthwiseConvPerChannel.
 *
 * Sixteen channels at a time: one 16-byte load brings a tap's input (or weights) for them,
 * VMULLB/VMULLT.S8 multiply the even and the odd lanes into 16-bit products, and
 * VMOVLB/VMOVLT widen those into four int32 sums (channels 4j, 4j + 2, 4j + 1, 4j + 3).
 * Where no weight is -128 (the lowering knows), two taps' products are added in 16 bits
 * first (|x * w| <= 128 * 127, two of them fit): one widening for two taps. The four sums
 * are requantized with per-lane multipliers and shifts (the lowering's table, in the sums'
 * lane order), narrowed back to the channels' order with saturation (VQMOVNB/VQMOVNT),
 * clamped to the activation range on 16 lanes at once and stored as one vector.
 *
 * The input offset is folded into the bias; taps outside the input read zp_row (the input
 * zero point for every channel), which adds w * (zp - zp) = 0: every window is whole. Only a
 * border pixel builds its taps' pointers; a row's pixels whose windows are inside the input
 * read base + the layer's tap offsets, in one call, and with 8 channels and stride 1 across
 * two of them share a vector (TINYAOT_DEPTHWISE_MVE_TWIN).
 */
#ifndef TINYAOT_DEPTHWISE_CONV2D_S8_MVE_H
#define TINYAOT_DEPTHWISE_CONV2D_S8_MVE_H

#include "tinyaot_depthwise_conv2d_params.h"
#include "tinyaot_mve.h"

/* The largest window (filter_h * filter_w) the kernel takes: its tap pointers are on the stack. */
#define TINYAOT_DEPTHWISE_MVE_MAX_TAPS 64

/* Per group of 16 channels, the lowering's table: 4 vectors (the sums' lane order) each of the
   folded bias, the multiplier, the left shift (>= 0) and the right shift (<= 0). */
#define TINYAOT_DEPTHWISE_MVE_TABLE 64

/* The four int32 sums of a group of 16 channels. */
struct tinyaot_depthwise_mve_sums {
    tinyaot_s32x4 bb, bt, tb, tt;
};

/* 16-bit products (even lanes pb, odd lanes pt) widened and added to s. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mve_widen(struct tinyaot_depthwise_mve_sums *s,
                                                              tinyaot_s16x8 pb, tinyaot_s16x8 pt)
{
    s->bb = tinyaot_vadd_s32(s->bb, tinyaot_vmovlb_s16(pb));
    s->bt = tinyaot_vadd_s32(s->bt, tinyaot_vmovlt_s16(pb));
    s->tb = tinyaot_vadd_s32(s->tb, tinyaot_vmovlb_s16(pt));
    s->tt = tinyaot_vadd_s32(s->tt, tinyaot_vmovlt_s16(pt));
}

/*
 * Where a pixel's window is: tap k's inputs for channel c at taps[k] + c (a pixel at the
 * border, its taps outside the input at zp_row), or, with inside, at base + offsets[k] + c
 * (a pixel whose window is inside the input: no per-pixel set-up of the tap pointers).
 */
struct tinyaot_depthwise_mve_taps {
    const int8_t *const *taps;
    const int8_t *base;
    const int32_t *offsets;
};

/* Tap k's input for the group at channel c: 16 bytes, or the tail's `lanes` (the rest zero). */
static TINYAOT_ALWAYS_INLINE tinyaot_s8x16 tinyaot_depthwise_mve_input(const struct tinyaot_depthwise_mve_taps *win,
                                                                       int32_t k, int32_t c, int32_t inside,
                                                                       int32_t tail, tinyaot_pred lanes)
{
    const int8_t *x = inside ? win->base + win->offsets[k] + c : win->taps[k] + c;
    return tail ? tinyaot_vld_s8_z(x, lanes) : tinyaot_vld_s8(x);
}

/*
 * The sums of the group at channel c over `count` taps (their inputs in win, weights 16 a tap
 * from w), from s. pairs: add two taps' products in 16 bits (no weight is -128); inside: win's
 * base and offsets; tail: the group is the last, short one (its loads predicated to `lanes`).
 * Constants once inlined: a loop each.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mve_window(const struct tinyaot_depthwise_mve_taps *win,
                                                               int32_t count, int32_t c, const int8_t *w,
                                                               int32_t pairs, int32_t inside, int32_t tail,
                                                               tinyaot_pred lanes,
                                                               struct tinyaot_depthwise_mve_sums *s)
{
    int32_t k = 0;
    if (pairs) {
        for (; k + 1 < count; k += 2, w += 32) {
            const tinyaot_s8x16 x0 = tinyaot_depthwise_mve_input(win, k, c, inside, tail, lanes);
            const tinyaot_s8x16 w0 = tinyaot_vld_s8(w);
            const tinyaot_s8x16 x1 = tinyaot_depthwise_mve_input(win, k + 1, c, inside, tail, lanes);
            const tinyaot_s8x16 w1 = tinyaot_vld_s8(w + 16);
            tinyaot_depthwise_mve_widen(s, tinyaot_vadd_s16(tinyaot_vmullb_s8(x0, w0), tinyaot_vmullb_s8(x1, w1)),
                                        tinyaot_vadd_s16(tinyaot_vmullt_s8(x0, w0), tinyaot_vmullt_s8(x1, w1)));
        }
    }
    for (; k < count; k++, w += 16) {
        const tinyaot_s8x16 x = tinyaot_depthwise_mve_input(win, k, c, inside, tail, lanes);
        const tinyaot_s8x16 wk = tinyaot_vld_s8(w);
        tinyaot_depthwise_mve_widen(s, tinyaot_vmullb_s8(x, wk), tinyaot_vmullt_s8(x, wk));
    }
}

/* One sum vector requantized (t: its multiplier, left and right shifts), plus the output offset;
   the clamp comes after the narrowing, on 16 lanes at once. */
static TINYAOT_ALWAYS_INLINE tinyaot_s32x4 tinyaot_depthwise_mve_requantize(tinyaot_s32x4 x, const int32_t *t,
                                                                           int32_t output_offset)
{
    const tinyaot_s32x4 right = tinyaot_vld_s32(t + 32);
    const tinyaot_s32x4 high = tinyaot_vqrdmulhv_s32(tinyaot_vshlv_s32(x, tinyaot_vld_s32(t + 16)),
                                                     tinyaot_vld_s32(t));
    /* RoundingDivideByPOT as CMSIS-NN's arm_divide_by_power_of_two_mve: a negative value less 1
       where it is shifted, then VRSHL's round half up (TFLite rounds half away from zero) */
    const tinyaot_s32x4 fixup = tinyaot_vsign_s32(tinyaot_vand_s32(high, right));
    return tinyaot_vadd_n_s32(tinyaot_vrshlv_s32(tinyaot_vqadd_s32(high, fixup), right), output_offset);
}

/* Output channels c.. of one pixel (the group's table t), from the window in win; `lanes` of
   them stored (and loaded where tail). */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mve_group(const struct tinyaot_depthwise_conv2d_params *p,
                                                              const struct tinyaot_depthwise_mve_taps *win,
                                                              int32_t count, int32_t c, const int8_t *w,
                                                              const int32_t *t, int32_t pairs, int32_t inside,
                                                              int32_t tail, tinyaot_pred lanes, int8_t *out)
{
    const int32_t output_offset = p->output_offset;
    struct tinyaot_depthwise_mve_sums s;
    tinyaot_s16x8 even, odd;
    s.bb = tinyaot_vld_s32(t);
    s.bt = tinyaot_vld_s32(t + 4);
    s.tb = tinyaot_vld_s32(t + 8);
    s.tt = tinyaot_vld_s32(t + 12);
    tinyaot_depthwise_mve_window(win, count, c, w, pairs, inside, tail, lanes, &s);
    t += 16;
    /* channels 4j and 4j + 2 are the even 16-bit lanes' B and T halves, 4j + 1 and 4j + 3 the odd's;
       saturating to int8 then clamping to the activation range (within it) is the clamp alone */
    even = tinyaot_vqmovn_s32(tinyaot_depthwise_mve_requantize(s.bb, t, output_offset),
                              tinyaot_depthwise_mve_requantize(s.bt, t + 4, output_offset));
    odd = tinyaot_vqmovn_s32(tinyaot_depthwise_mve_requantize(s.tb, t + 8, output_offset),
                             tinyaot_depthwise_mve_requantize(s.tt, t + 12, output_offset));
    tinyaot_vst_s8_p(out + c, tinyaot_vclamp_s8(tinyaot_vqmovn_s16(even, odd), tinyaot_vdup_s8((int8_t)p->act_min),
                                                tinyaot_vdup_s8((int8_t)p->act_max)), lanes);
}

/* Every channel of one output pixel, from the window in win; pairs and inside as above. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mve_channels(const struct tinyaot_depthwise_conv2d_params *p,
                                                                 const struct tinyaot_depthwise_mve_taps *win,
                                                                 int32_t count, const int8_t *filter,
                                                                 const int32_t *table, int32_t pairs,
                                                                 int32_t inside, int8_t *out)
{
    const int32_t channels = p->input_ch, whole = channels & ~15, step = 16 * count;
    int32_t c;
    for (c = 0; c < whole; c += 16, filter += step, table += TINYAOT_DEPTHWISE_MVE_TABLE) {
        tinyaot_depthwise_mve_group(p, win, count, c, filter, table, pairs, inside, 0, tinyaot_vctp8(16), out);
    }
    if (whole != channels) {
        tinyaot_depthwise_mve_group(p, win, count, c, filter, table, pairs, inside, 1,
                                    tinyaot_vctp8((uint32_t)(channels - c)), out);
    }
}

/* Two pixels a vector (8 channels, stride 1 across: ops/depthwise_mve.py's twin_pixels, which
   doubles the filter and table into the upper 8 lanes): a tap's inputs for pixels ox and
   ox + 1 are 16 adjacent bytes, their outputs too. */
#define TINYAOT_DEPTHWISE_MVE_TWIN(p) ((p)->input_ch == 8 && (p)->stride_w == 1)

/* Pixels inside the input, two a vector (TINYAOT_DEPTHWISE_MVE_TWIN), as one 16-channel group;
   the pixels' outputs stored after both windows' reads. Returns the pixels left (0 or 1). */
static TINYAOT_ALWAYS_INLINE int32_t tinyaot_depthwise_mve_twins(const struct tinyaot_depthwise_conv2d_params *p,
                                                                 struct tinyaot_depthwise_mve_taps *win,
                                                                 int32_t count, int32_t n, const int8_t *filter,
                                                                 const int32_t *table, int32_t pairs,
                                                                 int8_t **out)
{
    for (; n > 1; n -= 2, win->base += 16, *out += 16) {
        tinyaot_depthwise_mve_group(p, win, count, 0, filter, table, pairs, 1, 0, tinyaot_vctp8(16), *out);
    }
    return n;
}

/*
 * n output pixels from out on: with taps (n is 1), a border pixel's window; without, pixels
 * whose windows are inside the input, the first at base + offsets[k], each next `step` bytes
 * on (two a vector where TINYAOT_DEPTHWISE_MVE_TWIN). pairs as above.
 */
static TINYAOT_NOINLINE void tinyaot_depthwise_mve_pixels(const struct tinyaot_depthwise_conv2d_params *p,
                                                          const int8_t *const *taps, const int8_t *base,
                                                          const int32_t *offsets, int32_t step, int32_t n,
                                                          const int8_t *filter, const int32_t *table,
                                                          int8_t *out)
{
    const int32_t count = p->filter_h * p->filter_w, channels = p->input_ch;
    struct tinyaot_depthwise_mve_taps win;
    int32_t i;
    win.taps = taps;
    win.base = base;
    win.offsets = offsets;
    if (taps != 0) {
        if (p->packed_sums) {
            tinyaot_depthwise_mve_channels(p, &win, count, filter, table, 1, 0, out);
        } else {
            tinyaot_depthwise_mve_channels(p, &win, count, filter, table, 0, 0, out);
        }
        return;
    }
    if (TINYAOT_DEPTHWISE_MVE_TWIN(p)) {
        n = p->packed_sums ? tinyaot_depthwise_mve_twins(p, &win, count, n, filter, table, 1, &out)
                           : tinyaot_depthwise_mve_twins(p, &win, count, n, filter, table, 0, &out);
    }
    if (p->packed_sums) {
        for (i = 0; i < n; i++, win.base += step, out += channels) {
            tinyaot_depthwise_mve_channels(p, &win, count, filter, table, 1, 1, out);
        }
    } else {
        for (i = 0; i < n; i++, win.base += step, out += channels) {
            tinyaot_depthwise_mve_channels(p, &win, count, filter, table, 0, 1, out);
        }
    }
}

/* The first and past-the-last output columns whose windows are inside the input's width. */
static void tinyaot_depthwise_mve_inside_columns(const struct tinyaot_depthwise_conv2d_params *p, int32_t *first,
                                                 int32_t *end)
{
    const int32_t reach = (p->filter_w - 1) * p->dilation_w;
    int32_t lo = 0, hi = p->output_w;
    while (lo < hi && lo * p->stride_w - p->pad_w < 0) {
        lo++;
    }
    while (hi > lo && (hi - 1) * p->stride_w - p->pad_w + reach >= p->input_w) {
        hi--;
    }
    *first = lo;
    *end = hi;
}

/* One border pixel at (y0, x0) (its window's top left, maybe outside): its tap pointers, then
   its channels. */
static void tinyaot_depthwise_mve_border(const struct tinyaot_depthwise_conv2d_params *p, const int8_t *in_image,
                                         const int8_t *zp_row, int32_t y0, int32_t x0, const int8_t *filter,
                                         const int32_t *table, int8_t *out)
{
    const int8_t *taps[TINYAOT_DEPTHWISE_MVE_MAX_TAPS];
    const int8_t **tap = taps;
    int32_t ky, kx;
    for (ky = 0; ky < p->filter_h; ky++) {
        const int32_t y = y0 + ky * p->dilation_h;
        const int row_inside = y >= 0 && y < p->input_h;
        for (kx = 0; kx < p->filter_w; kx++) {
            const int32_t x = x0 + kx * p->dilation_w;
            *tap++ = row_inside && x >= 0 && x < p->input_w ? in_image + (y * p->input_w + x) * p->input_ch : zp_row;
        }
    }
    tinyaot_depthwise_mve_pixels(p, taps, 0, 0, 0, 1, filter, table, out);
}

/*
 * filter: per group of 16 channels, each tap's 16 weights ([taps][16], the last group's
 * missing channels 0); table: per group, TINYAOT_DEPTHWISE_MVE_TABLE values (see there);
 * zp_row: the input zero point, once per channel rounded up to 16; p->packed_sums: 1 where
 * taps may be paired (no weight is -128). Output pixels in raster order, each pixel's
 * groups in increasing order, a group's 16 outputs stored after its window's reads.
 */
static void tinyaot_depthwise_conv2d_s8_mve(const struct tinyaot_depthwise_conv2d_params *p, const int32_t *table,
                                            const int8_t *zp_row, const int8_t *input, const int8_t *filter,
                                            int8_t *output)
{
    /* Locals: the int8_t output stores may alias anything, *p too. */
    const struct tinyaot_depthwise_conv2d_params pp = *p;
    const int32_t channels = pp.input_ch, reach_h = (pp.filter_h - 1) * pp.dilation_h;
    const int32_t step = pp.stride_w * channels;
    int32_t offsets[TINYAOT_DEPTHWISE_MVE_MAX_TAPS];
    int32_t b, oy, ox, ky, kx, first, end;
    if (pp.filter_h * pp.filter_w > TINYAOT_DEPTHWISE_MVE_MAX_TAPS) {
        return;  /* never: the lowering takes no larger window */
    }
    for (ky = 0; ky < pp.filter_h; ky++) {
        for (kx = 0; kx < pp.filter_w; kx++) {
            offsets[ky * pp.filter_w + kx] = (ky * pp.dilation_h * pp.input_w + kx * pp.dilation_w) * channels;
        }
    }
    tinyaot_depthwise_mve_inside_columns(&pp, &first, &end);
    for (b = 0; b < pp.batches; b++) {
        const int8_t *in_image = input + b * pp.input_h * pp.input_w * channels;
        for (oy = 0; oy < pp.output_h; oy++, output += pp.output_w * channels) {
            const int32_t y0 = oy * pp.stride_h - pp.pad_h;
            const int row_inside = y0 >= 0 && y0 + reach_h < pp.input_h;
            const int32_t lo = row_inside ? first : pp.output_w, hi = row_inside ? end : pp.output_w;
            for (ox = 0; ox < lo; ox++) {
                tinyaot_depthwise_mve_border(&pp, in_image, zp_row, y0, ox * pp.stride_w - pp.pad_w, filter, table,
                                             output + ox * channels);
            }
            if (lo < hi) {
                tinyaot_depthwise_mve_pixels(&pp, 0, in_image + (y0 * pp.input_w + lo * pp.stride_w - pp.pad_w) * channels,
                                             offsets, step, hi - lo, filter, table, output + lo * channels);
            }
            for (ox = hi; ox < pp.output_w; ox++) {
                tinyaot_depthwise_mve_border(&pp, in_image, zp_row, y0, ox * pp.stride_w - pp.pad_w, filter, table,
                                             output + ox * channels);
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S8_MVE_H */
