/*
 * tinyaot_arith_ops.h - the element-wise operations tinyaot_arith_f32 and
 * tinyaot_arith_i32 share, by number.
 */
#ifndef TINYAOT_ARITH_OPS_H
#define TINYAOT_ARITH_OPS_H

#define TINYAOT_ARITH_ADD 0
#define TINYAOT_ARITH_SUB 1
#define TINYAOT_ARITH_MUL 2
#define TINYAOT_ARITH_SQUARED_DIFFERENCE 3
#define TINYAOT_ARITH_PRELU 4
#define TINYAOT_ARITH_DIV 5
#define TINYAOT_ARITH_FLOOR_DIV 6
#define TINYAOT_ARITH_FLOOR_MOD 7

#endif /* TINYAOT_ARITH_OPS_H */
