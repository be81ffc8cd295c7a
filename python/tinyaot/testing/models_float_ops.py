"""float32 test models of the operators whose float32 kernels came after the first
float32 set (models_float.py): SVDF, SQUARED_DIFFERENCE, PRELU, HARD_SWISH,
RESIZE_BILINEAR, TRANSPOSE_CONV, ... TFLM's float reference kernels are the
oracle: results must be identical. Most are float32 forms of the int8 models
(tinyaot.testing.variants), so they cover the same parameter space."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import (models_activation, models_elementwise, models_movement, models_svdf,  # noqa: F401
                             models_transpose_conv)
from tinyaot.testing.catalog import CATALOG, test_model
from tinyaot.testing.models_conv import SAME, VALID
from tinyaot.testing.variants import variant_of

NONE, RELU, RELU_N1_TO_1, RELU6 = 0, 1, 2, 3


def svdf_activations():
    """Three SVDF layers on one input: RELU_N1_TO_1 and RELU6 (which TFLM's float
    SVDF applies, unlike its integer one), and a memory of 1. Built in int8 and
    registered in float32 form only. (No bias: tests/host/test_errors_svdf.py,
    since TFLM crashes on it.)"""
    rng = np.random.default_rng(45)
    mb = ModelBuilder()
    in_scale = np.float32(0.05)
    x = mb.input("x", "int8", [2, 10], scale=in_scale, zero_point=0)
    for act, rank, memory in ((RELU_N1_TO_1, 1, 3), (RELU6, 3, 2), (NONE, 2, 1)):
        y, _ = models_svdf.svdf(mb, rng, x, in_scale, 2, 10, 4, rank, memory, out_zp=0, act=act)
        mb.output(y)
    return mb.build()


# The SVDF models are stateful: the host test calls them again and again without a reset.
SVDF_FORMS = ["svdf_rank1_relu", "svdf_rank2_batch2", "svdf_rank2_batch2_relu", "svdf_rank1_batch2_saturating",
              "svdf_keyword_like_stack"]
# On the QEMU boards: one SVDF stack.
ON_TARGET = {"svdf_keyword_like_stack"}
for _name in SVDF_FORMS:
    test_model(f"{_name}_float32", targets=_name in ON_TARGET, form=True)(variant_of(CATALOG[_name][0], "float32"))
test_model("svdf_activations_float32", targets=False, form=True)(
    variant_of(svdf_activations, "float32"))


@test_model("binary_ranks_float32")
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


# float32 forms of the int8 elementwise and activation models (on the boards: PRELU and HARD_SWISH).
for _name in ("squared_difference", "prelu_int8", "hard_swish_int8"):
    test_model(f"{_name}_float32", targets=_name != "squared_difference", form=True)(
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


test_model("resize_bilinear_float32", form=True)(variant_of(CATALOG["resize_bilinear"][0], "float32"))


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


test_model("transpose_conv_float32", form=True)(variant_of(CATALOG["transpose_conv"][0], "float32"))
