"""Test models: CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D.

Each model chains a few layers so that together they cover every option:
SAME/VALID padding, unequal strides, dilation, depth multipliers, grouped
filters, per-channel and per-tensor weights, with and without bias, every
fused activation, odd sizes, batches and nonzero zero points. Sizes stay small
enough for a 16 KB-RAM Cortex-M0.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, bias_for, random_int8
from tinyaot.testing.catalog import test_model

SAME, VALID = 0, 1
NONE, RELU, RELU_N1_TO_1, RELU6 = 0, 1, 2, 3


def _scales(rng, in_scale, taps, channels, per_channel, out_scale, w_max, spread):
    """(weight scale(s), output scale) making a layer's outputs spread about `spread`
    steps (one sigma) for inputs spread over the int8 range, so that clamping does
    not hide wrong sums. With out_scale given, the weight scales follow from it."""
    acc_std = np.sqrt(taps) * 74.0 * w_max / np.sqrt(3.0)  # (in - zp) ~ 74, weights ~ w_max/sqrt(3)
    factors = rng.uniform(0.5, 1.5, size=channels) if per_channel else np.ones(1)
    if out_scale is None:
        w_mean = 0.01
        out_scale = in_scale * w_mean * acc_std / spread
    else:
        w_mean = out_scale * spread / (in_scale * acc_std)
    w_scale = (w_mean * factors).astype(np.float32)
    return (w_scale if per_channel else w_scale[0]), np.float32(out_scale)


def _bias(mb, rng, n, in_scale, w_scale, use_bias):
    if not use_bias:
        return -1
    values, scales = bias_for(rng, n, in_scale, w_scale)
    return mb.const(f"b{len(mb.tensors)}", values, scale=scales)


def conv(mb, rng, x, in_q, out_shape, filter_hw, filter_ch=None, *, padding=SAME, stride=(1, 1),
         dilation=(1, 1), act=NONE, per_channel=True, bias=True, out_zp=0, out_scale=None, w_max=127,
         spread=40):
    """Adds a CONV_2D from x (quantized (scale, zp) = in_q); returns (y, out_q)."""
    in_scale = in_q[0]
    filter_ch = filter_ch or mb.tensors[x]["shape"][3]
    out_ch = out_shape[3]
    w_scale, out_scale = _scales(rng, in_scale, filter_hw[0] * filter_hw[1] * filter_ch, out_ch, per_channel,
                                 out_scale, w_max, spread)
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (out_ch, *filter_hw, filter_ch), -w_max, w_max),
                 scale=w_scale, axis=0)
    b = _bias(mb, rng, out_ch, in_scale, w_scale, bias)
    out_q = (out_scale, out_zp)
    y = mb.tensor(f"conv{len(mb.tensors)}", "int8", out_shape, scale=out_q[0], zero_point=out_zp)
    mb.op("CONV_2D", [x, w, b], [y], "Conv2DOptions", padding=padding, stride_h=stride[0], stride_w=stride[1],
          dilation_h_factor=dilation[0], dilation_w_factor=dilation[1], fused_activation_function=act)
    return y, out_q


def depthwise(mb, rng, x, in_q, out_shape, filter_hw, *, multiplier=1, padding=SAME, stride=(1, 1),
              dilation=(1, 1), act=NONE, per_channel=True, bias=True, out_zp=0, out_scale=None, w_max=127,
              spread=40):
    """Adds a DEPTHWISE_CONV_2D from x; returns (y, out_q)."""
    in_scale = in_q[0]
    out_ch = out_shape[3]
    w_scale, out_scale = _scales(rng, in_scale, filter_hw[0] * filter_hw[1], out_ch, per_channel, out_scale,
                                 w_max, spread)
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (1, *filter_hw, out_ch), -w_max, w_max),
                 scale=w_scale, axis=3)
    b = _bias(mb, rng, out_ch, in_scale, w_scale, bias)
    out_q = (out_scale, out_zp)
    y = mb.tensor(f"dw{len(mb.tensors)}", "int8", out_shape, scale=out_q[0], zero_point=out_zp)
    mb.op("DEPTHWISE_CONV_2D", [x, w, b], [y], "DepthwiseConv2DOptions", padding=padding,
          stride_h=stride[0], stride_w=stride[1], depth_multiplier=multiplier,
          dilation_h_factor=dilation[0], dilation_w_factor=dilation[1], fused_activation_function=act)
    return y, out_q


def pool(mb, op_type, x, q, out_shape, filter_hw, *, padding=SAME, stride=(1, 1), act=NONE):
    """Adds a pooling op; its output keeps the input's quantization, as TFLite requires."""
    y = mb.tensor(f"pool{len(mb.tensors)}", "int8", out_shape, scale=q[0], zero_point=q[1])
    mb.op(op_type, [x], [y], "Pool2DOptions", padding=padding, stride_h=stride[0], stride_w=stride[1],
          filter_height=filter_hw[0], filter_width=filter_hw[1], fused_activation_function=act)
    return y


@test_model("conv_same_valid_strides")
def conv_same_valid_strides():
    """A 1x1 whose multipliers are partly above 1 (a left shift in requantization), a 3x3
    SAME per-channel RELU, then a 3x2 VALID with strides 2x3, per-tensor, no activation."""
    rng = np.random.default_rng(30)
    mb = ModelBuilder()
    q = (0.05, -5)
    x = mb.input("x", "int8", [1, 9, 11, 3], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 9, 11, 5], (1, 1), out_zp=-3, w_max=1, spread=90)
    h, q = conv(mb, rng, h, q, [1, 9, 11, 8], (3, 3), act=RELU, out_zp=-128, spread=100)
    y, _ = conv(mb, rng, h, q, [1, 4, 4, 6], (3, 2), padding=VALID, stride=(2, 3), per_channel=False, out_zp=9)
    mb.output(y)
    return mb.build()


@test_model("conv_dilation_relu6_no_bias")
def conv_dilation_relu6_no_bias():
    """Dilated filters with SAME and VALID padding, strides 2x1, no bias, RELU6; a batch of two."""
    rng = np.random.default_rng(31)
    mb = ModelBuilder()
    q = (0.03, 11)
    x = mb.input("x", "int8", [2, 10, 9, 4], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [2, 5, 9, 6], (3, 3), stride=(2, 1), dilation=(2, 3), act=RELU6, bias=False,
                out_zp=-100, out_scale=0.04, spread=80)
    y, _ = conv(mb, rng, h, q, [2, 3, 5, 7], (2, 3), padding=VALID, dilation=(2, 2), per_channel=False,
                out_zp=4)
    mb.output(y)
    return mb.build()


@test_model("conv_grouped")
def conv_grouped():
    """Grouped convolution: 6 input channels seen 2 at a time by 3 groups of 3 filters; RELU_N1_TO_1."""
    rng = np.random.default_rng(32)
    mb = ModelBuilder()
    q = (0.04, -20)
    x = mb.input("x", "int8", [1, 7, 6, 6], scale=q[0], zero_point=q[1])
    y, _ = conv(mb, rng, x, q, [1, 4, 3, 9], (3, 3), filter_ch=2, stride=(2, 2), act=RELU_N1_TO_1,
                out_zp=-6, out_scale=1 / 50)
    mb.output(y)
    return mb.build()


@test_model("conv_edge_shapes")
def conv_edge_shapes():
    """The corners of the paired-filter loop: an odd filter count (the last filter alone), a
    window larger than the input with a 1-pixel output (every tap of some rows and columns
    padding), stride 3, one input channel, and groups of one filter each."""
    rng = np.random.default_rng(37)
    mb = ModelBuilder()
    q = (0.05, 7)
    x = mb.input("x", "int8", [1, 3, 4, 1], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 1, 2, 5], (5, 5), stride=(3, 3), out_zp=-2, spread=80)
    h, q = conv(mb, rng, h, q, [1, 1, 2, 3], (3, 3), act=RELU, out_zp=-128, spread=60)
    y, _ = conv(mb, rng, h, q, [1, 1, 1, 3], (1, 2), filter_ch=1, padding=VALID, per_channel=False, out_zp=5)
    mb.output(y)
    return mb.build()


@test_model("conv_pixel_pairs")
def conv_pixel_pairs():
    """The corners of tinyaot_conv2d_s8's pixel pairs and folded input offset: pairs in the
    padded top and bottom rows and odd widths (the last pixel alone), a block of four
    filters and two alone, stride 1x2, dilation (taps in separate runs), groups of four
    filters, a 5x5 window wider than the padding on a 3-pixel input; a batch of two."""
    rng = np.random.default_rng(39)
    mb = ModelBuilder()
    q = (0.04, -11)
    x = mb.input("x", "int8", [2, 5, 9, 6], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [2, 5, 9, 6], (3, 3), out_zp=6, spread=60)
    h, q = conv(mb, rng, h, q, [2, 5, 5, 12], (3, 3), filter_ch=2, stride=(1, 2), act=RELU, out_zp=-128,
                spread=80)
    d, _ = conv(mb, rng, h, q, [2, 5, 5, 5], (3, 2), dilation=(2, 2), per_channel=False, out_zp=-4)
    mb.output(d)
    y, _ = conv(mb, rng, h, q, [2, 3, 3, 7], (5, 5), stride=(2, 2), bias=False, out_zp=3, spread=70)
    mb.output(y)
    return mb.build()


@test_model("conv_1x1_depths")
def conv_1x1_depths():
    """tinyaot_conv2d_1x1_s8's loops for adjacent pixels at each depth: below 32 (none),
    33, 66 (one input channel a step), 64 and 68 (four a step), an odd pixel count (the
    last pixel paired with itself), channel counts leaving 1-3 channels after the blocks
    of four, per-tensor and RELU."""
    rng = np.random.default_rng(42)
    mb = ModelBuilder()
    q = (0.05, 3)
    h = mb.input("x", "int8", [1, 3, 3, 20], scale=q[0], zero_point=q[1])
    for depth, act, per_channel in ((33, NONE, True), (64, RELU, True), (66, NONE, False), (68, RELU, True),
                                    (7, NONE, True)):
        h, q = conv(mb, rng, h, q, [1, 3, 3, depth], (1, 1), act=act, per_channel=per_channel,
                    out_zp=int(rng.integers(-20, 20)), spread=60)
    mb.output(h)
    return mb.build()


@test_model("depthwise_pixel_pairs")
def depthwise_pixel_pairs():
    """The corners of tinyaot_depthwise_conv2d_s8's pixel pairs (3x3, multiplier 1): stride 1
    and 2 (also 2x1), odd widths (the last pixel alone), 5 channels; 66 channels, the pairs'
    sums in two chunks (64, 2); a batch of two."""
    rng = np.random.default_rng(40)
    mb = ModelBuilder()
    q = (0.05, 9)
    x = mb.input("x", "int8", [2, 6, 9, 5], scale=q[0], zero_point=q[1])
    h, q = depthwise(mb, rng, x, q, [2, 6, 9, 5], (3, 3), out_zp=-7, spread=60)
    a, _ = depthwise(mb, rng, h, q, [2, 3, 5, 5], (3, 3), stride=(2, 2), act=RELU, out_zp=-128, spread=80)
    mb.output(a)
    b, _ = depthwise(mb, rng, h, q, [2, 2, 7, 5], (3, 3), padding=VALID, stride=(2, 1), per_channel=False,
                     out_zp=4)
    mb.output(b)
    w, q = conv(mb, rng, h, q, [2, 3, 5, 66], (1, 1), stride=(2, 2), out_zp=2)
    y, _ = depthwise(mb, rng, w, q, [2, 3, 5, 66], (3, 3), act=RELU6, out_zp=-128, out_scale=0.03, spread=100)
    mb.output(y)
    return mb.build()


@test_model("depthwise_multipliers")
def depthwise_multipliers():
    """Depth multiplier 2 with SAME padding and RELU, then multiplier 1 with VALID padding,
    strides 2x2, per-tensor weights and RELU6, then multiplier 3 with a 1x1 filter.
    (TFLM crashes preparing a depthwise conv without bias, so that case is checked
    in tests/host/test_errors_conv.py against a zero bias instead.)"""
    rng = np.random.default_rng(33)
    mb = ModelBuilder()
    q = (0.06, 3)
    x = mb.input("x", "int8", [1, 8, 7, 3], scale=q[0], zero_point=q[1])
    h, q = depthwise(mb, rng, x, q, [1, 8, 7, 6], (3, 3), multiplier=2, act=RELU, out_zp=-128, spread=100)
    h, q = depthwise(mb, rng, h, q, [1, 2, 3, 6], (5, 3), padding=VALID, stride=(2, 2), act=RELU6,
                     per_channel=False, out_zp=-128, out_scale=0.03, spread=100)
    y, _ = depthwise(mb, rng, h, q, [1, 2, 3, 18], (1, 1), multiplier=3, out_zp=17)
    mb.output(y)
    return mb.build()


@test_model("depthwise_dilation_strides")
def depthwise_dilation_strides():
    """Dilated depthwise filters, SAME padding with strides 2x1 and 3x3, RELU_N1_TO_1; batch of two."""
    rng = np.random.default_rng(34)
    mb = ModelBuilder()
    q = (0.02, -7)
    x = mb.input("x", "int8", [2, 9, 8, 4], scale=q[0], zero_point=q[1])
    h, q = depthwise(mb, rng, x, q, [2, 5, 8, 8], (3, 2), multiplier=2, stride=(2, 1), dilation=(2, 3),
                     out_zp=12)
    y, _ = depthwise(mb, rng, h, q, [2, 2, 3, 8], (2, 3), stride=(3, 3), dilation=(1, 2), act=RELU_N1_TO_1,
                     out_zp=-2, out_scale=1 / 50, spread=70)
    mb.output(y)
    return mb.build()


@test_model("depthwise_channel_blocks")
def depthwise_channel_blocks():
    """The corners of the four-channel blocks: 7 channels at multiplier 1 (a block and three
    alone), multiplier 4 and 8 (four outputs share one input), stride 3, a window larger than
    its input with a 1-pixel output, dilation, per-tensor weights; and a 1x1 convolution's."""
    rng = np.random.default_rng(38)
    mb = ModelBuilder()
    q = (0.05, 3)
    x = mb.input("x", "int8", [1, 5, 6, 7], scale=q[0], zero_point=q[1])
    h, q = depthwise(mb, rng, x, q, [1, 5, 6, 7], (3, 3), act=RELU, out_zp=-128, spread=80)
    # A 1x1 convolution's corners too: a block of four filters and three alone, 9 pixels (one unpaired).
    p1, _ = conv(mb, rng, h, q, [1, 3, 3, 7], (1, 1), stride=(2, 2), out_zp=4)
    mb.output(p1)
    h, q = depthwise(mb, rng, h, q, [1, 2, 2, 28], (5, 5), multiplier=4, stride=(3, 3), out_zp=9)
    y, _ = depthwise(mb, rng, h, q, [1, 1, 1, 224], (4, 4), multiplier=8, stride=(2, 2), act=RELU6,
                     per_channel=False, out_zp=-128, out_scale=0.03, spread=100)
    mb.output(y)
    z, _ = depthwise(mb, rng, x, (0.05, 3), [1, 1, 2, 7], (2, 3), padding=VALID, stride=(3, 1),
                     dilation=(2, 2), out_zp=-5)
    mb.output(z)
    return mb.build()


@test_model("pooling")
def pooling():
    """Average and max pooling: SAME and VALID, unequal strides, every fused activation,
    a window as large as its input, nonzero zero points; a batch of two."""
    mb = ModelBuilder()
    q = (0.05, -9)  # RELU6 clamps at 111 and RELU_N1_TO_1 at [-29, 11]: all bind sometimes
    x = mb.input("x", "int8", [2, 9, 10, 5], scale=q[0], zero_point=q[1])
    a = pool(mb, "AVERAGE_POOL_2D", x, q, [2, 5, 5, 5], (3, 3), stride=(2, 2), act=RELU)
    m = pool(mb, "MAX_POOL_2D", a, q, [2, 4, 2, 5], (2, 3), padding=VALID, stride=(1, 2))
    g = pool(mb, "AVERAGE_POOL_2D", m, q, [2, 1, 1, 5], (4, 2), padding=VALID, stride=(2, 2), act=RELU6)
    mb.output(g)
    m2 = pool(mb, "MAX_POOL_2D", x, q, [2, 3, 4, 5], (3, 2), stride=(3, 3), act=RELU6)
    mb.output(m2)
    a2 = pool(mb, "AVERAGE_POOL_2D", x, q, [2, 9, 10, 5], (2, 4), act=RELU_N1_TO_1)
    mb.output(a2)
    return mb.build()


@test_model("mini_mobilenet")
def mini_mobilenet():
    """A small MobileNet-style stack, as in person detection: strided conv, depthwise +
    pointwise blocks, global average pooling, a 1x1 classifier conv, reshape."""
    rng = np.random.default_rng(35)
    mb = ModelBuilder()
    q = (0.0078125, -1)
    x = mb.input("x", "int8", [1, 12, 12, 1], scale=q[0], zero_point=q[1])
    relu6 = dict(act=RELU6, out_zp=-128, out_scale=6 / 255, spread=100)  # [0, 6] -> [-128, 127]
    h, q = conv(mb, rng, x, q, [1, 6, 6, 8], (3, 3), stride=(2, 2), **relu6)
    h, q = depthwise(mb, rng, h, q, [1, 6, 6, 8], (3, 3), **relu6)
    h, q = conv(mb, rng, h, q, [1, 6, 6, 16], (1, 1), **relu6)
    h, q = depthwise(mb, rng, h, q, [1, 3, 3, 16], (3, 3), stride=(2, 2), **relu6)
    h, q = conv(mb, rng, h, q, [1, 3, 3, 24], (1, 1), **relu6)
    h = pool(mb, "AVERAGE_POOL_2D", h, q, [1, 1, 1, 24], (3, 3), padding=VALID, stride=(2, 2))
    h, q = conv(mb, rng, h, q, [1, 1, 1, 3], (1, 1), out_zp=5)
    y = mb.tensor("y", "int8", [1, 3], scale=q[0], zero_point=q[1])
    mb.op("RESHAPE", [h, mb.const("shape", np.array([1, 3], np.int32))], [y], "ReshapeOptions", new_shape=[1, 3])
    mb.output(y)
    return mb.build()
