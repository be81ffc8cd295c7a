"""16x8 test models (int16 activations, int8 weights, int64 biases): the 16x8 forms
of the int8 models that cover each operator's parameter space, and of the MLPerf
Tiny networks (see tinyaot.testing.variants). TFLM's int16 reference kernels are
the oracle: results must be bit-exact."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.testing import (models_activation, models_basic, models_conv,  # noqa: F401 (register)
                             models_elementwise, models_mlperf, models_movement, models_residual,
                             models_transpose_conv)
from tinyaot.testing.catalog import ALL_BOARDS_ONLY, CATALOG, M3_ONLY, test_model
from tinyaot.testing.variants import variant_of

FORMS_16X8 = [
    "fc_relu_per_tensor", "fc_batched_per_channel_relu6", "fc_no_bias_relu_n1_to_1",
    "conv_same_valid_strides", "conv_dilation_relu6_no_bias", "conv_grouped", "conv_edge_shapes",
    "depthwise_multipliers", "depthwise_dilation_strides", "pooling", "mini_mobilenet",
    "softmax_rows", "softmax_scales", "pad_variants", "add_broadcast_act", "mean_axes",
    "ds_cnn_kws", "resnet8", "mobilenet_v1_025_96x96x3", "fc_autoencoder", "logistic_int8", "tanh_int8",
    "leaky_relu_int8", "transpose_conv", "relu_relu6", "prelu_int8", "squared_difference",
    "splits", "concat_axes", "concat_in_place", "mul_broadcast_act", "sub_broadcast_act", "add_outer_broadcast",
    "depthwise_channel_blocks", "resize_nearest", "reshape_views", "batch_matmul", "residual_u_first_remainder",
]
# On qemu_cortex_m3 but for these, whose 16x8 arenas (the autoencoder: its weights)
# exceed its RAM (flash): tests/host/test_forms_off_target.py proves it from their
# plans. The Cortex-M0 runs a sample. (resnet8 fits with residual fusion: 37908 B.)
OFF_TARGET = {"mobilenet_v1_025_96x96x3", "fc_autoencoder"}
BOTH_BOARDS = {"conv_grouped", "mini_mobilenet", "transpose_conv"}
for _name in FORMS_16X8:
    _targets = False if _name in OFF_TARGET else True if _name in BOTH_BOARDS else M3_ONLY
    test_model(f"{_name}_16x8", targets=_targets, form=True)(variant_of(CATALOG[_name][0], "16x8"))


@test_model("add_16x8")
def add_16x8():
    """int16 ADD and SUB: equal shapes with RELU (SUB: none), a 4-D broadcast of a row
    and a column with RELU6 (SUB: RELU_N1_TO_1), nonzero zero points (TFLM's int16 ADD
    and SUB take them), scales apart by 40x."""
    mb = ModelBuilder()
    a = mb.input("a", "int16", [2, 3, 4, 5], scale=0.0005, zero_point=3)
    b = mb.input("b", "int16", [2, 3, 4, 5], scale=0.0002, zero_point=-7)
    row = mb.input("row", "int16", [1, 1, 1, 5], scale=0.008, zero_point=0)
    col = mb.input("col", "int16", [2, 1, 4, 1], scale=0.0003, zero_point=100)
    y = mb.output(mb.tensor("sum", "int16", [2, 3, 4, 5], scale=0.0006, zero_point=-20))
    mb.op("ADD", [a, b], [y], "AddOptions", fused_activation_function=1)
    z = mb.output(mb.tensor("broadcast", "int16", [2, 1, 4, 5], scale=0.0004, zero_point=0))
    mb.op("ADD", [row, col], [z], "AddOptions", fused_activation_function=3)
    d = mb.output(mb.tensor("difference", "int16", [2, 3, 4, 5], scale=0.0007, zero_point=9))
    mb.op("SUB", [a, b], [d], "SubOptions", fused_activation_function=0)
    e = mb.output(mb.tensor("broadcast_difference", "int16", [2, 1, 4, 5], scale=0.0003, zero_point=0))
    mb.op("SUB", [col, row], [e], "SubOptions", fused_activation_function=2)
    return mb.build()


@test_model("mul_16x8", targets=False)
def mul_16x8():
    """int16 MUL (zero points 0, as TFLM requires): equal shapes with RELU6, a 4-D
    broadcast with RELU_N1_TO_1, a product scale above the output's (left shift)."""
    mb = ModelBuilder()
    a = mb.input("a", "int16", [2, 3, 4, 5], scale=0.0002, zero_point=0)
    b = mb.input("b", "int16", [2, 3, 4, 5], scale=0.0003, zero_point=0)
    col = mb.input("col", "int16", [2, 1, 4, 1], scale=0.00005, zero_point=0)
    y = mb.output(mb.tensor("product", "int16", [2, 3, 4, 5], scale=0.0001, zero_point=0))
    mb.op("MUL", [a, b], [y], "MulOptions", fused_activation_function=3)
    z = mb.output(mb.tensor("broadcast", "int16", [2, 3, 4, 5], scale=0.00004, zero_point=0))
    mb.op("MUL", [a, col], [z], "MulOptions", fused_activation_function=2)
    return mb.build()


@test_model("pad_int16_zero_point", targets=False)
def pad_int16_zero_point():
    """int16 PAD with a nonzero zero point: TFLM pads int16 with a plain 0, not the
    zero point as for int8."""
    mb = ModelBuilder()
    x = mb.input("x", "int16", [1, 2, 3, 2], scale=0.01, zero_point=5)
    y = mb.output(mb.tensor("y", "int16", [1, 4, 4, 2], scale=0.01, zero_point=5))
    mb.op("PAD", [x, mb.const("paddings", np.array([[0, 0], [1, 1], [0, 1], [0, 0]], np.int32))], [y],
          "PadOptions")
    return mb.build()


# Input scales of int16 LOGISTIC and TANH: 2^-12 (TANH also 2^-11) take TFLM's power-of-two path
# (input x 3), as does 2^-12 x 1.0004 (within CheckedLog2's 0.1%); the rest its 15-bit multiplier
# and rounding shift: powers of two off that path, general scales from nearly all saturated (2.6,
# just under the largest TFLM takes) to all near zero (3e-6).
LOGISTIC_TANH_16X8_SCALES = [2**-12, 2**-11, 2**-10, 2**-12 * 1.0004, 2**-12 * 1.002, 0.0003, 0.002, 0.05, 2.6,
                             3e-6]


def logistic_tanh_16x8_model(shape, scales=LOGISTIC_TANH_16X8_SCALES):
    """int16 LOGISTIC and TANH of one input per scale."""
    mb = ModelBuilder()
    out = dict(scale=1.0 / 32768, zero_point=0)
    for k, scale in enumerate(scales):
        x = mb.input(f"x{k}", "int16", shape, scale=scale, zero_point=0)
        for op in ("LOGISTIC", "TANH"):
            mb.op(op, [x], [mb.output(mb.tensor(f"{op.lower()}{k}", "int16", shape, **out))])
    return mb.build()


@test_model("logistic_tanh_16x8")
def logistic_tanh_16x8():
    """int16 LOGISTIC and TANH at 7 of the LOGISTIC_TANH_16X8_SCALES, each path (16 outputs at
    most fit the serial runner), on random inputs; every int16 input at every scale:
    tests/host/test_s16_activations.py."""
    return logistic_tanh_16x8_model([2, 32], [2**-12, 2**-11, 2**-12 * 1.0004, 0.0003, 0.05, 2.6, 3e-6])


@test_model("leaky_relu_16x8", targets=False)
def leaky_relu_16x8():
    """int16 LEAKY_RELU with nonzero zero points (TFLM's int16 kernel takes them, unlike
    the 16x8 forms' symmetric ones): alpha 0.2, negative, 0 and above 1; output scales
    below, equal to and above the input's, so that some values clamp."""
    mb = ModelBuilder()
    x = mb.input("x", "int16", [2, 5, 6], scale=0.0004, zero_point=-300)
    for k, (alpha, scale, zp) in enumerate([(0.2, 0.0004, -300), (-0.6, 0.0002, 1000), (0.0, 0.001, -32768),
                                            (1.7, 0.0009, 25), (0.01, 0.00001, 0)]):
        y = mb.tensor(f"l{k}", "int16", [2, 5, 6], scale=scale, zero_point=zp)
        mb.op("LEAKY_RELU", [x], [mb.output(y)], "LeakyReluOptions", alpha=alpha)
    return mb.build()


def _transpose_conv_16x8(mb, rng, x, in_shape, out_shape, filter_hw, stride, padding, w_scale, bias_dtype, act=0):
    out_ch, in_ch = out_shape[3], in_shape[3]
    w_scale = np.asarray(w_scale, np.float32)
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (out_ch, *filter_hw, in_ch)), scale=w_scale, axis=0)
    inputs = [mb.const(f"shape{len(mb.tensors)}", np.array(out_shape, np.int32)), w, x]
    if bias_dtype is not None:
        reach = {"int64": 5_000_000, "int16": 30_000}[bias_dtype]
        values = rng.integers(-reach, reach, size=out_ch).astype(bias_dtype)
        inputs.append(mb.const(f"b{len(mb.tensors)}", values, scale=np.float32(0.001) * w_scale))
    y = mb.tensor(f"tconv{len(mb.tensors)}", "int16", out_shape, scale=0.01, zero_point=0)
    mb.op("TRANSPOSE_CONV", inputs, [mb.output(y)], "TransposeConvOptions", padding=padding, stride_h=stride[0],
          stride_w=stride[1], fused_activation_function=act)


@test_model("transpose_conv_wide_16x8", targets=False)
def transpose_conv_wide_16x8():
    """16x8 TRANSPOSE_CONV beyond the int8 model's 16x8 form: 128 input channels (products
    whose sum may leave int32: the kernel's int64 sum), an int16 bias (TFLM widens it), a
    batch of 2; int64 bias, per-channel, SAME, stride 2, RELU; int16 bias, per-tensor, VALID;
    no bias, strides 3x2; outputs that clamp. Beside them the 16x8 DEPTHWISE_CONV_2D's wide
    sums: a 24x24 window of +-127 weights (the int64 sum, multiplier 3, SAME: every border),
    a bias near 2^32 (the int64 bias and 64-bit rescale where sums stay in int32), and +-1
    weights rescaled by more than 1/2 (FOLDED, not FOLDED_MID: a total shift below 16)."""
    rng = np.random.default_rng(16)
    mb = ModelBuilder()
    x = mb.input("x", "int16", [2, 3, 4, 128], scale=0.001, zero_point=0)
    _transpose_conv_16x8(mb, rng, x, [2, 3, 4, 128], [2, 6, 8, 5], (3, 3), (2, 2), 0,
                         rng.uniform(0.005, 0.015, 5), "int64", act=1)
    _transpose_conv_16x8(mb, rng, x, [2, 3, 4, 128], [2, 4, 5, 3], (2, 2), (1, 1), 1, [0.01], "int16")
    _transpose_conv_16x8(mb, rng, x, [2, 3, 4, 128], [2, 9, 8, 2], (4, 3), (3, 2), 0, rng.uniform(0.005, 0.015, 2),
                         None)
    image = mb.input("image", "int16", [1, 24, 24, 2], scale=0.001, zero_point=0)
    layers = [((24, 24), 3, [0] * 6, 127, 5.0), ((3, 3), 2, [4_000_000_000, -900, 70_000, -2_500_000_000], 127, 0.02),
              ((3, 3), 1, [5, -7], 1, 1.8e-5)]
    for k, (window, multiplier, bias, w_max, out_scale) in enumerate(layers):
        out_ch = 2 * multiplier
        w_scale = rng.uniform(0.005, 0.015, out_ch).astype(np.float32)
        w = np.where(rng.integers(0, 2, (1, *window, out_ch)) == 1, w_max, -w_max).astype(np.int8)
        inputs = [image, mb.const(f"dw_w{k}", w, scale=w_scale, axis=3),
                  mb.const(f"dw_b{k}", np.array(bias, np.int64), scale=np.float32(0.001) * w_scale)]
        y = mb.tensor(f"dw{k}", "int16", [1, 24, 24, out_ch], scale=out_scale, zero_point=0)
        mb.op("DEPTHWISE_CONV_2D", inputs, [mb.output(y)], "DepthwiseConv2DOptions", padding=0, stride_h=1,
              stride_w=1, depth_multiplier=multiplier)
    return mb.build()


@test_model("relu6_16x8", targets=False)
def relu6_16x8():
    """int16 RELU6 with nonzero zero points (TFLM's int16 RELU6 takes them, its RELU does
    not): six inside the int16 range, and beyond it (clamped)."""
    mb = ModelBuilder()
    for k, (scale, zp) in enumerate([(0.0004, -700), (0.0001, 200)]):  # six: 14300, 60200
        x = mb.input(f"x{k}", "int16", [3, 7], scale=scale, zero_point=zp)
        mb.op("RELU6", [x], [mb.output(mb.tensor(f"relu6_{k}", "int16", [3, 7], scale=scale, zero_point=zp))])
    return mb.build()


@test_model("prelu_16x8", targets=False)
def prelu_16x8():
    """int16 PRELU (int8 alpha, as TFLM reads it) with nonzero zero points, which TFLM's
    int16 PRELU takes: a per-channel constant alpha and a run-time one of full shape."""
    mb = ModelBuilder()
    x = mb.input("x", "int16", [2, 3, 4], scale=0.0005, zero_point=-300)
    alphas = [mb.const("alpha_c", np.array([-90, 5, 60, 127], np.int8), scale=0.004, zero_point=-10),
              mb.input("alpha_full", "int8", [2, 3, 4], scale=0.02, zero_point=3)]
    for k, (alpha, scale, zp) in enumerate(zip(alphas, (0.0004, 0.0007), (50, -1000))):
        mb.op("PRELU", [x, alpha], [mb.output(mb.tensor(f"p{k}", "int16", [2, 3, 4], scale=scale, zero_point=zp))])
    return mb.build()


@test_model("batch_matmul_deep_16x8", targets=False)
def batch_matmul_deep_16x8():
    """int16 BATCH_MATMUL summing 64 products of up to 2^30 each, whose sums leave int32
    (TFLM's are int64), with adj_y and a broadcast batch."""
    mb = ModelBuilder()
    a = mb.input("a", "int16", [2, 3, 64], scale=0.001, zero_point=0)
    b = mb.input("b", "int16", [1, 4, 64], scale=0.001, zero_point=0)
    y = mb.tensor("mm", "int16", [2, 3, 4], scale=0.1, zero_point=0)
    mb.op("BATCH_MATMUL", [a, b], [mb.output(y)], "BatchMatMulOptions", adj_y=True)
    return mb.build()


@test_model("int16_operators_sample")
def int16_operators_sample():
    """One small model for the boards with the int16 operators the other on-target models
    lack: RELU, RELU6 (a zero point), LEAKY_RELU (zero points, negative alpha), PRELU (int8
    alpha), SQUARED_DIFFERENCE (a broadcast), BATCH_MATMUL (int64 sums)."""
    mb = ModelBuilder()
    x = mb.input("x", "int16", [2, 16], scale=0.0005, zero_point=0)
    xz = mb.input("xz", "int16", [2, 16], scale=0.0004, zero_point=-200)
    row = mb.input("row", "int16", [1, 16], scale=0.0007, zero_point=0)

    def op(kind, inputs, shape, scale, zero_point=0, options_type=None, **options):
        y = mb.tensor(f"{kind.lower()}{len(mb.tensors)}", "int16", shape, scale=scale, zero_point=zero_point)
        mb.op(kind, inputs, [mb.output(y)], options_type, **options)

    op("RELU", [x], [2, 16], 0.0006)
    op("RELU6", [xz], [2, 16], 0.0004, -200)
    op("LEAKY_RELU", [xz], [2, 16], 0.0002, 900, "LeakyReluOptions", alpha=-0.4)
    alpha = mb.const("alpha", np.arange(-8, 8, dtype=np.int8) * 15, scale=0.01, zero_point=2)
    op("PRELU", [xz, alpha], [2, 16], 0.0005, 40)
    op("SQUARED_DIFFERENCE", [x, row], [2, 16], 0.01, 0, "SquaredDifferenceOptions")
    op("BATCH_MATMUL", [x, row], [2, 1], 0.05, 0, "BatchMatMulOptions", adj_y=True)
    return mb.build()


@test_model("relu_rescale_below_one", targets=False)
def relu_rescale_below_one():
    """int8 and int16 RELU rescaling by 0.0005 / 0.0006 (float32 scales): divided in double
    that is just above 5/6, in float32 just below, and every input 3 mod 6 is a rounding tie
    between the two (TFLM as the tests run it divides in double)."""
    mb = ModelBuilder()
    for dtype in ("int8", "int16"):
        x = mb.input(f"x_{dtype}", dtype, [4, 32], scale=0.0005, zero_point=0)
        mb.op("RELU", [x], [mb.output(mb.tensor(f"relu_{dtype}", dtype, [4, 32], scale=0.0006, zero_point=0))])
    return mb.build()


def _cmsis_nn_s16_kinds():
    """The 16x8 operators CMSIS-NN's s16 kernels take besides convolutions and fully connected
    layers, in one model (a batch of two): depthwise convolutions (multiplier 1 SAME with RELU;
    multiplier 2 dilated, strided, per-tensor weights), average and max pooling (SAME with partial
    windows, VALID, RELU6), ADD and MUL of equal shapes with RELU, SOFTMAX of rows of 4 and 8
    (the depths arm_softmax_s16 is exact at: 2 to 8)."""
    rng = np.random.default_rng(61)
    mb = ModelBuilder()
    q = (0.05, 0)
    x = mb.input("x", "int8", [2, 7, 6, 4], scale=q[0], zero_point=q[1])
    d1, q1 = models_conv.depthwise(mb, rng, x, q, [2, 7, 6, 4], (3, 3), act=models_conv.RELU)
    d2, _ = models_conv.depthwise(mb, rng, x, q, [2, 4, 6, 8], (3, 2), multiplier=2, stride=(2, 1),
                                  dilation=(2, 2), per_channel=False)
    mb.output(d2)
    mb.output(models_conv.pool(mb, "AVERAGE_POOL_2D", x, q, [2, 4, 3, 4], (3, 3), stride=(2, 2),
                               act=models_conv.RELU6))
    mb.output(models_conv.pool(mb, "MAX_POOL_2D", d1, q1, [2, 3, 2, 4], (2, 3), padding=models_conv.VALID,
                               stride=(2, 2)))
    s = mb.output(mb.tensor("sum", "int8", [2, 7, 6, 4], scale=0.1, zero_point=0))
    mb.op("ADD", [x, d1], [s], "AddOptions", fused_activation_function=models_conv.RELU)
    p = mb.output(mb.tensor("product", "int8", [2, 7, 6, 4], scale=0.3, zero_point=0))
    mb.op("MUL", [x, d1], [p], "MulOptions", fused_activation_function=models_conv.RELU)
    for k, (logits, shape) in enumerate([(x, [2, 7, 6, 4]), (d2, [2, 4, 6, 8])]):
        probabilities = mb.output(mb.tensor(f"softmax{k}", "int8", shape, scale=1 / 256, zero_point=-128))
        mb.op("SOFTMAX", [logits], [probabilities], "SoftmaxOptions", beta=1.0)
    return mb.build()


# On the boards in the full matrix: CMSIS-NN's 16x8 calls on each core (the 16x8 forms skip cmsis-nn).
test_model("cmsis_nn_s16_kinds_16x8", targets=ALL_BOARDS_ONLY)(variant_of(_cmsis_nn_s16_kinds, "16x8"))
