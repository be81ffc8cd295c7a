/*
 * tinyaot_window_sums.h - the border correction of convolutions whose bias has
 * the input offset folded in (bias + input_offset * sum(w), see the lowering's
 * fold_input_offset): where a window leaves the input, TFLM skips those taps,
 * so the kernel takes input_offset times their weights back out of the sum.
 */
#ifndef TINYAOT_WINDOW_SUMS_H
#define TINYAOT_WINDOW_SUMS_H

#include "tinyaot_common.h"

/*
 * Adds to s the sums of n (4, or 1) adjacent weights over rows of count
 * elements from w, elements step apart and rows row_step apart.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_weight_sums(const int8_t *w, int32_t rows, int32_t count, int32_t step,
                                                      int32_t row_step, int32_t n, int32_t s[4])
{
    /* Locals, not s[]: the array stays on the stack, one load and store per add. */
    int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    int32_t fy, i;
    for (fy = rows; fy > 0; fy--) {
        const int8_t *w_tap = w;
        for (i = count; i > 0; i--) {
            s0 += w_tap[0];
            if (n == 4) {
                s1 += w_tap[1];
                s2 += w_tap[2];
                s3 += w_tap[3];
            }
            w_tap += step;
        }
        w += row_step;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

/*
 * s: the sums of the weights of the taps outside [fy_first, fy_end) x
 * [fx_first, fx_end) of a filter_h x filter_w window (the rows above and below,
 * then left and right of the window in its rows), for n adjacent outputs whose
 * weights start at w; each tap holds tap_elems elements, step apart.
 */
static TINYAOT_ALWAYS_INLINE void tinyaot_outside_sums(const int8_t *w, int32_t filter_h, int32_t filter_w,
                                                       int32_t tap_elems, int32_t step, int32_t n, int32_t fy_first,
                                                       int32_t fy_end, int32_t fx_first, int32_t fx_end, int32_t s[4])
{
    const int32_t tap = tap_elems * step;
    const int32_t row = filter_w * tap;
    const int8_t *w_rows = w + fy_first * row;
    s[0] = s[1] = s[2] = s[3] = 0;
    tinyaot_weight_sums(w, fy_first, filter_w * tap_elems, step, row, n, s);
    tinyaot_weight_sums(w + fy_end * row, filter_h - fy_end, filter_w * tap_elems, step, row, n, s);
    tinyaot_weight_sums(w_rows, fy_end - fy_first, fx_first * tap_elems, step, row, n, s);
    tinyaot_weight_sums(w_rows + fx_end * tap, fy_end - fy_first, (filter_w - fx_end) * tap_elems, step, row, n,
                        s);
}

/* Takes input_offset times those sums (tinyaot_outside_sums) from acc. */
static TINYAOT_ALWAYS_INLINE void tinyaot_take_back_outside(const int8_t *w, int32_t filter_h, int32_t filter_w,
                                                            int32_t tap_elems, int32_t step, int32_t n,
                                                            int32_t fy_first, int32_t fy_end, int32_t fx_first,
                                                            int32_t fx_end, int32_t input_offset, int32_t acc[4])
{
    int32_t s[4];
    int32_t k;
    tinyaot_outside_sums(w, filter_h, filter_w, tap_elems, step, n, fy_first, fy_end, fx_first, fx_end, s);
    for (k = 0; k < n; k++) {
        acc[k] -= input_offset * s[k];
    }
}

#endif /* TINYAOT_WINDOW_SUMS_H */
