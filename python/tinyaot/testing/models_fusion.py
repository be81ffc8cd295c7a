"""Test models: a convolution whose output only a FULLY_CONNECTED reads, which band
fusion (passes/fusion.py) computes in bands of output rows inside the FULLY_CONNECTED.

Each model is one such pair (the band height follows from the row's work, see
fusion.MIN_BAND_MACS) and between them they stress the banding: top and bottom
padding (even and odd), strides 1, 2 and 3, dilation, a depth multiplier, 1x1,
grouped and depthwise producers, row counts the band does not divide, 1 to 200
outputs, per-channel and per-tensor weights, input zero points. (Their bands are
capped by RAM, fusion.MAX_BAND_SHARE, so they hold a few rows each.)
"""

import numpy as np

from tinyaot.testing.catalog import test_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.models_basic import fc
from tinyaot.testing.models_conv import RELU, RELU6, SAME, VALID, conv, depthwise


def _pair(seed, in_shape, in_q, layer, units, fc_per_channel, **kwargs):
    """input -> layer(mb, rng, x, q, **kwargs) -> FULLY_CONNECTED of `units` over its flattened output."""
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    x = mb.input("x", "int8", in_shape, scale=in_q[0], zero_point=in_q[1])
    h, q = layer(mb, rng, x, in_q, **kwargs)
    depth = int(np.prod(kwargs["out_shape"]))
    # Outputs spread over some 50 steps for inputs spread over the int8 range (fc's weights: scale about 0.01).
    out_scale = float(q[0]) * 0.0125 * np.sqrt(depth) * 74 * 73 / 50
    mb.output(fc(mb, rng, h, q[0], units, depth, [1, units], out_scale, 3, per_channel=fc_per_channel))
    return mb.build()


@test_model("fusion_depthwise_stride2_multiplier")
def fusion_depthwise_stride2_multiplier():
    """Depthwise 5x3, SAME (2 rows of padding top and bottom), strides 2x2, depth multiplier 2:
    11 output rows in bands of 2 (the last one row); one output, per-tensor."""
    return _pair(70, [1, 21, 12, 3], (0.05, -5), depthwise, 1, False, out_shape=[1, 11, 6, 6],
                 filter_hw=(5, 3), multiplier=2, stride=(2, 2), act=RELU, out_zp=-128)


@test_model("fusion_conv_stride3_dilation", targets=False)
def fusion_conv_stride3_dilation():
    """Convolution 3x3 dilated 2x2, VALID, strides 3x3: 9 output rows in bands of 2 (the last
    band one row); 12 outputs, per-channel."""
    return _pair(71, [1, 31, 10, 4], (0.04, 9), conv, 12, True, out_shape=[1, 9, 2, 16], filter_hw=(3, 3),
                 padding=VALID, stride=(3, 3), dilation=(2, 2), out_zp=-7)


@test_model("fusion_conv_1x1_stride2", targets=False)
def fusion_conv_1x1_stride2():
    """A 1x1 convolution with strides 2x2 (tinyaot_conv2d_1x1_s8): 10 rows in bands of 2; 200
    outputs, per-channel (800 bytes of int32 sums, still less than the 1600-byte output)."""
    return _pair(72, [1, 20, 20, 8], (0.03, 2), conv, 200, True, out_shape=[1, 10, 10, 16], filter_hw=(1, 1),
                 stride=(2, 2), act=RELU6, out_zp=-128)


@test_model("fusion_depthwise_dilation_same", targets=False)
def fusion_depthwise_dilation_same():
    """Depthwise 5x3 dilated 2x1, SAME (4 rows of padding top and bottom), stride 1: 13 rows in
    bands of 3 (the last one row), per-tensor; 4 outputs, per-channel."""
    return _pair(73, [1, 13, 9, 6], (0.05, 0), depthwise, 4, True, out_shape=[1, 13, 9, 6], filter_hw=(5, 3),
                 dilation=(2, 1), per_channel=False, out_zp=5)


@test_model("fusion_conv_odd_padding_grouped", targets=False)
def fusion_conv_odd_padding_grouped():
    """Grouped convolution 4x4 (2 groups), SAME with stride 1 (1 row of padding on top, 2 at the
    bottom): 12 rows in bands of 3; 30 outputs, per-tensor."""
    return _pair(74, [1, 12, 10, 4], (0.05, -20), conv, 30, False, out_shape=[1, 12, 10, 8], filter_hw=(4, 4),
                 filter_ch=2, out_zp=-128, act=RELU)
