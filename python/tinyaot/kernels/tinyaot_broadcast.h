/*
 * tinyaot_broadcast.h - the walk over a broadcast table, shared by ADD and MUL.
 *
 * The lowering (ops/elementwise.py) describes the broadcast of two inputs to
 * the output as dims[] (the output's dimensions, merged where possible) and
 * strides1[]/strides2[] (how far each input moves per step in them, 0 where
 * it is broadcast). A kernel walks the output one row (the last dimension) at
 * a time; only the step from row to row is here, so each kernel's per-element
 * loop stays a plain loop of its own.
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

#endif /* TINYAOT_BROADCAST_H */
