"""Test models in float32: FULLY_CONNECTED, SOFTMAX, LOGISTIC, TANH, MEAN, PAD, and
the float32 forms of the int8 convolution, pooling and MLPerf Tiny models.
TFLM's float reference kernels are the oracle: results must be identical."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import models_activation, models_conv, models_elementwise, models_mlperf  # noqa: F401 (register)
from tinyaot.testing.catalog import CATALOG, M3_ONLY, test_model
from tinyaot.testing.variants import variant_of

NONE, RELU, RELU_N1_TO_1, RELU6 = 0, 1, 2, 3


@test_model("fc_float32")
def fc_float32():
    """float32 FULLY_CONNECTED: a two-layer MLP with bias and RELU, a layer
    without bias, a batch of 3, RELU6 and RELU_N1_TO_1."""
    rng = np.random.default_rng(50)
    mb = ModelBuilder()

    def fc(x, in_depth, shape, act, bias=True):
        w = mb.const(f"w{len(mb.tensors)}", rng.standard_normal((shape[-1], in_depth)).astype(np.float32))
        b = mb.const(f"b{len(mb.tensors)}", rng.standard_normal(shape[-1]).astype(np.float32)) if bias else -1
        y = mb.tensor(f"fc{len(mb.tensors)}", "float32", shape)
        mb.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", fused_activation_function=act)
        return y

    x = mb.input("x", "float32", [1, 10])
    h = fc(x, 10, [1, 16], RELU)
    mb.output(fc(h, 16, [1, 4], NONE))
    mb.output(fc(x, 10, [1, 5], RELU6, bias=False))
    xb = mb.input("xb", "float32", [3, 7])
    mb.output(fc(xb, 7, [3, 6], RELU_N1_TO_1))
    return mb.build()


@test_model("exp_tanh_float32", targets=False)
def exp_tanh_float32():
    """float32 LOGISTIC and TANH on inputs stretched to [-28, 28] (past LOGISTIC's
    cut-offs at -9 and 16.6), SOFTMAX over the last axis of a 3-D tensor with beta 0.7.
    Identical to TFLM on the host; on the boards newlib's expf is not glibc's, so
    tests/target/test_float_on_target.py checks it within an ulp bound instead."""
    mb = ModelBuilder()
    x = mb.input("x", "float32", [2, 3, 40])
    wide = mb.tensor("wide", "float32", [2, 3, 40])
    mb.op("MUL", [x, mb.const("seven", np.array([7.0], np.float32))], [wide], "MulOptions")
    for op in ("LOGISTIC", "TANH"):
        mb.output(mb.tensor(op.lower(), "float32", [2, 3, 40]))
        mb.op(op, [wide], [mb.outputs[-1]])
    y = mb.output(mb.tensor("probabilities", "float32", [2, 3, 40]))
    mb.op("SOFTMAX", [wide], [y], "SoftmaxOptions", beta=0.7)
    return mb.build()


# float32 forms of the int8 models that cover each operator's parameter space, and of
# the MLPerf Tiny networks (see tinyaot.testing.variants).
FLOAT32_FORMS = [
    "softmax_rows", "softmax_scales", "pad_variants", "mean_axes",
    "conv_same_valid_strides", "conv_dilation_relu6_no_bias", "conv_grouped", "conv_edge_shapes",
    "depthwise_multipliers", "depthwise_dilation_strides", "pooling", "mini_mobilenet",
    "ds_cnn_kws", "resnet8", "mobilenet_v1_025_96x96x3", "fc_autoencoder",
]
# On qemu_cortex_m3 (soft-float) but for these, whose float32 arenas (the autoencoder:
# its weights) exceed its RAM (flash): tests/host/test_forms_off_target.py proves it from
# their plans. The Cortex-M0 (Thumb-1 soft-float) runs a sample.
OFF_TARGET = {"resnet8", "mobilenet_v1_025_96x96x3", "fc_autoencoder"}
BOTH_BOARDS = {"pooling", "mini_mobilenet"}
for _name in FLOAT32_FORMS:
    _targets = False if _name in OFF_TARGET else True if _name in BOTH_BOARDS else M3_ONLY
    test_model(f"{_name}_float32", targets=_targets, form=True)(variant_of(CATALOG[_name][0], "float32"))
