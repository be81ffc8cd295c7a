"""Test models in float32 for layers whose int8 form has its own family:
FULLY_CONNECTED (identical to TFLM's float reference kernel)."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import test_model

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
