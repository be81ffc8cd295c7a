/*
 * tinyaot_mul_s16.h - int16 MUL (16x8) with broadcasting (the arithmetic: tinyaot_mul.h).
 */
#ifndef TINYAOT_MUL_S16_H
#define TINYAOT_MUL_S16_H

#include "tinyaot_mul.h"

static void tinyaot_mul_s16(const struct tinyaot_mul_params *p, const int32_t *dims,
                            const int32_t *strides1, const int32_t *strides2,
                            const int16_t *input1, const int16_t *input2, int16_t *output)
{
    struct tinyaot_broadcast walk;
    const int32_t inner = dims[p->rank - 1];
    const int32_t s1 = strides1[p->rank - 1];
    const int32_t s2 = strides2[p->rank - 1];
    int32_t n, i;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < p->size; n += inner) {
        const int16_t *x = input1 + walk.offset1;
        const int16_t *y = input2 + walk.offset2;
        for (i = 0; i < inner; i++) {
            output[n + i] = (int16_t)tinyaot_mul_one(p, *x, *y);
            x += s1;
            y += s2;
        }
        tinyaot_broadcast_next_row(&walk, p->rank, dims, strides1, strides2);
    }
}

#endif /* TINYAOT_MUL_S16_H */
