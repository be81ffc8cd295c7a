/*
 * tinyaot_band_window.h - a convolution's parameters cut to a band of output
 * rows, for the fused steps that run a convolution band by band
 * (tinyaot_band_fc_s8.h, tinyaot_band_residual.h; passes/fusion.py).
 */
#ifndef TINYAOT_BAND_WINDOW_H
#define TINYAOT_BAND_WINDOW_H

#include <stdint.h>

/*
 * Output rows row .. row + rows - 1 (rows cut at output_h) of a window of
 * filter_h taps (dilation, stride, top padding pad) over input_h rows read
 * input rows *first .. *first + *input_rows - 1 at most: the band's call takes
 * them as its whole input, with *pad_top rows of padding above. A tap outside
 * them is outside the full input too, so the kernel skips the same taps.
 * Returns the band's rows.
 */
static inline int32_t tinyaot_band_window(int32_t row, int32_t rows, int32_t output_h, int32_t input_h,
                                          int32_t stride, int32_t dilation, int32_t filter_h, int32_t pad,
                                          int32_t *first, int32_t *input_rows, int32_t *pad_top)
{
    const int32_t top = row * stride - pad;
    int32_t end;
    if (rows > output_h - row) {
        rows = output_h - row;
    }
    end = (row + rows - 1) * stride - pad + (filter_h - 1) * dilation + 1;
    *first = top < 0 ? 0 : top < input_h ? top : input_h;
    *pad_top = *first - top;
    *input_rows = (end < input_h ? end : input_h) - *first;
    if (*input_rows < 0) {
        *input_rows = 0;
    }
    return rows;
}

#endif /* TINYAOT_BAND_WINDOW_H */
