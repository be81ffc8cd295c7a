"""Test models: FULLY_CONNECTED and reshape views."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, bias_for, random_int8
from tinyaot.testing.catalog import test_model


def fc(mb, rng, x, in_scale, units, in_depth, out_shape, out_scale, out_zp, act=0, per_channel=False, bias=True):
    """Adds a FULLY_CONNECTED from x (input scale in_scale, in_depth values per row); returns y."""
    w_scale = rng.uniform(0.005, 0.02, size=units).astype(np.float32) if per_channel else np.float32(0.01)
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (units, in_depth)), scale=w_scale, axis=0)
    b = -1
    if bias:
        bv, bs = bias_for(rng, units, in_scale, w_scale)
        b = mb.const(f"b{len(mb.tensors)}", bv, scale=bs)
    y = mb.tensor(f"fc{len(mb.tensors)}", "int8", out_shape, scale=out_scale, zero_point=out_zp)
    mb.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", fused_activation_function=act)
    return y


@test_model("fc_relu_per_tensor")
def fc_relu_per_tensor():
    rng = np.random.default_rng(10)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 24], scale=0.05, zero_point=-3)
    h = fc(mb, rng, x, 0.05, 16, 24, [1, 16], 0.1, -128, act=1)
    y = fc(mb, rng, h, 0.1, 8, 16, [1, 8], 0.2, 4, act=0)
    mb.output(y)
    return mb.build()


@test_model("fc_batched_per_channel_relu6")
def fc_batched_per_channel_relu6():
    rng = np.random.default_rng(11)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [3, 20], scale=0.03, zero_point=7)
    y = fc(mb, rng, x, 0.03, 12, 20, [3, 12], 0.02, -100, act=3, per_channel=True)
    mb.output(y)
    return mb.build()


@test_model("fc_no_bias_relu_n1_to_1")
def fc_no_bias_relu_n1_to_1():
    rng = np.random.default_rng(12)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 32], scale=0.02, zero_point=0)
    y = fc(mb, rng, x, 0.02, 10, 32, [1, 10], 0.01, 0, act=2, bias=False)
    mb.output(y)
    return mb.build()


@test_model("reshape_views")
def reshape_views():
    """Input -> reshape (view of the input) -> FC -> reshape -> output (view of the output)."""
    rng = np.random.default_rng(13)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 4, 2], scale=0.05, zero_point=1)
    flat = mb.tensor("flat", "int8", [1, 32], scale=0.05, zero_point=1)
    mb.op("RESHAPE", [x, mb.const("shape1", np.array([1, 32], np.int32))], [flat],
          "ReshapeOptions", new_shape=[1, 32])
    h = fc(mb, rng, flat, 0.05, 16, 32, [1, 16], 0.1, -20, act=1)
    h2 = fc(mb, rng, h, 0.1, 6, 16, [1, 6], 0.1, 3)
    y = mb.tensor("y", "int8", [2, 3], scale=0.1, zero_point=3)
    mb.op("RESHAPE", [h2, mb.const("shape2", np.array([2, 3], np.int32))], [y], "ReshapeOptions", new_shape=[2, 3])
    mb.output(y)
    return mb.build()


@test_model("squeeze_expand_dims_views")
def squeeze_expand_dims_views():
    """SQUEEZE and EXPAND_DIMS around a fully connected layer: both views, no code."""
    rng = np.random.default_rng(14)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 1, 12], scale=0.05, zero_point=2)
    flat = mb.tensor("flat", "int8", [1, 12], scale=0.05, zero_point=2)
    mb.op("SQUEEZE", [x], [flat], "SqueezeOptions", squeeze_dims=[1])
    h = fc(mb, rng, flat, 0.05, 6, 12, [1, 6], 0.1, -4, act=1)
    y = mb.tensor("y", "int8", [1, 6, 1], scale=0.1, zero_point=-4)
    mb.op("EXPAND_DIMS", [h, mb.const("axis", np.array([2], np.int32))], [y])
    mb.output(y)
    return mb.build()


@test_model("concat_in_place")
def concat_in_place():
    """Two FULLY_CONNECTED branches concatenated on the last axis of [1, n] rows: the
    concatenation is a view, each branch writing its slice of the output; its output is
    reshaped, then concatenated again with a third branch (rows of a [2, 16] output:
    blocks are not contiguous, so that one copies)."""
    rng = np.random.default_rng(12)
    mb = ModelBuilder()
    q = (0.1, 0)
    x = mb.input("x", "int8", [1, 16], scale=0.05, zero_point=-3)
    a = fc(mb, rng, x, 0.05, 12, 16, [1, 12], *q, act=1)
    b = fc(mb, rng, x, 0.05, 20, 16, [1, 20], *q)
    c = mb.tensor("c", "int8", [1, 32], scale=q[0], zero_point=q[1])
    mb.op("CONCATENATION", [a, b], [c], "ConcatenationOptions", axis=-1)
    r = mb.tensor("r", "int8", [2, 16], scale=q[0], zero_point=q[1])
    mb.op("RESHAPE", [c, mb.const("shape", np.array([2, 16], np.int32))], [r], "ReshapeOptions", new_shape=[2, 16])
    d0 = fc(mb, rng, x, 0.05, 32, 16, [1, 32], *q)
    d = mb.tensor("d", "int8", [2, 16], scale=q[0], zero_point=q[1])
    mb.op("RESHAPE", [d0, mb.const("shape2", np.array([2, 16], np.int32))], [d], "ReshapeOptions", new_shape=[2, 16])
    e = mb.tensor("e", "int8", [2, 32], scale=q[0], zero_point=q[1])
    mb.op("CONCATENATION", [r, d], [e], "ConcatenationOptions", axis=1)
    y = fc(mb, rng, e, q[0], 4, 32, [2, 4], 0.2, 1)
    mb.output(y)
    return mb.build()
