"""Test models of the bool operators and what feeds them: the comparisons (float32, int8
rescaled, int32, bool), LOGICAL_AND/OR/NOT, SELECT_V2, REDUCE_ALL and CAST; and the
operators that move values by index: GATHER_ND, EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE; bool
through SLICE, STRIDED_SLICE, CONCATENATION and REVERSE_V2; and
the integer forms of RSQRT (int8), ABS (int16), ADD, SUB, MUL, SQUARED_DIFFERENCE (int32); int32 DIV, PAD, PADV2, uint8 REVERSE_V2.
Each case is a model output, compared with TFLM (host); logic_sample puts every new kernel
on the M3 in one small model. tests/host/test_logic_edges.py feeds NaN, infinities and the
integer extremes through compare_logic."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import M3_ONLY, test_model
from tinyaot.testing.models_movement import _ints

COMPARISONS = ("EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL")
QA = dict(scale=0.05, zero_point=-3)
QB = dict(scale=0.09, zero_point=5)
Q16 = dict(scale=0.001, zero_point=0)
CAST_FROM = ("int8", "int16", "int32", "float32", "bool")
CAST_TO = ("int8", "int16", "int32", "float32")


def _out(mb, dtype, shape, **quant):
    return mb.output(mb.tensor(f"y{len(mb.tensors)}", dtype, shape, **quant))


def _compare_all(mb, a, b, shape, op_types=COMPARISONS):
    """One bool output per comparison of a and b; the outputs, by operator."""
    outs = {}
    for op_type in op_types:
        outs[op_type] = _out(mb, "bool", shape)
        mb.op(op_type, [a, b], [outs[op_type]])
    return outs


@test_model("compare_logic", targets=False)
def compare_logic():
    """The six comparisons of float32 ([2,3,4] against [3,1]) and of int8 with two scales
    and zero points ([2,3,4] against [4]); int32 and bool
    EQUAL and NOT_EQUAL; LOGICAL_AND and LOGICAL_OR (a broadcast bool input), LOGICAL_NOT;
    REDUCE_ALL over one and over two axes; SELECT_V2 with condition, x and y of three
    shapes, in float32, int8 and int16."""
    mb = ModelBuilder()
    f = mb.input("f", "float32", [2, 3, 4])
    g = mb.input("g", "float32", [3, 1])
    a8 = mb.input("a8", "int8", [2, 3, 4], **QA)
    b8 = mb.input("b8", "int8", [4], **QB)
    c8 = mb.input("c8", "int8", [2, 3, 4], **QB)
    i = mb.input("i", "int32", [3, 4])
    m = mb.input("m", "bool", [4])
    x16 = mb.input("x16", "int16", [3, 4], **Q16)
    by_f = _compare_all(mb, f, g, [2, 3, 4])
    by_8 = _compare_all(mb, a8, b8, [2, 3, 4])
    _compare_all(mb, c8, b8, [2, 3, 4], ("EQUAL", "LESS_EQUAL"))
    # int32 values that meet: i against its own first row, broadcast
    row = mb.tensor("row", "int32", [1, 4])
    mb.op("SLICE", [i, mb.const("begin", np.array([0, 0], np.int32)), mb.const("size", np.array([1, 4], np.int32))],
          [row], "SliceOptions")
    _compare_all(mb, i, row, [3, 4])
    _compare_all(mb, by_f["GREATER"], by_8["LESS"], [2, 3, 4], ("EQUAL", "NOT_EQUAL"))
    both = _out(mb, "bool", [2, 3, 4])
    mb.op("LOGICAL_AND", [by_f["GREATER"], by_8["GREATER_EQUAL"]], [both])
    either = _out(mb, "bool", [2, 3, 4])
    mb.op("LOGICAL_OR", [by_f["LESS"], m], [either])
    mb.op("LOGICAL_NOT", [either], [_out(mb, "bool", [2, 3, 4])])
    mb.op("REDUCE_ALL", [either, mb.const("axis2", np.array([2], np.int32))], [_out(mb, "bool", [2, 3])],
          "ReducerOptions")
    mb.op("REDUCE_ALL", [either, mb.const("axes01", np.array([0, -1], np.int32))], [_out(mb, "bool", [1, 3, 1])],
          "ReducerOptions", keep_dims=True)
    mb.op("SELECT_V2", [by_f["LESS_EQUAL"], f, g], [_out(mb, "float32", [2, 3, 4])])
    mb.op("SELECT_V2", [m, a8, mb.const("fill8", np.array([[-128], [7], [127]], np.int8), **QA)],
          [_out(mb, "int8", [2, 3, 4], **QA)])
    mb.op("SELECT_V2", [by_8["GREATER"], mb.const("zero16", np.array(0, np.int16), **Q16), x16],
          [_out(mb, "int16", [2, 3, 4], **Q16)])
    return mb.build()


@test_model("bool_moves", targets=False)
def bool_moves():
    """bool tensors through the operators that move them in TFLM: SLICE, STRIDED_SLICE,
    CONCATENATION (of a computed bool and an input) and REVERSE_V2."""
    mb = ModelBuilder()
    m = mb.input("m", "bool", [2, 3, 4])
    f = mb.input("f", "float32", [2, 3, 1])
    positive = mb.tensor("positive", "bool", [2, 3, 1])
    mb.op("GREATER", [f, mb.const("zero", np.array(0.0, np.float32))], [positive])
    mb.op("SLICE", [m, _ints(mb, [1, 0, 1]), _ints(mb, [1, 2, 3])], [_out(mb, "bool", [1, 2, 3])],
          "SliceOptions")
    mb.op("STRIDED_SLICE", [m, _ints(mb, [0, 2, 3]), _ints(mb, [2, 0, 0]), _ints(mb, [1, -1, -2])],
          [_out(mb, "bool", [2, 2, 2])], "StridedSliceOptions")
    mb.op("CONCATENATION", [m, positive], [_out(mb, "bool", [2, 3, 5])], "ConcatenationOptions", axis=2)
    mb.op("REVERSE_V2", [m, _ints(mb, [1])], [_out(mb, "bool", [2, 3, 4])])
    return mb.build()


@test_model("cast_pairs", targets=False)
def cast_pairs():
    """CAST from each of int8, int16, int32, float32 and bool to each of int8, int16, int32 and
    float32 (TFLM's pairs), over the full integer ranges (narrowing wraps) and float32 in
    [-4, 4] (truncated toward zero)."""
    mb = ModelBuilder()
    inputs = {dtype: mb.input(f"x_{dtype}", dtype, [2, 5]) for dtype in CAST_FROM}
    for src in CAST_FROM:
        for dst in CAST_TO:
            mb.op("CAST", [inputs[src]], [_out(mb, dst, [2, 5])])
    return mb.build()


@test_model("index_moves", targets=False)
def index_moves():
    """GATHER_ND of single values and of slices (int8, float32; an index past its own
    dimension that TFLM's flat bounds check lets through); EMBEDDING_LOOKUP in float32, int8
    and the hybrid int8 -> float32 form; DYNAMIC_UPDATE_SLICE with start indices from a
    model input (int32: clamped, as random values mostly are) and constant ones (int32 in
    range, int64), in float32, int8, int16 and int32."""
    rng = np.random.default_rng(61)
    mb = ModelBuilder()
    p8 = mb.input("p8", "int8", [3, 4, 2], **QA)
    pf = mb.input("pf", "float32", [4, 5])
    mb.op("GATHER_ND", [p8, mb.const("nd_all", np.array([[2, 3, 1], [0, 0, 0], [1, 2, 0]], np.int32))],
          [_out(mb, "int8", [3], **QA)])
    mb.op("GATHER_ND", [p8, mb.const("nd_rows", np.array([[[1, 3], [0, 5]], [[2, 0], [2, 2]]], np.int32))],
          [_out(mb, "int8", [2, 2, 2], **QA)])
    mb.op("GATHER_ND", [pf, mb.const("nd_slices", np.array([[3], [0], [3]], np.int32))],
          [_out(mb, "float32", [3, 5])])
    ids = mb.const("ids", np.array([2, 0, 2, 5], np.int32))
    mb.op("EMBEDDING_LOOKUP", [ids, mb.const("table_f", rng.uniform(-3, 3, (6, 3)).astype(np.float32))],
          [_out(mb, "float32", [4, 3])])
    mb.op("EMBEDDING_LOOKUP", [ids, mb.const("table_8", rng.integers(-128, 128, (6, 2, 2)).astype(np.int8), **QA)],
          [_out(mb, "int8", [4, 2, 2], **QA)])
    mb.op("EMBEDDING_LOOKUP", [ids, mb.const("table_h", rng.integers(-128, 128, (6, 3)).astype(np.int8),
                                             scale=0.037, zero_point=0)], [_out(mb, "float32", [4, 3])])
    starts = mb.input("starts", "int32", [2])
    for dtype, quant in (("float32", {}), ("int8", QA), ("int16", Q16), ("int32", {})):
        operand = mb.input(f"operand_{dtype}", dtype, [4, 5], **quant)
        update = mb.input(f"update_{dtype}", dtype, [2, 3], **quant)
        mb.op("DYNAMIC_UPDATE_SLICE", [operand, update, starts], [_out(mb, dtype, [4, 5], **quant)])
        mb.op("DYNAMIC_UPDATE_SLICE", [operand, update, mb.const(f"at_{dtype}", np.array([1, 2], np.int32))],
              [_out(mb, dtype, [4, 5], **quant)])
    mb.op("DYNAMIC_UPDATE_SLICE", [operand, update, mb.const("at64", np.array([2, -4], np.int64))],
          [_out(mb, "int32", [4, 5])])
    return mb.build()


@test_model("logic_sample", targets=M3_ONLY)
def logic_sample():
    """Every kernel added here, small, for the board: int8 GREATER and float32 LESS into
    LOGICAL_OR, LOGICAL_NOT, REDUCE_ALL, SELECT_V2, CAST from bool and from float32, GATHER_ND,
    EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE, int8 L2_NORMALIZATION and LOG_SOFTMAX, int16 ABS
    and int32 MUL."""
    mb = ModelBuilder()
    a8 = mb.input("a8", "int8", [2, 4], **QA)
    b8 = mb.input("b8", "int8", [4], **QB)
    f = mb.input("f", "float32", [2, 4])
    gt = mb.tensor("gt", "bool", [2, 4])
    mb.op("GREATER", [a8, b8], [gt])
    lt = mb.tensor("lt", "bool", [2, 4])
    mb.op("LESS", [f, mb.const("half", np.array(0.5, np.float32))], [lt])
    either = _out(mb, "bool", [2, 4])
    mb.op("LOGICAL_OR", [gt, lt], [either])
    mb.op("LOGICAL_NOT", [gt], [_out(mb, "bool", [2, 4])])
    mb.op("REDUCE_ALL", [either, mb.const("axis", np.array([1], np.int32))], [_out(mb, "bool", [2])],
          "ReducerOptions")
    mb.op("SELECT_V2", [gt, a8, mb.const("low", np.array(-100, np.int8), **QA)], [_out(mb, "int8", [2, 4], **QA)])
    mb.op("CAST", [either], [_out(mb, "int32", [2, 4])])
    mb.op("CAST", [f], [_out(mb, "int16", [2, 4])])
    mb.op("GATHER_ND", [a8, mb.const("nd", np.array([[1, 2], [0, 3]], np.int32))], [_out(mb, "int8", [2], **QA)])
    mb.op("EMBEDDING_LOOKUP", [mb.const("ids", np.array([1, 0, 1], np.int32)), f], [_out(mb, "float32", [3, 4])])
    mb.op("DYNAMIC_UPDATE_SLICE", [f, mb.const("patch", np.full((1, 2), 9.0, np.float32)),
                                   mb.const("at", np.array([1, 1], np.int32))], [_out(mb, "float32", [2, 4])])
    mb.op("L2_NORMALIZATION", [a8], [_out(mb, "int8", [2, 4], scale=1 / 128, zero_point=0)], "L2NormOptions")
    mb.op("LOG_SOFTMAX", [a8], [_out(mb, "int8", [2, 4], scale=16.0 / 256, zero_point=127)])
    x16 = mb.input("x16", "int16", [2, 4], **Q16)
    mb.op("ABS", [x16], [_out(mb, "int16", [2, 4], scale=0.0007, zero_point=0)])
    i32 = mb.input("i32", "int32", [2, 4])
    mb.op("MUL", [i32, mb.const("three", np.array([3], np.int32))], [_out(mb, "int32", [2, 4])], "MulOptions")
    return mb.build()


@test_model("rsqrt_abs_integer", targets=False)
def rsqrt_abs_integer():
    """int8 RSQRT of an input at zero point -128 (every value TFLM takes: none below the
    zero point) and of an int8 ABS's output; int16 ABS quantized (zero points 0) with and
    without rescaling, and not quantized (-32768 stays -32768, as TFLM's cast)."""
    mb = ModelBuilder()
    low = mb.input("low", "int8", [2, 8], scale=0.07, zero_point=-128)
    mb.op("RSQRT", [low], [_out(mb, "int8", [2, 8], scale=0.02, zero_point=-128)])
    x8 = mb.input("x8", "int8", [2, 8], **QA)
    magnitude = _out(mb, "int8", [2, 8], scale=0.03, zero_point=-100)
    mb.op("ABS", [x8], [magnitude])
    mb.op("RSQRT", [magnitude], [_out(mb, "int8", [2, 8], scale=0.1, zero_point=-20)])
    x16 = mb.input("x16", "int16", [2, 8], **Q16)
    mb.op("ABS", [x16], [_out(mb, "int16", [2, 8], **Q16)])
    mb.op("ABS", [x16], [_out(mb, "int16", [2, 8], scale=0.0007, zero_point=0)])
    raw16 = mb.input("raw16", "int16", [2, 8])
    mb.op("ABS", [raw16], [_out(mb, "int16", [2, 8])])
    return mb.build()


@test_model("l2norm_int8", targets=False)
def l2norm_int8():
    """int8 L2_NORMALIZATION over the last axis: rows of 10 at zero point -3 (a row of zeros
    is a row at the zero point: multiplier INT32_MAX, output 0), a single value per row, and
    a 4-D input at zero point 0 (sums past 2^16, the inverse square root's range shifts)."""
    mb = ModelBuilder()
    for shape, zero_point in (([3, 10], -3), ([4, 1], 5), ([1, 2, 3, 40], 0)):
        x = mb.input(f"x{len(mb.tensors)}", "int8", shape, scale=0.05, zero_point=zero_point)
        mb.op("L2_NORMALIZATION", [x], [_out(mb, "int8", shape, scale=1 / 128, zero_point=0)], "L2NormOptions")
    return mb.build()


@test_model("log_softmax_int8", targets=False)
def log_softmax_int8():
    """int8 LOG_SOFTMAX at TFLM's output quantization (16/256, zero point 127): rows of 10 with
    a small input scale (every difference counts), rows of 3 with a large one (differences
    past diff_min give -128), and a 3-D input."""
    mb = ModelBuilder()
    out_q = dict(scale=16.0 / 256, zero_point=127)
    for shape, scale in (([3, 10], 0.02), ([4, 3], 0.5), ([2, 2, 6], 0.1)):
        x = mb.input(f"x{len(mb.tensors)}", "int8", shape, scale=scale, zero_point=-5)
        mb.op("LOG_SOFTMAX", [x], [_out(mb, "int8", shape, **out_q)])
    return mb.build()


@test_model("arith_int32", targets=False)
def arith_int32():
    """int32 ADD (its fused RELU ignored, as TFLM), SUB with RELU6, MUL with RELU and
    SQUARED_DIFFERENCE, [2,3,4] against [3,1] over the full int32 range (sums and products
    wrap, as TFLM's do), and MUL with RELU_N1_TO_1 of two inputs of one shape."""
    mb = ModelBuilder()
    a = mb.input("a", "int32", [2, 3, 4])
    b = mb.input("b", "int32", [3, 1])
    for op_type, options, act in (("ADD", "AddOptions", 1), ("SUB", "SubOptions", 3), ("MUL", "MulOptions", 1)):
        mb.op(op_type, [a, b], [_out(mb, "int32", [2, 3, 4])], options, fused_activation_function=act)
    mb.op("SQUARED_DIFFERENCE", [a, b], [_out(mb, "int32", [2, 3, 4])], "SquaredDifferenceOptions")
    mb.op("MUL", [a, a], [_out(mb, "int32", [2, 3, 4])], "MulOptions", fused_activation_function=2)
    return mb.build()


@test_model("int32_uint8_forms", targets=False)
def int32_uint8_forms():
    """Dtypes TFLM has that came later here: int32 DIV [2,3,4] by [3,1] (both computed, full
    int32 range: truncated toward zero, as C++), with RELU, and by a constant [4] holding
    negatives and -1 (broadcast over the last axis); int32 PAD with 0 and PADV2 with -5;
    uint8 REVERSE_V2."""
    mb = ModelBuilder()
    a = mb.input("a", "int32", [2, 3, 4])
    b = mb.input("b", "int32", [3, 1])
    mb.op("DIV", [a, b], [_out(mb, "int32", [2, 3, 4])], "DivOptions")
    mb.op("DIV", [a, b], [_out(mb, "int32", [2, 3, 4])], "DivOptions", fused_activation_function=1)
    divisor = mb.const("divisor", np.array([7, -3, -1, 2], np.int32))
    mb.op("DIV", [a, divisor], [_out(mb, "int32", [2, 3, 4])], "DivOptions")
    pads = mb.const("pads", np.array([[0, 1], [1, 0], [2, 1]], np.int32))
    mb.op("PAD", [a, pads], [_out(mb, "int32", [3, 4, 7])], "PadOptions")
    mb.op("PADV2", [a, pads, mb.const("pad_value", np.array([-5], np.int32))], [_out(mb, "int32", [3, 4, 7])],
          "PadV2Options")
    u = mb.input("u", "uint8", [3, 5])
    mb.op("REVERSE_V2", [u, mb.const("last_axis", np.array([1], np.int32))], [_out(mb, "uint8", [3, 5])])
    return mb.build()
