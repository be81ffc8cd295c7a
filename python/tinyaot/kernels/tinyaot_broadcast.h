/*
 * tinyaot_broadcast.h - the walk over a broadcast table, shared by ADD and MUL.
 *
 * The lowering (ops/elementwise.py) describes the broadcast of two inputs to
 * the output as dims[] (the output's dimensions, merged where possible) and
 * strides1[]/strides2[] (how far each input moves per step in them, 0 where
 * it is broadcast). The hot kernels (int8 ADD, MUL) walk the output one row
 * (the last dimension) at a time with their own per-row loop; the others hand
 * tinyaot_broadcast_each() a function for one value.
 */
#ifndef TINYAOT_BROADCAST_H
#define TINYAOT_BROADCAST_H

#include <stdint.h>

#define TINYAOT_BROADCAST_MAX_DIMS 6

struct tinyaot_broadcast {
    int32_t index[TINYAOT_BROADCAST_MAX_DIMS];  /* position in each dimension but the last */
    int32_t offset1, offset2;                   /* the current row's first value in each input */
};

static inline void tinyaot_broadcast_start(struct tinyaot_broadcast *w)
{
    int32_t d;
    for (d = 0; d < TINYAOT_BROADCAST_MAX_DIMS; d++) {
        w->index[d] = 0;
    }
    w->offset1 = 0;
    w->offset2 = 0;
}

/* Next row: count up the outer dimensions like an odometer. */
static inline void tinyaot_broadcast_next_row(struct tinyaot_broadcast *w, int32_t rank,
                                              const int32_t *dims, const int32_t *strides1,
                                              const int32_t *strides2)
{
    int32_t d;
    for (d = rank - 2; d >= 0; d--) {
        w->offset1 += strides1[d];
        w->offset2 += strides2[d];
        if (++w->index[d] < dims[d]) {
            break;
        }
        w->offset1 -= strides1[d] * dims[d];
        w->offset2 -= strides2[d] * dims[d];
        w->index[d] = 0;
    }
}

/* One output value: output[n] from input1[i1] and input2[i2]. */
typedef void (*tinyaot_broadcast_value_fn)(const void *params, const void *input1, const void *input2,
                                           void *output, int32_t n, int32_t i1, int32_t i2);

/* Every output value in order (size of them), each by `value`. */
static inline void tinyaot_broadcast_each(const void *params, int32_t size, int32_t rank, const int32_t *dims,
                                          const int32_t *strides1, const int32_t *strides2,
                                          const void *input1, const void *input2, void *output,
                                          tinyaot_broadcast_value_fn value)
{
    struct tinyaot_broadcast walk;
    const int32_t inner = dims[rank - 1];
    const int32_t s1 = strides1[rank - 1];
    const int32_t s2 = strides2[rank - 1];
    int32_t n, k;
    tinyaot_broadcast_start(&walk);
    for (n = 0; n < size; n += inner) {
        for (k = 0; k < inner; k++) {
            value(params, input1, input2, output, n + k, walk.offset1 + k * s1, walk.offset2 + k * s2);
        }
        tinyaot_broadcast_next_row(&walk, rank, dims, strides1, strides2);
    }
}

#endif /* TINYAOT_BROADCAST_H */
