"""tinyaot_depthwise_conv2d_s8's border windows (windows partly outside the input: they
start from the plain bias and add the input offset to each input value they read),
bit-exact with TFLM on the host under ASan/UBSan: inputs 1 to 3 pixels wide or high,
paddings larger than the input, strides 1 and 2 (the 3x3 pixel pairs next to the border),
the 3x3 pixel pairs whose first or last column lies outside (read as the zero point),
dilation, per-tensor and per-channel weights, channel counts that are not a multiple of 4
(the 1-channel remainder), pairs of more channels than one chunk of sums (up to 128;
130 go one pixel at a time), pairs whose requantization does not fold (scales of 1/4 and
up), input zero points at both ends of the int8 range,
multipliers 4 and 8 on windows too large for tinyaot_depthwise_mult_s8 (the general
kernel's shared-input blocks), and a weight sum beyond int16 (no fold: the plain bias)."""

import numpy as np

from sanitized import check_all_sanitized
from test_depthwise_mult import _kernels
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.conv import PADDING_SAME as SAME, PADDING_VALID as VALID, _depthwise_bias, out_size
from tinyaot.testing.models_conv import RELU, RELU6, depthwise

# input [b, h, w, c], filter, options (padding, stride, dilation, act, per_channel), input zero point, multiplier
CASES = [
    ([1, 25, 3, 7], (3, 3), {}, -128, 1),                                   # DS-CNN-like, 3 wide, 7 channels
    ([1, 2, 1, 4], (3, 3), {"per_channel": False}, 127, 1),                 # 1 wide: border only
    ([1, 1, 2, 5], (3, 3), {"stride": (2, 2), "act": RELU}, 0, 1),
    ([1, 5, 6, 9], (3, 3), {"stride": (2, 2), "act": RELU6}, 12, 1),        # pairs at stride 2 beside the border
    ([1, 4, 5, 6], (3, 3), {"stride": (1, 2), "per_channel": False}, -40, 1),   # pair from column -1
    ([1, 3, 8, 5], (3, 3), {"stride": (2, 2), "act": RELU}, 90, 1),         # pair to column 8 (past the input)
    ([1, 3, 4, 6], (3, 3), {}, -128, 1),                                    # pairs from column -1 and to column 4
    ([1, 4, 2, 4], (3, 3), {}, 5, 1),                                       # 2 wide: no pair
    ([1, 3, 3, 3], (7, 7), {}, 100, 1),                                     # padding 3 on every side
    ([1, 6, 4, 10], (3, 3), {"dilation": (2, 2)}, -9, 1),
    ([2, 3, 2, 2], (5, 3), {"stride": (2, 1), "dilation": (1, 2), "act": RELU}, 33, 1),
    ([1, 5, 3, 8], (2, 2), {"padding": VALID}, -1, 1),                      # no border: the folded bias
    ([1, 2, 2, 1], (182, 182), {}, -128, 4),                                # window far past the input
    ([1, 3, 1, 2], (2, 16513), {"stride": (2, 1), "per_channel": False}, 127, 8),
    ([1, 4, 3, 3], (18, 18), {"big_sum": True}, -77, 1),                    # a weight sum beyond int16: unfolded
    ([1, 3, 6, 70], (3, 3), {}, 7, 1),                                      # pair sums in two chunks, both edges
    ([1, 4, 7, 128], (3, 3), {"stride": (2, 2), "act": RELU6}, -128, 1),    # the widest pairs: two full chunks
    ([1, 3, 3, 130], (3, 3), {}, 3, 1),                                     # too wide for pairs: one pixel at a time
    ([1, 4, 6, 12], (3, 3), {"w_max": 1, "spread": 60}, -3, 1),             # scales near 1/2: pairs not folded
]


def _model(case):
    return _cases_model([case])


def _cases_model(cases):
    """The cases side by side in one model (an input and an output each): one compile for all."""
    mb = ModelBuilder()
    for case in cases:
        _add_case(mb, case)
    return mb.build()


def _add_case(mb, case):
    shape, filt, opts, zp, mult = CASES[case]
    opts = dict(opts)
    big_sum = opts.pop("big_sum", False)
    padding, stride, dilation = opts.pop("padding", SAME), opts.get("stride", (1, 1)), opts.get("dilation", (1, 1))
    out_hw = [out_size(padding, shape[1 + i], filt[i], stride[i], dilation[i]) for i in range(2)]
    rng = np.random.default_rng(100 + case)
    x = mb.input(f"x{case}", "int8", shape, scale=0.05, zero_point=zp)
    y, _ = depthwise(mb, rng, x, (0.05, zp), [shape[0], *out_hw, shape[3] * mult], filt, multiplier=mult,
                     padding=padding, out_zp=int(rng.integers(-20, 20)), **opts)
    if big_sum:  # channel 0's 324 weights all 120
        w = mb.operators[-1]["inputs"][1]
        data = mb.constant_data(w).copy()
        data[..., 0] = 120
        mb.set_constant_data(w, data)
    mb.output(y)


def test_border_cases_take_the_general_kernel(tmp_path):
    for case in range(len(CASES)):
        assert _kernels(tmp_path, _model(case)) == ["tinyaot_depthwise_conv2d_s8"], CASES[case]


def test_weight_sums_pack_two_to_a_word_unless_one_leaves_int16():
    weights = np.array([1, -2, 32767, -32768, 5], np.int64).reshape(1, 1, 1, 5)
    table, packed = _depthwise_bias(None, weights, 3)
    assert packed == 1 and list(table.values) == [3, -6, 98301, -98304, 15,
                                                  0xFFFE0001 - 2**32, 0x8000_7FFF - 2**32, 5]
    big = np.full((1, 1, 2, 3), 127, np.int64)
    big[0, 0, :, 1] = [32767, 1]
    table, packed = _depthwise_bias(None, big, 3)
    assert packed == 0 and list(table.values) == [0, 0, 0]


def test_border_windows_match_tflm_under_sanitizers(tmp_path):
    every = _cases_model(range(len(CASES)))
    assert _kernels(tmp_path, every) == ["tinyaot_depthwise_conv2d_s8"] * len(CASES)  # as one by one
    check_all_sanitized(tmp_path, {"cases": every})
