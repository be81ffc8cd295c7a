/*
 * tinyaot_band_residual.h - a residual block O = ADD(X, CONV_b(CONV_a(X))), or
 * O = ADD(CONV_s(X), CONV_b(CONV_a(X))), computed in bands of output rows
 * (passes/fusion.py, ResidualFusion), so that no convolution's output is ever
 * stored whole and O is written from X's start on.
 *
 * The generated step loops over bands of O's rows. Per band, the T = CONV_a(X)
 * rows that CONV_b's window needs are held in a window scratch: the rows the
 * previous band computed and this one still needs move to its front
 * (tinyaot_band_keep_rows), CONV_a (its unchanged kernel, cut to the new rows by
 * tinyaot_band_window) appends the missing ones, CONV_b writes the band of U
 * (CONV_s the band of S) into scratch and the unchanged ADD kernel writes the
 * band of O. The generator fuses a block only if no band's O lands on X bytes a
 * later band still reads. A chain U = B(CONV_a(X)) (ChainFusion: B a convolution
 * or pooling) runs the same loop without the ADD, B writing U's rows.
 */
#ifndef TINYAOT_BAND_RESIDUAL_H
#define TINYAOT_BAND_RESIDUAL_H

#include <string.h>

#include "tinyaot_band_window.h"

/*
 * The window holds rows *window_first .. computed - 1 (row_bytes each, int8 or int16); moves rows
 * first .. computed - 1 to its front, so that it starts at row first.
 */
static inline void tinyaot_band_keep_rows(void *window, int32_t row_bytes, int32_t first,
                                          int32_t *window_first, int32_t computed)
{
    if (first > *window_first && computed > first) {
        memmove(window, (const int8_t *)window + (first - *window_first) * row_bytes,
                (size_t)((computed - first) * row_bytes));
    }
    *window_first = first;
}

#endif /* TINYAOT_BAND_RESIDUAL_H */
