"""float32 test models of the operators whose float32 kernels came after the first
float32 set (models_float.py): SVDF, SQUARED_DIFFERENCE, PRELU, HARD_SWISH,
RESIZE_BILINEAR, TRANSPOSE_CONV, BATCH_MATMUL, DIV, EXP, RSQRT. TFLM's float reference kernels are the
oracle: results must be identical. Most are float32 forms of the int8 models
(tinyaot.testing.variants), so they cover the same parameter space; they run on
the host only, and float32_ops_sample puts every one of these kernels on the
QEMU boards in one small model (soft-float there)."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import (models_activation, models_elementwise, models_movement, models_svdf,  # noqa: F401
                             models_transpose_conv)
from tinyaot.testing.catalog import CATALOG, test_model
from tinyaot.testing.models_conv import SAME, VALID
from tinyaot.testing.variants import variant_of

NONE, RELU, RELU_N1_TO_1, RELU6, TANH, SIGN_BIT = 0, 1, 2, 3, 4, 5


def svdf_activations():
    """SVDF layers on one input with RELU_N1_TO_1, RELU6, TANH and SIGN_BIT (which
    TFLM's float SVDF applies, unlike its integer one), and a memory of 1. Built in
    int8 and registered in float32 form only. (No bias: tests/host/test_errors_svdf.py,
    since TFLM crashes on it.)"""
    rng = np.random.default_rng(45)
    mb = ModelBuilder()
    in_scale = np.float32(0.05)
    x = mb.input("x", "int8", [2, 10], scale=in_scale, zero_point=0)
    for act, rank, memory in ((RELU_N1_TO_1, 1, 3), (RELU6, 3, 2), (NONE, 2, 1), (TANH, 1, 2), (SIGN_BIT, 2, 3)):
        y, _ = models_svdf.svdf(mb, rng, x, in_scale, 2, 10, 4, rank, memory, out_zp=0, act=act)
        mb.output(y)
    return mb.build()


# The SVDF models are stateful: the host test calls them again and again without a reset.
SVDF_FORMS = ["svdf_rank1_relu", "svdf_rank2_batch2", "svdf_rank2_batch2_relu", "svdf_rank1_batch2_saturating",
              "svdf_keyword_like_stack"]
for _name in SVDF_FORMS:
    test_model(f"{_name}_float32", targets=False, form=True)(variant_of(CATALOG[_name][0], "float32"))
test_model("svdf_activations_float32", targets=False, form=True)(
    variant_of(svdf_activations, "float32"))


@test_model("binary_ranks_float32", targets=False)
def binary_ranks_float32():
    """float32 SQUARED_DIFFERENCE broadcast over 5 dimensions ([2,1,3,1,2] against
    [3,4,2]) and against a scalar constant; PRELU of a 2-D input with a row of alphas
    and of a 3-D input with a run-time alpha of its own shape."""
    rng = np.random.default_rng(47)
    mb = ModelBuilder()
    a = mb.input("a", "float32", [2, 1, 3, 1, 2])
    b = mb.input("b", "float32", [3, 4, 2])
    y = mb.output(mb.tensor("sd5", "float32", [2, 1, 3, 4, 2]))
    mb.op("SQUARED_DIFFERENCE", [a, b], [y], "SquaredDifferenceOptions")
    y = mb.output(mb.tensor("sd_scalar", "float32", [3, 4, 2]))
    mb.op("SQUARED_DIFFERENCE", [mb.const("s", np.array(1.5, np.float32)), b], [y], "SquaredDifferenceOptions")
    x = mb.input("x", "float32", [6, 5])
    y = mb.output(mb.tensor("prelu_row", "float32", [6, 5]))
    mb.op("PRELU", [x, mb.const("alpha", rng.uniform(-2, 2, 5).astype(np.float32))], [y])
    x3 = mb.input("x3", "float32", [2, 3, 4])
    alpha3 = mb.input("alpha3", "float32", [2, 3, 4])
    y = mb.output(mb.tensor("prelu_full", "float32", [2, 3, 4]))
    mb.op("PRELU", [x3, alpha3], [y])
    return mb.build()


# float32 forms of the int8 elementwise and activation models.
for _name in ("squared_difference", "prelu_int8", "hard_swish_int8"):
    test_model(f"{_name}_float32", targets=False, form=True)(
        variant_of(CATALOG[_name][0], "float32"))


@test_model("resize_bilinear_edges_float32", targets=False)
def resize_bilinear_edges_float32():
    """float32 RESIZE_BILINEAR beyond the int8 model's cases: a 1x1 input, and
    7x3 -> 3x7 resizes (plain, align_corners, half_pixel_centers) whose float32
    positions are inexact."""
    mb = ModelBuilder()
    for shape, size, options in (([1, 1, 1, 2], [3, 4], {}), ([2, 7, 3, 1], [3, 7], {"align_corners": True}),
                                 ([1, 7, 3, 2], [3, 7], {"half_pixel_centers": True}), ([1, 7, 3, 1], [3, 7], {})):
        n = len(mb.tensors)
        x = mb.input(f"x{n}", "float32", shape)
        y = mb.output(mb.tensor(f"y{n}", "float32", [shape[0], *size, shape[3]]))
        mb.op("RESIZE_BILINEAR", [x, mb.const(f"size{n}", np.array(size, np.int32))], [y], "ResizeBilinearOptions",
              **options)
    return mb.build()


test_model("resize_bilinear_float32", targets=False, form=True)(variant_of(CATALOG["resize_bilinear"][0], "float32"))


@test_model("transpose_conv_activations_float32", targets=False)
def transpose_conv_activations_float32():
    """float32 TRANSPOSE_CONV with RELU6 and RELU_N1_TO_1 (the int8 model has RELU),
    overlapping windows (4x4 filter, stride 2) and a batch of 2."""
    rng = np.random.default_rng(49)
    mb = ModelBuilder()
    x = mb.input("x", "float32", [2, 3, 4, 3])
    for act, padding in ((RELU6, SAME), (RELU_N1_TO_1, VALID)):
        out_shape = [2, 6, 8, 2] if padding == SAME else [2, 8, 10, 2]
        w = mb.const(f"w{len(mb.tensors)}", rng.standard_normal((2, 4, 4, 3)).astype(np.float32))
        b = mb.const(f"b{len(mb.tensors)}", rng.standard_normal(2).astype(np.float32))
        y = mb.output(mb.tensor(f"y{len(mb.tensors)}", "float32", out_shape))
        mb.op("TRANSPOSE_CONV", [mb.const(f"shape{len(mb.tensors)}", np.array(out_shape, np.int32)), w, x, b], [y],
              "TransposeConvOptions", padding=padding, stride_h=2, stride_w=2, fused_activation_function=act)
    return mb.build()


test_model("transpose_conv_float32", targets=False, form=True)(variant_of(CATALOG["transpose_conv"][0], "float32"))


@test_model("batch_matmul_ranks_float32", targets=False)
def batch_matmul_ranks_float32():
    """float32 BATCH_MATMUL of 5-D operands whose batch dimensions broadcast both
    ways, and a 2-D product with a long sum (depth 40: the order of the additions
    shows)."""
    rng = np.random.default_rng(51)
    mb = ModelBuilder()
    a = mb.input("a", "float32", [2, 1, 3, 2, 4])
    b = mb.input("b", "float32", [1, 2, 1, 5, 4])
    y = mb.output(mb.tensor("mm5", "float32", [2, 2, 3, 2, 5]))
    mb.op("BATCH_MATMUL", [a, b], [y], "BatchMatMulOptions", adj_y=True)
    x = mb.input("x", "float32", [3, 40])
    w = mb.const("w", (rng.standard_normal((40, 6)) * 100).astype(np.float32))
    y = mb.output(mb.tensor("mm2", "float32", [3, 6]))
    mb.op("BATCH_MATMUL", [x, w], [y], "BatchMatMulOptions")
    return mb.build()


test_model("batch_matmul_float32", targets=False, form=True)(variant_of(CATALOG["batch_matmul"][0], "float32"))


@test_model("float32_ops_sample")
def float32_ops_sample():
    """The QEMU boards' sample of these float32 kernels, one small model: TRANSPOSE_CONV
    (SAME, stride 2, RELU6), RESIZE_BILINEAR (half_pixel_centers), PRELU -> HARD_SWISH
    -> SQUARED_DIFFERENCE (broadcast), BATCH_MATMUL (constant rhs) and SVDF (rank 2,
    RELU)."""
    rng = np.random.default_rng(52)
    mb = ModelBuilder()

    def const(shape):
        return mb.const(f"c{len(mb.tensors)}", rng.standard_normal(shape).astype(np.float32))

    def out(shape):
        return mb.output(mb.tensor(f"y{len(mb.tensors)}", "float32", shape))

    x = mb.input("x", "float32", [1, 4, 4, 2])
    mb.op("TRANSPOSE_CONV", [mb.const("shape", np.array([1, 8, 8, 3], np.int32)), const([3, 3, 3, 2]), x,
                             const([3])], [out([1, 8, 8, 3])], "TransposeConvOptions", padding=SAME, stride_h=2,
          stride_w=2, fused_activation_function=RELU6)
    mb.op("RESIZE_BILINEAR", [x, mb.const("size", np.array([6, 7], np.int32))], [out([1, 6, 7, 2])],
          "ResizeBilinearOptions", half_pixel_centers=True)
    prelu, swish = (mb.tensor(name, "float32", [1, 4, 4, 2]) for name in ("prelu", "swish"))
    mb.op("PRELU", [x, const([2])], [prelu])
    mb.op("HARD_SWISH", [prelu], [swish])
    mb.op("SQUARED_DIFFERENCE", [swish, const([2])], [out([1, 4, 4, 2])], "SquaredDifferenceOptions")
    m = mb.input("m", "float32", [2, 3, 5])
    mb.op("BATCH_MATMUL", [m, const([5, 4])], [out([2, 3, 4])], "BatchMatMulOptions")
    s = mb.input("s", "float32", [1, 6])
    state = mb.tensor("state", "float32", [1, 24], variable=True)
    mb.op("SVDF", [s, const([8, 6]), const([8, 3]), const([4]), state], [out([1, 4])], "SVDFOptions", rank=2,
          fused_activation_function=RELU)
    return mb.build()


@test_model("div_exp_rsqrt_float32", targets=False)
def div_exp_rsqrt_float32():
    """float32 DIV (equal shapes, a broadcast divisor, a constant scalar divided by a
    tensor; RELU6 and RELU_N1_TO_1), EXP on inputs stretched to [-100, 100] (past
    overflow at 88.7 and underflow) and RSQRT of |x| + 0.001 and of x itself (negative
    values: NaN, as TFLM). EXP uses the C library's expf: identical to TFLM on the host;
    tests/target/test_float_on_target.py bounds it in ulps on the boards."""
    mb = ModelBuilder()
    x = mb.input("x", "float32", [2, 3, 8])
    d = mb.input("d", "float32", [3, 1])

    def op(name, inputs, shape, options_type=None, **options):
        y = mb.output(mb.tensor(name, "float32", shape))
        mb.op(name.split("_")[0].upper(), inputs, [y], options_type, **options)
        return y

    op("div_same", [x, x], [2, 3, 8], "DivOptions")
    op("div_broadcast", [x, d], [2, 3, 8], "DivOptions", fused_activation_function=RELU6)
    op("div_scalar", [mb.const("three", np.array([3.0], np.float32)), x], [2, 3, 8], "DivOptions",
       fused_activation_function=RELU_N1_TO_1)
    wide = mb.tensor("wide", "float32", [2, 3, 8])
    mb.op("MUL", [x, mb.const("twenty_five", np.array([25.0], np.float32))], [wide], "MulOptions")
    op("exp", [wide], [2, 3, 8])
    magnitude, positive = (mb.tensor(name, "float32", [2, 3, 8]) for name in ("magnitude", "positive"))
    mb.op("MUL", [x, x], [magnitude], "MulOptions")
    mb.op("ADD", [magnitude, mb.const("small", np.array([0.001], np.float32))], [positive], "AddOptions")
    op("rsqrt", [positive], [2, 3, 8])
    op("rsqrt_signed", [x], [2, 3, 8])
    return mb.build()


@test_model("unary_math_float32", targets=False)
def unary_math_float32():
    """SIN, COS, LOG, SQRT, SQUARE, ABS, NEG, FLOOR, CEIL and ROUND on inputs stretched to
    [-100, 100] and on infinities (EXP past overflow): LOG and SQRT of negatives give NaN,
    LOG of 0 -inf (EXP underflowed), of infinity inf; ROUND also on exact halves (FLOOR(25 x) / 2),
    where it rounds to even as TFLM. SIN, COS and LOG are the C library's: identical to TFLM
    on the host."""
    mb = ModelBuilder()
    x = mb.input("x", "float32", [2, 3, 8])

    def tensor(name, op_type, inputs, options_type=None, **options):
        y = mb.tensor(name, "float32", [2, 3, 8])
        mb.op(op_type, inputs, [y], options_type, **options)
        return y

    wide = tensor("wide", "MUL", [x, mb.const("twenty_five", np.array([25.0], np.float32))], "MulOptions")
    huge = tensor("huge", "EXP", [wide])
    halves = tensor("halves", "MUL", [tensor("steps", "FLOOR", [wide]), mb.const("half", np.array([0.5], np.float32))],
                    "MulOptions")
    for op_type, source in (("SIN", wide), ("COS", wide), ("LOG", x), ("LOG", huge), ("SQRT", wide),
                            ("SQUARE", wide), ("ABS", x), ("NEG", huge), ("FLOOR", x), ("CEIL", wide),
                            ("ROUND", wide), ("ROUND", halves)):
        mb.output(tensor(f"{op_type.lower()}{len(mb.tensors)}", op_type, [source]))
    return mb.build()
