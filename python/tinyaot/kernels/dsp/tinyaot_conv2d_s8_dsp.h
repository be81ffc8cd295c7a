/*
 * tinyaot_conv2d_s8_dsp.h - tinyaot_conv2d_s8 (tinyaot_conv2d_s8.h) on cores with the DSP
 * extension (tinyaot_acle.h): its pixel pairs' loop over whole windows with the
 * halfword multiply-accumulates. Same driver, same weight layout (blocks of four filters,
 * [taps and channels][4]): one 32-bit load brings the four filters' weights of an input
 * channel, SXTB16 and SXTB16 ROR #8 spread them over two words of 16-bit halves (filters
 * 0 and 2, 1 and 3), and SMLABB/SMLABT take each product from the input value and a half.
 */
#ifndef TINYAOT_CONV2D_S8_DSP_H
#define TINYAOT_CONV2D_S8_DSP_H

#include "tinyaot_acle.h"
#include "tinyaot_conv2d_s8.h"

/* tinyaot_conv2d_pair4_sums over whole windows (the input offset folded into the bias: offset 0). */
static TINYAOT_ALWAYS_INLINE void tinyaot_conv2d_pair4_sums_dsp(const int8_t *in, int32_t pixel_step, const int8_t *w,
                                                                int32_t rows, const struct tinyaot_conv2d_walk *k,
                                                                int32_t offset, int32_t acc[8])
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t b0 = acc[4], b1 = acc[5], b2 = acc[6], b3 = acc[7];
    int32_t fy, fx;
    (void)offset;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *in_tap = in;
        for (fx = k->cols; fx > 0; fx--) {
            const int8_t *x = in_tap;
            const int8_t *const x_end = x + k->run;
            do {
                /* the two pixels' values: their low halves are the int16 operands */
                const uint32_t u = (uint32_t)x[0], v = (uint32_t)x[pixel_step];
                const uint32_t ws = tinyaot_load_u32(w);
                const uint32_t w02 = tinyaot_sxtb16(ws);
                const uint32_t w13 = tinyaot_sxtb16_ror8(ws);
                a0 = tinyaot_smlabb(u, w02, a0);
                b0 = tinyaot_smlabb(v, w02, b0);
                a2 = tinyaot_smlabt(u, w02, a2);
                b2 = tinyaot_smlabt(v, w02, b2);
                a1 = tinyaot_smlabb(u, w13, a1);
                b1 = tinyaot_smlabb(v, w13, b1);
                a3 = tinyaot_smlabt(u, w13, a3);
                b3 = tinyaot_smlabt(v, w13, b3);
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

/* As TINYAOT_CONV2D_PAIR4_STEP / TINYAOT_CONV2D_PAIR4 (tinyaot_conv2d_s8.h), the loops of this level. */
#if TINYAOT_PIXEL_PAIRS
#define TINYAOT_CONV2D_PAIR4_DSP_STEP(step) \
    TINYAOT_CONV2D_PAIR4_DEFINE(tinyaot_conv2d_pair4_dsp_##step, tinyaot_conv2d_pair4_sums_dsp, step)
#define TINYAOT_CONV2D_PAIR4_DSP(step) tinyaot_conv2d_pair4_dsp_##step
TINYAOT_CONV2D_PAIR4_DEFINE(tinyaot_conv2d_pair4_dsp_any, tinyaot_conv2d_pair4_sums_dsp, k->pixel_step)
#else
#define TINYAOT_CONV2D_PAIR4_DSP_STEP(step)
#define TINYAOT_CONV2D_PAIR4_DSP(step) NULL
#endif

#endif /* TINYAOT_CONV2D_S8_DSP_H */
