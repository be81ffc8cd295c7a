/*
 * tinyaot_pool.h - what AVERAGE_POOL_2D and MAX_POOL_2D share: their
 * parameters and the window of taps each output pixel reduces.
 */
#ifndef TINYAOT_POOL_H
#define TINYAOT_POOL_H

#include "tinyaot_common.h"

struct tinyaot_pool_params {
    int32_t batches;
    int32_t input_h, input_w, channels;
    int32_t filter_h, filter_w;
    int32_t output_h, output_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;       /* top and left padding */
    int32_t act_min;
    int32_t act_max;
};

/*
 * The taps of output pixel (oy, ox) that lie inside the input image: *rows by
 * *cols of them, the first at the element offset returned (channel 0) from the
 * image's start, whatever the element type. Padding is skipped, as TFLM's pools
 * skip it; the lowering checked that no window is empty.
 */
static inline int32_t tinyaot_pool_window(const struct tinyaot_pool_params *p, int32_t oy, int32_t ox,
                                          int32_t *rows, int32_t *cols)
{
    int32_t fy_first, fy_end, fx_first, fx_end;
    const int32_t in_y = tinyaot_window(oy * p->stride_h - p->pad_h, 1, p->filter_h, p->input_h,
                                        &fy_first, &fy_end);
    const int32_t in_x = tinyaot_window(ox * p->stride_w - p->pad_w, 1, p->filter_w, p->input_w,
                                        &fx_first, &fx_end);
    *rows = fy_end - fy_first;
    *cols = fx_end - fx_first;
    return (in_y * p->input_w + in_x) * p->channels;
}

#endif /* TINYAOT_POOL_H */
