"""Test models of the TinyML kinds beyond MLPerf Tiny, with random weights (issue 25).

Only the shapes follow the public models: a DNN keyword spotter with float I/O
(QUANTIZE in, DEQUANTIZE out), a small CNN keyword spotter, the magic-wand gesture
CNN (int8 and float32), a FOMO-style detector (MobileNetV2 0.35 cut at stride 8 and
a 1x1 head) and a 16x8 audio U-Net block. They are the bench's rows for these kinds;
on the QEMU boards they run only in the full matrix (ALL_BOARDS_ONLY): the catalog's
smaller models already reach their kernels there.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.testing.catalog import ALL_BOARDS_ONLY, test_model
from tinyaot.testing.models_conv import RELU, SAME, VALID, _bias, _scales, conv, depthwise, pool
from tinyaot.testing.models_mlperf import RELU6_Q, _add, _fully_connected, _reshape, _softmax
from tinyaot.testing.variants import variant_of

RELU_Q = dict(act=RELU, out_zp=-128, out_scale=4 / 255, spread=100)


@test_model("dnn_kws_float_io", targets=ALL_BOARDS_ONLY)
def dnn_kws_float_io():
    """ARM ML-zoo DNN keyword spotter: 10x25 float features, QUANTIZE, three
    FULLY_CONNECTED 144 with RELU, FULLY_CONNECTED 12, SOFTMAX, DEQUANTIZE."""
    rng = np.random.default_rng(90)
    mb = ModelBuilder()
    x = mb.input("features", "float32", [1, 250])
    q = (0.06, -7)
    h = mb.tensor("features_q", "int8", [1, 250], scale=q[0], zero_point=q[1])
    mb.op("QUANTIZE", [x], [h])
    for _ in range(3):
        out_q = (4 / 255, -128)
        h = _fully_connected(mb, rng, h, q, 144, out_q, act=RELU)
        q = out_q
    logits = _fully_connected(mb, rng, h, q, 12, (0.1, 3))
    p = mb.tensor("probabilities_q", "int8", [1, 12], scale=1 / 256, zero_point=-128)
    mb.op("SOFTMAX", [logits], [p], "SoftmaxOptions", beta=1.0)
    y = mb.output(mb.tensor("probabilities", "float32", [1, 12]))
    mb.op("DEQUANTIZE", [p], [y])
    return mb.build()


@test_model("cnn_kws_small", targets=ALL_BOARDS_ONLY)
def cnn_kws_small():
    """ARM ML-zoo CNN-S keyword spotter: 49x10 features, conv 28 x 10x4, conv 30 x 10x4
    stride 2 (both VALID, RELU), FULLY_CONNECTED 16 (linear), 128 (RELU), 12, SOFTMAX."""
    rng = np.random.default_rng(91)
    mb = ModelBuilder()
    q = (0.5, 10)
    x = mb.input("features", "int8", [1, 49, 10, 1], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 40, 7, 28], (10, 4), padding=VALID, **RELU_Q)
    h, q = conv(mb, rng, h, q, [1, 16, 2, 30], (10, 4), padding=VALID, stride=(2, 2), **RELU_Q)
    h = _reshape(mb, h, [1, 960], q)
    h = _fully_connected(mb, rng, h, q, 16, (0.2, 1))
    h = _fully_connected(mb, rng, h, (0.2, 1), 128, (4 / 255, -128), act=RELU)
    _softmax(mb, _fully_connected(mb, rng, h, (4 / 255, -128), 12, (0.1, 3)), [1, 12])
    return mb.build()


@test_model("magic_wand", targets=ALL_BOARDS_ONLY)
def magic_wand():
    """TFLM's magic-wand gesture CNN: 128x3 accelerometer samples, conv 8 4x3, max-pool 3x3,
    conv 16 4x1, max-pool 3x1, FULLY_CONNECTED 16 (RELU), 4, SOFTMAX."""
    rng = np.random.default_rng(92)
    mb = ModelBuilder()
    q = (0.03, 2)
    x = mb.input("accelerometer", "int8", [1, 128, 3, 1], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 128, 3, 8], (4, 3), **RELU_Q)
    h = pool(mb, "MAX_POOL_2D", h, q, [1, 43, 1, 8], (3, 3), stride=(3, 3))
    h, q = conv(mb, rng, h, q, [1, 43, 1, 16], (4, 1), **RELU_Q)
    h = pool(mb, "MAX_POOL_2D", h, q, [1, 15, 1, 16], (3, 1), stride=(3, 1))
    h = _reshape(mb, h, [1, 240], q)
    h = _fully_connected(mb, rng, h, q, 16, (4 / 255, -128), act=RELU)
    _softmax(mb, _fully_connected(mb, rng, h, (4 / 255, -128), 4, (0.1, -2)), [1, 4])
    return mb.build()


test_model("magic_wand_float32", targets=ALL_BOARDS_ONLY, form=True)(variant_of(magic_wand, "float32"))


def _inverted_residual(mb, rng, h, q, size, expand, out_ch, stride):
    """MobileNetV2 block: 1x1 expansion (RELU6), depthwise 3x3 (RELU6), linear 1x1
    projection, and the residual ADD when shape and stride allow it."""
    in_ch = mb.tensors[h]["shape"][3]
    x, xq = h, q
    if expand != 1:
        h, q = conv(mb, rng, h, q, [1, size * stride, size * stride, in_ch * expand], (1, 1), **RELU6_Q)
    h, q = depthwise(mb, rng, h, q, [1, size, size, mb.tensors[h]["shape"][3]], (3, 3), stride=(stride, stride),
                     **RELU6_Q)
    h, q = conv(mb, rng, h, q, [1, size, size, out_ch], (1, 1), out_zp=3, out_scale=xq[0])
    if stride == 1 and in_ch == out_ch:
        return _add(mb, x, h, (xq[0] * 1.5, 0), 0), (xq[0] * 1.5, 0)
    return h, q


@test_model("fomo_96x96", targets=False)
def fomo_96x96():
    """FOMO-style detector: 96x96x1, MobileNetV2 0.35 (16-channel stem) to stride 8
    (12x12), a 1x1 head of 32 (RELU) and 1x1 to 2 classes, SOFTMAX per cell. Its
    48x48x48 expansion needs more RAM than the QEMU boards have: host only."""
    rng = np.random.default_rng(93)
    mb = ModelBuilder()
    q = (1 / 128, 0)
    x = mb.input("image", "int8", [1, 96, 96, 1], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 48, 48, 16], (3, 3), stride=(2, 2), **RELU6_Q)
    h, q = _inverted_residual(mb, rng, h, q, 48, 1, 8, 1)
    for size, expand, out_ch, stride in ((24, 6, 8, 2), (24, 6, 8, 1), (12, 6, 16, 2), (12, 6, 16, 1)):
        h, q = _inverted_residual(mb, rng, h, q, size, expand, out_ch, stride)
    h, q = conv(mb, rng, h, q, [1, 12, 12, 32], (1, 1), **RELU_Q)
    h, q = conv(mb, rng, h, q, [1, 12, 12, 2], (1, 1), out_zp=-3)
    _softmax(mb, h, [1, 12, 12, 2])
    return mb.build()


def _conv_1d(mb, rng, x, q, out_shape, taps, stride=1):
    """A 1-D convolution over time as CONV_2D 1xK (SAME)."""
    return conv(mb, rng, x, q, out_shape, (1, taps), stride=(1, stride), out_zp=-4)


def _unet_block():
    """Audio U-Net block: 1x64x8 input, 1-D convolutions (CONV_2D 1x5, stride 2 down,
    then 1x3), TRANSPOSE_CONV 1x4 stride 2 back up, ADD of the skip connection, and
    STRIDED_SLICE cropping the edges the convolutions padded."""
    rng = np.random.default_rng(94)
    mb = ModelBuilder()
    q = (0.05, 0)
    x = mb.input("audio", "int8", [1, 1, 64, 8], scale=q[0], zero_point=q[1])
    h, hq = _conv_1d(mb, rng, x, q, [1, 1, 32, 16], 5, stride=2)
    h, hq = _conv_1d(mb, rng, h, hq, [1, 1, 32, 16], 3)
    w_scale, out_scale = _scales(rng, hq[0], 4 * 16 // 2 + 1, 8, True, q[0], 127, 40)
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (8, 1, 4, 16)), scale=w_scale, axis=0)
    up = mb.tensor("up", "int8", [1, 1, 64, 8], scale=out_scale, zero_point=2)
    mb.op("TRANSPOSE_CONV", [mb.const("up_shape", np.array([1, 1, 64, 8], np.int32)), w, h,
                             _bias(mb, rng, 8, hq[0], w_scale, True)], [up], "TransposeConvOptions",
          padding=SAME, stride_h=1, stride_w=2, fused_activation_function=0)
    s = _add(mb, x, up, (0.08, 0), RELU)
    y = mb.output(mb.tensor("cropped", "int8", [1, 1, 60, 8], scale=0.08, zero_point=0))
    ints = [mb.const(f"c{len(mb.tensors)}", np.array(v, np.int32)) for v in ([0, 0, 2, 0], [1, 1, 62, 8], [1] * 4)]
    mb.op("STRIDED_SLICE", [s, *ints], [y], "StridedSliceOptions")
    return mb.build()


test_model("unet_block_16x8", targets=ALL_BOARDS_ONLY)(variant_of(_unet_block, "16x8"))
