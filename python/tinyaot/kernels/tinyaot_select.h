/*
 * tinyaot_select.h - SELECT_V2: output = condition ? x : y, the three inputs
 * broadcast to the output's shape; float32, int8 and int16 values copied as
 * they are (element_size bytes), as TFLM's select.cc (BroadcastSelect5DSlow).
 *
 * dims[] are the output's dimensions (merged at compile time) and strides_c,
 * strides_x, strides_y how far each input moves per step in them (0 where it
 * is broadcast). The condition is bool: nonzero is true.
 */
#ifndef TINYAOT_SELECT_H
#define TINYAOT_SELECT_H

#include <stdint.h>

#define TINYAOT_SELECT_MAX_DIMS 6

struct tinyaot_select_params {
    int32_t size;          /* output values */
    int32_t rank;          /* entries in dims/strides, 1..TINYAOT_SELECT_MAX_DIMS */
    int32_t element_size;  /* bytes per value: 1, 2 or 4 */
};

static void tinyaot_select(const struct tinyaot_select_params *p, const int32_t *dims, const int32_t *strides_c,
                           const int32_t *strides_x, const int32_t *strides_y, const uint8_t *condition,
                           const void *x, const void *y, void *output)
{
    int32_t index[TINYAOT_SELECT_MAX_DIMS] = {0};
    int32_t c = 0, ix = 0, iy = 0, n, b, d;
    uint8_t *out = (uint8_t *)output;
    for (n = 0; n < p->size; n++) {
        const uint8_t *from = condition[c] ? (const uint8_t *)x + ix * p->element_size
                                           : (const uint8_t *)y + iy * p->element_size;
        for (b = 0; b < p->element_size; b++) {
            *out++ = from[b];
        }
        /* next output value: count the dimensions up like an odometer */
        for (d = p->rank - 1; d >= 0; d--) {
            c += strides_c[d];
            ix += strides_x[d];
            iy += strides_y[d];
            if (++index[d] < dims[d]) {
                break;
            }
            c -= strides_c[d] * dims[d];
            ix -= strides_x[d] * dims[d];
            iy -= strides_y[d] * dims[d];
            index[d] = 0;
        }
    }
}

#endif /* TINYAOT_SELECT_H */
