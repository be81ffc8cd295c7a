"""Test models: TRANSPOSE_CONV (int8), the upsampling layer of decoders and
segmentation heads: stride 2 and 3, SAME and VALID, filters larger and
smaller than the stride, per-channel and per-tensor weights, with and without
bias, a fused activation."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.testing.catalog import test_model
from tinyaot.testing.models_conv import RELU, SAME, VALID, _bias, _scales


def _transpose_conv(mb, rng, x, in_q, in_shape, out_shape, filter_hw, stride, padding, per_channel=True,
                    bias=True, act=0, out_zp=0, shape=None):
    out_ch, in_ch = out_shape[3], in_shape[3]
    taps = filter_hw[0] * filter_hw[1] * in_ch // (stride[0] * stride[1]) + 1
    w_scale, out_scale = _scales(rng, in_q[0], taps, out_ch, per_channel, None, 127, 40)
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (out_ch, *filter_hw, in_ch)), scale=w_scale, axis=0)
    b = _bias(mb, rng, out_ch, in_q[0], w_scale, bias)
    y = mb.tensor(f"tconv{len(mb.tensors)}", "int8", out_shape, scale=out_scale, zero_point=out_zp)
    if shape is None:
        shape = mb.const(f"shape{len(mb.tensors)}", np.array(out_shape, np.int32))
    inputs = [shape, w, x] + ([b] if bias else [])
    mb.op("TRANSPOSE_CONV", inputs, [y], "TransposeConvOptions", padding=padding, stride_h=stride[0],
          stride_w=stride[1], fused_activation_function=act)
    return mb.output(y)


@test_model("transpose_conv")
def transpose_conv():
    rng = np.random.default_rng(48)
    mb = ModelBuilder()
    q = (0.05, -4)
    x = mb.input("x", "int8", [1, 4, 5, 3], scale=q[0], zero_point=q[1])
    _transpose_conv(mb, rng, x, q, [1, 4, 5, 3], [1, 8, 10, 4], (3, 3), (2, 2), SAME)
    _transpose_conv(mb, rng, x, q, [1, 4, 5, 3], [1, 9, 11, 2], (3, 3), (2, 2), VALID, per_channel=False,
                    out_zp=-20)
    _transpose_conv(mb, rng, x, q, [1, 4, 5, 3], [1, 12, 15, 5], (2, 2), (3, 3), SAME, bias=False, act=RELU)
    _transpose_conv(mb, rng, x, q, [1, 4, 5, 3], [1, 4, 5, 2], (5, 5), (1, 1), SAME)
    b = mb.input("b", "int8", [2, 3, 3, 2], scale=0.1, zero_point=10)
    _transpose_conv(mb, rng, b, (0.1, 10), [2, 3, 3, 2], [2, 8, 8, 3], (4, 4), (2, 2), VALID)
    return mb.build()


@test_model("transpose_conv_shape_input")
def transpose_conv_shape_input():
    """The output shape given as a model input, as some exported decoders do: TFLM never
    reads it (the output tensor's shape rules), so neither does tinyaot."""
    rng = np.random.default_rng(49)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 3, 4, 2], scale=0.05, zero_point=3)
    shape = mb.input("output_shape", "int32", [4])
    _transpose_conv(mb, rng, x, (0.05, 3), [1, 3, 4, 2], [1, 6, 8, 3], (3, 3), (2, 2), SAME, shape=shape)
    return mb.build()
