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
 * zero point for every channel), which adds w * (zp - zp) = 0: every window is whole.
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

/* Tap k's input for the group at channel c: 16 bytes, or the tail's `lanes` (the rest zero). */
static TINYAOT_ALWAYS_INLINE tinyaot_s8x16 tinyaot_depthwise_mve_input(const int8_t *const *taps, int32_t k,
                                                                       int32_t c, int32_t tail, tinyaot_pred lanes)
{
    return tail ? tinyaot_vld_s8_z(taps[k] + c, lanes) : tinyaot_vld_s8(taps[k] + c);
}

/*
 * The sums of the group at channel c over `count` taps (their inputs at taps[k] + c, weights
 * 16 a tap from w), from s. pairs: add two taps' products in 16 bits (no weight is -128);
 * tail: the group is the last, short one (its loads predicated to `lanes`). Constants once
 * inlined: a loop each.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mve_window(const int8_t *const *taps, int32_t count, int32_t c,
                                                               const int8_t *w, int32_t pairs, int32_t tail,
                                                               tinyaot_pred lanes,
                                                               struct tinyaot_depthwise_mve_sums *s)
{
    int32_t k = 0;
    if (pairs) {
        for (; k + 1 < count; k += 2, w += 32) {
            const tinyaot_s8x16 x0 = tinyaot_depthwise_mve_input(taps, k, c, tail, lanes);
            const tinyaot_s8x16 w0 = tinyaot_vld_s8(w);
            const tinyaot_s8x16 x1 = tinyaot_depthwise_mve_input(taps, k + 1, c, tail, lanes);
            const tinyaot_s8x16 w1 = tinyaot_vld_s8(w + 16);
            tinyaot_depthwise_mve_widen(s, tinyaot_vadd_s16(tinyaot_vmullb_s8(x0, w0), tinyaot_vmullb_s8(x1, w1)),
                                        tinyaot_vadd_s16(tinyaot_vmullt_s8(x0, w0), tinyaot_vmullt_s8(x1, w1)));
        }
    }
    for (; k < count; k++, w += 16) {
        const tinyaot_s8x16 x = tinyaot_depthwise_mve_input(taps, k, c, tail, lanes);
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

/* Output channels c.. of one pixel (the group's table t), from the window at taps. */
static TINYAOT_ALWAYS_INLINE void tinyaot_depthwise_mve_group(const struct tinyaot_depthwise_conv2d_params *p,
                                                              const int8_t *const *taps, int32_t count,
                                                              int32_t c, const int8_t *w, const int32_t *t,
                                                              int32_t pairs, int32_t tail, int8_t *out)
{
    const tinyaot_pred lanes = tinyaot_vctp8((uint32_t)(p->input_ch - c));
    const int32_t output_offset = p->output_offset;
    struct tinyaot_depthwise_mve_sums s;
    tinyaot_s16x8 even, odd;
    s.bb = tinyaot_vld_s32(t);
    s.bt = tinyaot_vld_s32(t + 4);
    s.tb = tinyaot_vld_s32(t + 8);
    s.tt = tinyaot_vld_s32(t + 12);
    tinyaot_depthwise_mve_window(taps, count, c, w, pairs, tail, lanes, &s);
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

/* Every channel of one output pixel, its window's taps at taps; pairs as above. */
static TINYAOT_NOINLINE void tinyaot_depthwise_mve_pixel(const struct tinyaot_depthwise_conv2d_params *p,
                                                         const int8_t *const *taps, int32_t count,
                                                         const int8_t *filter, const int32_t *table, int32_t pairs,
                                                         int8_t *out)
{
    const int32_t channels = p->input_ch, whole = channels & ~15, step = 16 * count;
    int32_t c;
    if (pairs) {
        for (c = 0; c < whole; c += 16, filter += step, table += TINYAOT_DEPTHWISE_MVE_TABLE) {
            tinyaot_depthwise_mve_group(p, taps, count, c, filter, table, 1, 0, out);
        }
        if (whole != channels) {
            tinyaot_depthwise_mve_group(p, taps, count, c, filter, table, 1, 1, out);
        }
    } else {
        for (c = 0; c < whole; c += 16, filter += step, table += TINYAOT_DEPTHWISE_MVE_TABLE) {
            tinyaot_depthwise_mve_group(p, taps, count, c, filter, table, 0, 0, out);
        }
        if (whole != channels) {
            tinyaot_depthwise_mve_group(p, taps, count, c, filter, table, 0, 1, out);
        }
    }
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
    const int32_t channels = pp.input_ch, filter_h = pp.filter_h, filter_w = pp.filter_w;
    const int32_t count = filter_h * filter_w;
    const int8_t *taps[TINYAOT_DEPTHWISE_MVE_MAX_TAPS];
    int32_t b, oy, ox, ky, kx;
    if (count > TINYAOT_DEPTHWISE_MVE_MAX_TAPS) {
        return;  /* never: the lowering takes no larger window */
    }
    for (b = 0; b < pp.batches; b++) {
        const int8_t *in_image = input + b * pp.input_h * pp.input_w * channels;
        for (oy = 0; oy < pp.output_h; oy++) {
            const int32_t y0 = oy * pp.stride_h - pp.pad_h;
            for (ox = 0; ox < pp.output_w; ox++, output += channels) {
                const int32_t x0 = ox * pp.stride_w - pp.pad_w;
                const int8_t **tap = taps;
                for (ky = 0; ky < filter_h; ky++) {
                    const int32_t y = y0 + ky * pp.dilation_h;
                    const int row_inside = y >= 0 && y < pp.input_h;
                    for (kx = 0; kx < filter_w; kx++) {
                        const int32_t x = x0 + kx * pp.dilation_w;
                        *tap++ = row_inside && x >= 0 && x < pp.input_w ? in_image + (y * pp.input_w + x) * channels
                                                                        : zp_row;
                    }
                }
                tinyaot_depthwise_mve_pixel(&pp, taps, count, filter, table, pp.packed_sums, output);
            }
        }
    }
}

#endif /* TINYAOT_DEPTHWISE_CONV2D_S8_MVE_H */
