"""Test models of the MLPerf Tiny architectures, with random int8 weights.

Real-sized networks for the memory planner and the kernels' speed: a DS-CNN
keyword spotter, MobileNetV1 0.25 at 96x96 (visual wake words), a ResNet-8
(image classification) and the fully connected autoencoder (anomaly
detection). Only the shapes follow the reference models; weights are random
and scaled so that activations spread over the int8 range.

On the QEMU boards (256 KB flash): the DS-CNN and MobileNetV1 0.25 96x96x3, and
ResNet-8 on the Cortex-M3 (its 18944-byte arena, with residual fusion, is too big for the M0). The 96x96x1
variant has person_detect's shapes, which already runs there; the autoencoder's
264 KB of weights do not fit the flash.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, bias_for, random_int8
from tinyaot.testing.catalog import M3_ONLY, test_model
from tinyaot.testing.models_activation import SOFTMAX_S8
from tinyaot.testing.models_conv import RELU, RELU6, SAME, VALID, conv, depthwise, pool

RELU6_Q = dict(act=RELU6, out_zp=-128, out_scale=6 / 255, spread=100)  # [0, 6] -> [-128, 127]


def _softmax(mb, x, shape):
    y = mb.tensor("probabilities", "int8", shape, **SOFTMAX_S8)
    mb.op("SOFTMAX", [x], [y], "SoftmaxOptions", beta=1.0)
    return mb.output(y)


def _fully_connected(mb, rng, x, in_q, units, out_q, act=0):
    """FULLY_CONNECTED with per-tensor weights scaled for a ~40-step output spread."""
    depth = mb.tensors[x]["shape"][-1]
    w_scale = np.float32(out_q[0] * 40 / (in_q[0] * np.sqrt(depth) * 74 * 127 / np.sqrt(3)))
    w = mb.const(f"w{len(mb.tensors)}", random_int8(rng, (units, depth)), scale=w_scale)
    bv, bs = bias_for(rng, units, in_q[0], w_scale)
    b = mb.const(f"b{len(mb.tensors)}", bv, scale=bs)
    y = mb.tensor(f"fc{len(mb.tensors)}", "int8", [1, units], scale=out_q[0], zero_point=out_q[1])
    mb.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", fused_activation_function=act)
    return y


def _reshape(mb, x, shape, q):
    y = mb.tensor(f"reshape{len(mb.tensors)}", "int8", shape, scale=q[0], zero_point=q[1])
    mb.op("RESHAPE", [x, mb.const(f"shape{len(mb.tensors)}", np.array(shape, np.int32))], [y],
          "ReshapeOptions", new_shape=shape)
    return y


@test_model("ds_cnn_kws")
def ds_cnn_kws():
    """MLPerf Tiny keyword spotting DS-CNN: 49x10x1 features, a 10x4 stride-2 convolution
    to 64 channels at 25x5, four depthwise 3x3 + pointwise 64 blocks, average pooling,
    a 12-way fully connected layer and softmax."""
    rng = np.random.default_rng(70)
    mb = ModelBuilder()
    q = (0.5, 10)
    x = mb.input("features", "int8", [1, 49, 10, 1], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 25, 5, 64], (10, 4), stride=(2, 2), **RELU6_Q)
    for _ in range(4):
        h, q = depthwise(mb, rng, h, q, [1, 25, 5, 64], (3, 3), **RELU6_Q)
        h, q = conv(mb, rng, h, q, [1, 25, 5, 64], (1, 1), **RELU6_Q)
    h = pool(mb, "AVERAGE_POOL_2D", h, q, [1, 1, 1, 64], (25, 5), padding=VALID)
    h = _reshape(mb, h, [1, 64], q)
    logits = _fully_connected(mb, rng, h, q, 12, (0.1, 3))
    _softmax(mb, logits, [1, 12])
    return mb.build()


def _mobilenet_v1_025(channels, seed):
    """MobileNetV1 with width 0.25 on a 96x96 input, two classes (visual wake words)."""
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    q = (1 / 128, 0)
    x = mb.input("image", "int8", [1, 96, 96, channels], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 48, 48, 8], (3, 3), stride=(2, 2), **RELU6_Q)
    size = 48
    blocks = [(1, 16), (2, 32), (1, 32), (2, 64), (1, 64), (2, 128)] + [(1, 128)] * 5 + [(2, 256), (1, 256)]
    for stride, out_ch in blocks:
        in_ch = mb.tensors[h]["shape"][3]
        size = (size + stride - 1) // stride
        h, q = depthwise(mb, rng, h, q, [1, size, size, in_ch], (3, 3), stride=(stride, stride), **RELU6_Q)
        h, q = conv(mb, rng, h, q, [1, size, size, out_ch], (1, 1), **RELU6_Q)
    h = pool(mb, "AVERAGE_POOL_2D", h, q, [1, 1, 1, 256], (3, 3), padding=VALID)
    h, q = conv(mb, rng, h, q, [1, 1, 1, 2], (1, 1), out_zp=-3)
    _softmax(mb, _reshape(mb, h, [1, 2], q), [1, 2])
    return mb.build()


@test_model("mobilenet_v1_025_96x96x3")
def mobilenet_v1_025_96x96x3():
    return _mobilenet_v1_025(3, 71)


@test_model("mobilenet_v1_025_96x96x1", targets=False)
def mobilenet_v1_025_96x96x1():
    return _mobilenet_v1_025(1, 72)


def _add(mb, a, b, q, act):
    y = mb.tensor(f"add{len(mb.tensors)}", "int8", mb.tensors[a]["shape"], scale=q[0], zero_point=q[1])
    mb.op("ADD", [a, b], [y], "AddOptions", fused_activation_function=act)
    return y


@test_model("resnet8", targets=M3_ONLY)
def resnet8():
    """MLPerf Tiny image classification ResNet-8: 32x32x3, a 3x3 convolution to 16
    channels, three residual stacks (16, 32, 64 channels; the last two stride 2 with a
    1x1 convolution on the shortcut), average pooling, a 10-way fully connected layer."""
    rng = np.random.default_rng(73)
    mb = ModelBuilder()
    q = (1 / 128, 0)
    x = mb.input("image", "int8", [1, 32, 32, 3], scale=q[0], zero_point=q[1])
    relu = dict(act=RELU, out_zp=-128, out_scale=4 / 255, spread=100)
    h, q = conv(mb, rng, x, q, [1, 32, 32, 16], (3, 3), **relu)
    size = 32
    for out_ch, stride in ((16, 1), (32, 2), (64, 2)):
        size //= stride
        shape = [1, size, size, out_ch]
        y, yq = conv(mb, rng, h, q, shape, (3, 3), stride=(stride, stride), **relu)
        y, yq = conv(mb, rng, y, yq, shape, (3, 3), out_zp=2, out_scale=0.05)
        shortcut, sq = h, q
        if stride != 1:
            shortcut, sq = conv(mb, rng, h, q, shape, (1, 1), stride=(stride, stride), out_zp=-1, out_scale=0.04)
        q = (6 / 255, -128)
        h = _add(mb, y, shortcut, q, RELU)
    h = pool(mb, "AVERAGE_POOL_2D", h, q, [1, 1, 1, 64], (8, 8), padding=VALID)
    h = _reshape(mb, h, [1, 64], q)
    _softmax(mb, _fully_connected(mb, rng, h, q, 10, (0.1, 0)), [1, 10])
    return mb.build()


@test_model("fc_autoencoder", targets=False)
def fc_autoencoder():
    """MLPerf Tiny anomaly detection autoencoder: 640 -> 128 x4 -> 8 -> 128 x4 -> 640,
    RELU after every layer but the last."""
    rng = np.random.default_rng(74)
    mb = ModelBuilder()
    q = (0.05, -2)
    h = mb.input("spectrogram", "int8", [1, 640], scale=q[0], zero_point=q[1])
    widths = [128] * 4 + [8] + [128] * 4
    for units in widths:
        out_q = (0.04, -128)
        h = _fully_connected(mb, rng, h, q, units, out_q, act=RELU)
        q = out_q
    mb.output(_fully_connected(mb, rng, h, q, 640, (0.1, 5)))
    return mb.build()
