"""Test models: ADD, SUB, MUL, CONCATENATION, PAD/PADV2 and MEAN (int8).

Each model packs several cases (broadcast patterns, constant operands, fused
activations, differing scales and zero points, axes) behind a few inputs, and
every case is a model output, so each one is compared with TFLM.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.testing.catalog import test_model

NONE, RELU, RELU_N1_TO_1, RELU6 = 0, 1, 2, 3


def _binary(mb, op, a, b, shape, scale, zp, act=NONE, name=None):
    y = mb.tensor(name or f"{op.lower()}{len(mb.tensors)}", "int8", shape, scale=scale, zero_point=zp)
    if op == "SQUARED_DIFFERENCE":
        mb.op(op, [a, b], [y], "SquaredDifferenceOptions")
        return y
    options = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[op]
    mb.op(op, [a, b], [y], options, fused_activation_function=act)
    return y


@test_model("add_broadcast_act")
def add_broadcast_act():
    """ADD: equal shapes (the larger input scale first and second), [1,4,4,3]+[1,1,1,3]
    both ways round, rank-1 and scalar constants, a tensor added to itself; every fused
    activation."""
    rng = np.random.default_rng(40)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 4, 3], scale=0.05, zero_point=-3)
    y = mb.input("y", "int8", [1, 1, 1, 3], scale=0.11, zero_point=7)
    z = mb.input("z", "int8", [1, 4, 4, 3], scale=0.02, zero_point=20)
    mb.output(_binary(mb, "ADD", x, z, [1, 4, 4, 3], 0.06, -5, act=NONE))
    mb.output(_binary(mb, "ADD", z, x, [1, 4, 4, 3], 0.07, 9, act=RELU))  # the larger scale second
    mb.output(_binary(mb, "ADD", x, y, [1, 4, 4, 3], 0.08, -10, act=RELU6))
    mb.output(_binary(mb, "ADD", y, z, [1, 4, 4, 3], 0.1, 3, act=RELU))
    c3 = mb.const("c3", random_int8(rng, [3]), scale=0.03, zero_point=-2)
    mb.output(_binary(mb, "ADD", x, c3, [1, 4, 4, 3], 0.04, 0, act=RELU_N1_TO_1))
    s = mb.const("s", np.array(-40, np.int8), scale=0.2, zero_point=10)  # shape []: a scalar
    mb.output(_binary(mb, "ADD", s, z, [1, 4, 4, 3], 0.05, 1))
    mb.output(_binary(mb, "ADD", x, x, [1, 4, 4, 3], 0.1, -128, act=RELU))
    return mb.build()


@test_model("add_outer_broadcast")
def add_outer_broadcast():
    """ADD where both inputs broadcast ([2,1,3,1] + [4,1,5]), inputs of different
    rank, and a row vector against a column vector."""
    mb = ModelBuilder()
    a = mb.input("a", "int8", [2, 1, 3, 1], scale=0.07, zero_point=4)
    b = mb.input("b", "int8", [4, 1, 5], scale=0.03, zero_point=-9)
    col = mb.input("col", "int8", [6, 1], scale=0.5, zero_point=0)
    row = mb.input("row", "int8", [1, 7], scale=0.004, zero_point=-100)
    mb.output(_binary(mb, "ADD", a, b, [2, 4, 3, 5], 0.09, 2))
    mb.output(_binary(mb, "ADD", col, row, [6, 7], 0.45, -1, act=RELU))
    return mb.build()


@test_model("sub_broadcast_act")
def sub_broadcast_act():
    """SUB: equal shapes both ways round, a broadcast channel vector, a scalar
    constant minus a tensor, both inputs broadcast, a tensor minus itself, scales
    whose float32 and double rescale factors differ; every fused activation."""
    rng = np.random.default_rng(43)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 4, 3], scale=0.05, zero_point=-3)
    y = mb.input("y", "int8", [1, 1, 1, 3], scale=0.11, zero_point=7)
    z = mb.input("z", "int8", [1, 4, 4, 3], scale=0.0213, zero_point=20)
    mb.output(_binary(mb, "SUB", x, z, [1, 4, 4, 3], 0.06, -5, act=NONE))
    mb.output(_binary(mb, "SUB", z, x, [1, 4, 4, 3], 0.0317, 9, act=RELU))
    mb.output(_binary(mb, "SUB", x, y, [1, 4, 4, 3], 0.08, -10, act=RELU6))
    c3 = mb.const("c3", random_int8(rng, [3]), scale=0.03, zero_point=-2)
    mb.output(_binary(mb, "SUB", c3, z, [1, 4, 4, 3], 0.04, 0, act=RELU_N1_TO_1))
    s = mb.const("s", np.array(-40, np.int8), scale=0.2, zero_point=10)
    mb.output(_binary(mb, "SUB", s, z, [1, 4, 4, 3], 0.05, 1))
    col = mb.input("col", "int8", [2, 1, 3, 1], scale=0.07, zero_point=4)
    row = mb.input("row", "int8", [4, 1, 5], scale=0.03, zero_point=-9)
    mb.output(_binary(mb, "SUB", col, row, [2, 4, 3, 5], 0.09, 2))
    mb.output(_binary(mb, "SUB", x, x, [1, 4, 4, 3], 0.1, -128, act=RELU))
    return mb.build()


@test_model("squared_difference")
def squared_difference():
    """SQUARED_DIFFERENCE of equal shapes, a broadcast channel vector and a
    constant, output factors below and above 1 (a saturating one too)."""
    rng = np.random.default_rng(46)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 4, 3], scale=0.05, zero_point=-3)
    y = mb.input("y", "int8", [1, 1, 1, 3], scale=0.11, zero_point=7)
    z = mb.input("z", "int8", [1, 4, 4, 3], scale=0.0213, zero_point=20)
    mb.output(_binary(mb, "SQUARED_DIFFERENCE", x, z, [1, 4, 4, 3], 0.2, -128))
    mb.output(_binary(mb, "SQUARED_DIFFERENCE", y, x, [1, 4, 4, 3], 0.5, -100))
    c = mb.const("c", random_int8(rng, [4, 1, 3]), scale=0.03, zero_point=-2)
    mb.output(_binary(mb, "SQUARED_DIFFERENCE", z, c, [1, 4, 4, 3], 0.001, -128))
    mb.output(_binary(mb, "SQUARED_DIFFERENCE", x, x, [1, 4, 4, 3], 0.01, 0))
    return mb.build()


@test_model("mul_broadcast_act")
def mul_broadcast_act():
    """MUL: [1,4,1,3]*[1,1,5,3], equal shapes, a constant per-channel factor, a
    scalar, a rescale above 1 (positive shift); fused activations."""
    rng = np.random.default_rng(41)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 1, 3], scale=0.04, zero_point=-6)
    y = mb.input("y", "int8", [1, 1, 5, 3], scale=0.06, zero_point=11)
    z = mb.input("z", "int8", [1, 4, 5, 3], scale=0.5, zero_point=-1)
    mb.output(_binary(mb, "MUL", x, y, [1, 4, 5, 3], 0.01, 5, act=RELU))
    xy = _binary(mb, "MUL", y, x, [1, 4, 5, 3], 0.02, -3)
    mb.output(_binary(mb, "MUL", xy, z, [1, 4, 5, 3], 0.05, 0, act=RELU6))
    c = mb.const("c", random_int8(rng, [1, 1, 1, 3]), scale=0.01, zero_point=3)
    mb.output(_binary(mb, "MUL", z, c, [1, 4, 5, 3], 0.3, -20, act=RELU_N1_TO_1))
    s = mb.const("s", np.array([[[[-90]]]], np.int8), scale=0.02, zero_point=0)
    mb.output(_binary(mb, "MUL", s, x, [1, 4, 1, 3], 0.002, 7))
    mb.output(_binary(mb, "MUL", z, z, [1, 4, 5, 3], 0.1, -128))  # 0.5*0.5/0.1 > 1
    return mb.build()


@test_model("concat_axes")
def concat_axes():
    """CONCATENATION on the channel axis (as -1), a middle axis, axis 0 and of
    3-D tensors, with 2 and 3 inputs, one of them constant."""
    rng = np.random.default_rng(42)
    mb = ModelBuilder()
    q = dict(scale=0.05, zero_point=-4)
    a = mb.input("a", "int8", [1, 3, 2, 4], **q)
    b = mb.input("b", "int8", [1, 3, 2, 2], **q)
    c = mb.input("c", "int8", [1, 3, 5, 4], **q)
    k = mb.const("k", random_int8(rng, [1, 3, 2, 1]), **q)
    y1 = mb.tensor("cat_last", "int8", [1, 3, 2, 7], **q)
    mb.op("CONCATENATION", [a, b, k], [y1], "ConcatenationOptions", axis=-1)
    y2 = mb.tensor("cat_w", "int8", [1, 3, 7, 4], **q)
    mb.op("CONCATENATION", [c, a], [y2], "ConcatenationOptions", axis=2)
    y3 = mb.tensor("cat_batch", "int8", [3, 3, 2, 4], **q)
    mb.op("CONCATENATION", [a, a, a], [y3], "ConcatenationOptions", axis=0)
    q3 = dict(scale=0.1, zero_point=9)
    d = mb.input("d", "int8", [2, 3, 5], **q3)
    e = mb.input("e", "int8", [2, 1, 5], **q3)
    y4 = mb.tensor("cat_3d", "int8", [2, 4, 5], **q3)
    mb.op("CONCATENATION", [e, d], [y4], "ConcatenationOptions", axis=-2)
    for t in (y1, y2, y3, y4):
        mb.output(t)
    return mb.build()


@test_model("pad_variants")
def pad_variants():
    """PAD: spatial (image style) padding with a nonzero zero point, batch and
    channel padding, a 2-D tensor; PADV2 with its own pad value."""
    mb = ModelBuilder()
    q = dict(scale=0.07, zero_point=-7)
    x = mb.input("x", "int8", [1, 3, 3, 2], **q)

    def pad(src, in_shape, paddings, out_q, value=None):
        paddings = np.array(paddings, np.int32)
        out_shape = [d + lo + hi for d, (lo, hi) in zip(in_shape, paddings)]
        y = mb.tensor(f"pad{len(mb.tensors)}", "int8", out_shape, **out_q)
        p = mb.const(f"paddings{len(mb.tensors)}", paddings)
        if value is None:
            mb.op("PAD", [src, p], [y], "PadOptions")
        else:
            v = mb.const(f"value{len(mb.tensors)}", np.array([value], np.int8), **out_q)
            mb.op("PADV2", [src, p, v], [y], "PadV2Options")
        return mb.output(y)

    pad(x, [1, 3, 3, 2], [[0, 0], [1, 2], [2, 1], [0, 0]], q)
    pad(x, [1, 3, 3, 2], [[1, 0], [0, 0], [0, 1], [3, 1]], q)
    pad(x, [1, 3, 3, 2], [[0, 0], [1, 1], [1, 1], [0, 0]], q, value=100)
    m = mb.input("m", "int8", [4, 5], scale=0.2, zero_point=30)
    pad(m, [4, 5], [[2, 0], [1, 3]], dict(scale=0.2, zero_point=30))
    return mb.build()


@test_model("mean_axes")
def mean_axes():
    """MEAN over the spatial axes with keep_dims true and false (the usual global
    average pool), over the channels, over batch and channels of a 3-D tensor
    with a repeated (negative) axis, and over everything; scales differ."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 5, 6, 4], scale=0.05, zero_point=3)

    def mean(src, axes, out_shape, keep, scale, zp):
        y = mb.tensor(f"mean{len(mb.tensors)}", "int8", out_shape, scale=scale, zero_point=zp)
        ax = mb.const(f"axes{len(mb.tensors)}", np.array(axes, np.int32))
        mb.op("MEAN", [src, ax], [y], "ReducerOptions", keep_dims=keep)
        return mb.output(y)

    mean(x, [1, 2], [1, 1, 1, 4], True, 0.02, -5)
    mean(x, [2, 1], [1, 4], False, 0.05, 3)
    mean(x, [-1], [1, 5, 6], False, 0.09, -20)
    t = mb.input("t", "int8", [3, 4, 5], scale=0.1, zero_point=-50)
    mean(t, [0, 2, -1], [1, 4, 1], True, 0.3, 10)
    mean(t, [0, 1, 2], [], False, 0.01, 0)
    return mb.build()


@test_model("max_min_dtypes")
def max_min_dtypes():
    """MAXIMUM and MINIMUM of int8 (equal shapes, a broadcast channel vector, a
    constant), int16 (a broadcast column), int32 (a scalar) and float32 (a
    broadcast row), each input order."""
    rng = np.random.default_rng(44)
    mb = ModelBuilder()

    def minmax(op, a, b, dtype, shape, **q):
        y = mb.tensor(f"{op.lower()}{len(mb.tensors)}", dtype, shape, **q)
        mb.op(op, [a, b], [y], "MaximumMinimumOptions")
        return mb.output(y)

    q8 = dict(scale=0.05, zero_point=-3)
    x = mb.input("x", "int8", [1, 4, 4, 3], **q8)
    z = mb.input("z", "int8", [1, 4, 4, 3], **q8)
    v = mb.input("v", "int8", [3], **q8)
    minmax("MAXIMUM", x, z, "int8", [1, 4, 4, 3], **q8)
    minmax("MINIMUM", v, x, "int8", [1, 4, 4, 3], **q8)
    c = mb.const("c", random_int8(rng, [1, 1, 4, 3]), **q8)
    minmax("MINIMUM", z, c, "int8", [1, 4, 4, 3], **q8)
    q16 = dict(scale=0.001, zero_point=0)
    h = mb.input("h", "int16", [2, 5], **q16)
    col = mb.input("col", "int16", [2, 1], **q16)
    minmax("MAXIMUM", col, h, "int16", [2, 5], **q16)
    i = mb.input("i", "int32", [6])
    s = mb.const("s", np.array(12345, np.int32))
    minmax("MINIMUM", i, s, "int32", [6])
    minmax("MAXIMUM", s, i, "int32", [6])
    f = mb.input("f", "float32", [3, 4])
    row = mb.input("row", "float32", [1, 4])
    minmax("MAXIMUM", f, row, "float32", [3, 4])
    minmax("MINIMUM", row, f, "float32", [3, 4])
    return mb.build()


@test_model("arg_min_max")
def arg_min_max():
    """ARG_MAX and ARG_MIN of int8 (ties are frequent: the first index wins) on
    the last, a middle and the first axis, as a negative axis too; float32.
    (Named like its kernel header: the model header's include guard must differ.)"""
    mb = ModelBuilder()

    def arg(op, x, axis, shape):
        y = mb.tensor(f"{op.lower()}{len(mb.tensors)}", "int32", shape)
        options = "ArgMaxOptions" if op == "ARG_MAX" else "ArgMinOptions"
        mb.op(op, [x, mb.const(f"axis{len(mb.tensors)}", np.array([axis], np.int32))], [y], options,
              output_type=2)  # INT32
        return mb.output(y)

    x = mb.input("x", "int8", [2, 5, 6], scale=0.05, zero_point=-3)
    arg("ARG_MAX", x, -1, [2, 5])
    arg("ARG_MAX", x, 1, [2, 6])
    arg("ARG_MIN", x, 0, [5, 6])
    arg("ARG_MIN", x, 2, [2, 5])
    f = mb.input("f", "float32", [3, 7])
    arg("ARG_MAX", f, 1, [3])
    arg("ARG_MIN", f, -2, [7])
    return mb.build()


@test_model("batch_matmul")
def batch_matmul():
    """BATCH_MATMUL of 2-D to 4-D operands: plain, adj_x, adj_y and both, batch
    dimensions broadcast either way, a constant right-hand side, zero points
    on every operand."""
    rng = np.random.default_rng(47)
    mb = ModelBuilder()

    def matmul(a, b, shape, scale, zp, **adj):
        y = mb.tensor(f"mm{len(mb.tensors)}", "int8", shape, scale=scale, zero_point=zp)
        mb.op("BATCH_MATMUL", [a, b], [y], "BatchMatMulOptions", **adj)
        return mb.output(y)

    a = mb.input("a", "int8", [2, 3, 4], scale=0.05, zero_point=-3)
    b = mb.input("b", "int8", [2, 4, 5], scale=0.04, zero_point=6)
    matmul(a, b, [2, 3, 5], 0.3, -10)
    at = mb.input("at", "int8", [2, 4, 3], scale=0.02, zero_point=0)
    bt = mb.input("bt", "int8", [1, 5, 4], scale=0.07, zero_point=-1)
    matmul(at, bt, [2, 3, 5], 0.2, 4, adj_x=True, adj_y=True)
    matmul(a, bt, [2, 3, 5], 0.25, 0, adj_y=True)
    w = mb.const("w", random_int8(rng, [4, 6]), scale=0.01, zero_point=2)
    matmul(at, w, [2, 3, 6], 0.1, -128, adj_x=True)
    c = mb.input("c", "int8", [3, 1, 2, 4], scale=0.06, zero_point=9)
    matmul(c, b, [3, 2, 2, 5], 0.4, 1)
    return mb.build()


@test_model("arith_float32")
def arith_float32():
    """float32 ADD, SUB and MUL: equal shapes, a broadcast channel vector both
    ways round, a constant, both inputs broadcast, every fused activation."""
    rng = np.random.default_rng(49)
    mb = ModelBuilder()

    def arith(op, a, b, shape, act=NONE):
        y = mb.tensor(f"{op.lower()}{len(mb.tensors)}", "float32", shape)
        options = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[op]
        mb.op(op, [a, b], [y], options, fused_activation_function=act)
        return mb.output(y)

    x = mb.input("x", "float32", [1, 4, 4, 3])
    z = mb.input("z", "float32", [1, 4, 4, 3])
    v = mb.input("v", "float32", [3])
    arith("ADD", x, z, [1, 4, 4, 3])
    arith("ADD", v, x, [1, 4, 4, 3], act=RELU)
    arith("SUB", x, v, [1, 4, 4, 3], act=RELU6)
    arith("SUB", z, x, [1, 4, 4, 3], act=RELU_N1_TO_1)
    c = mb.const("c", rng.standard_normal([1, 1, 4, 3]).astype(np.float32))
    arith("MUL", x, c, [1, 4, 4, 3])
    arith("MUL", z, z, [1, 4, 4, 3], act=RELU6)
    col = mb.input("col", "float32", [2, 1, 3, 1])
    row = mb.input("row", "float32", [4, 1, 5])
    arith("MUL", col, row, [2, 4, 3, 5], act=RELU)
    arith("SUB", col, row, [2, 4, 3, 5])
    return mb.build()


@test_model("sum_max_min")
def sum_max_min():
    """SUM (int8, int16 and float32: rescaled without MEAN's 1/count), REDUCE_MAX and REDUCE_MIN
    (int8 quantized as the input, float32 with infinities from a division by zero, where TFLM
    starts from -FLT_MAX / FLT_MAX) over spatial axes, the channels and everything."""
    mb = ModelBuilder()
    q8 = dict(scale=0.05, zero_point=3)
    x = mb.input("x", "int8", [1, 5, 6, 4], **q8)
    h = mb.input("h", "int16", [2, 3, 4], scale=0.001, zero_point=0)
    f = mb.input("f", "float32", [3, 4, 5])

    def reduce(op, src, axes, out_shape, keep, dtype, **q):
        y = mb.tensor(f"{op.lower()}{len(mb.tensors)}", dtype, out_shape, **q)
        mb.op(op, [src, mb.const(f"axes{len(mb.tensors)}", np.array(axes, np.int32))], [y], "ReducerOptions",
              keep_dims=keep)
        return mb.output(y)

    reduce("SUM", x, [1, 2], [1, 1, 1, 4], True, "int8", scale=0.5, zero_point=-7)
    reduce("SUM", x, [-1], [1, 5, 6], False, "int8", scale=0.1, zero_point=0)
    reduce("SUM", h, [0, 2], [3], False, "int16", scale=0.004, zero_point=0)
    reduce("SUM", f, [0, 2], [1, 4, 1], True, "float32")
    reduce("REDUCE_MAX", x, [1, 2], [1, 4], False, "int8", **q8)
    reduce("REDUCE_MIN", x, [3], [1, 5, 6, 1], True, "int8", **q8)
    floors, infinities = mb.tensor("floors", "float32", [3, 4, 5]), mb.tensor("infinities", "float32", [3, 4, 5])
    mb.op("FLOOR", [f], [floors])
    mb.op("DIV", [f, floors], [infinities], "DivOptions")  # x / floor(x): +-inf for x in (0, 1)
    reduce("REDUCE_MAX", f, [1], [3, 5], False, "float32")
    reduce("REDUCE_MIN", f, [0, 1, 2], [], False, "float32")
    reduce("REDUCE_MAX", infinities, [2], [3, 4], False, "float32")
    return mb.build()


@test_model("cumsum")
def cumsum():
    """CUMSUM of int8 (a long axis, whose 32-bit sums pass 2^31 and wrap as TFLM's: every value
    lies above the zero point -128, and a short one) and of
    float32: inclusive and exclusive, forward and reversed, first, middle and last axis."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 40, 3], scale=0.05, zero_point=-128)
    f = mb.input("f", "float32", [3, 4, 5])
    cases = ((x, 1, False, False, dict(scale=0.5, zero_point=10)), (x, -1, True, True, dict(scale=0.1, zero_point=0)),
             (x, 0, False, True, dict(scale=0.08, zero_point=-3)), (f, 0, True, False, {}), (f, 2, False, True, {}),
             (f, 1, True, True, {}))
    for k, (src, axis, exclusive, reverse, q) in enumerate(cases):
        dtype = "int8" if q else "float32"
        y = mb.output(mb.tensor(f"cumsum{k}", dtype, mb.tensors[src]["shape"], **q))
        mb.op("CUMSUM", [src, mb.const(f"axis{k}", np.array([axis], np.int32))], [y], "CumsumOptions",
              exclusive=exclusive, reverse=reverse)
    return mb.build()


@test_model("add_n")
def add_n():
    """ADD_N of three int8 inputs (one used twice; 32-bit sums from the input offset, as TFLM),
    of two int8 ones, and of two float32 ones."""
    mb = ModelBuilder()
    q = dict(scale=0.05, zero_point=-20)
    a, b = (mb.input(name, "int8", [2, 5, 4], **q) for name in ("a", "b"))
    mb.op("ADD_N", [a, b, a], [mb.output(mb.tensor("sum3", "int8", [2, 5, 4], scale=0.12, zero_point=5))])
    mb.op("ADD_N", [b, a], [mb.output(mb.tensor("sum2", "int8", [2, 5, 4], scale=0.04, zero_point=-1))])
    f, g = (mb.input(name, "float32", [3, 7]) for name in ("f", "g"))
    mb.op("ADD_N", [f, g], [mb.output(mb.tensor("sum_f", "float32", [3, 7]))])
    return mb.build()
