"""The per-channel requantization fold (tinyaot_channel_requant_folds and
tinyaot_channel_requantize2_folded_s8 in tinyaot_common.h, taken by the pixel pairs of
tinyaot_conv2d_1x1_s8 and tinyaot_conv2d_s8 where every channel's right shift is 2..24):
bit-exact with TFLM on the host under ASan/UBSan on both sides of that test, per-tensor
(one table entry for all channels) and per-channel, output zero points from -128 to 127
(where the clamp hides no sums), fused RELU6, an odd pixel count, output channels past
the blocks of four. Each case's shifts are checked to take the path it names, so that
neither goes untested."""

import numpy as np
import pytest
from sanitized import check_all_sanitized
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.models_conv import RELU6, conv

# name: input shape, output shape, filter, conv options, folds
CASES = {
    "1x1_per_tensor_folds": ([1, 5, 3, 6], [1, 5, 3, 8], (1, 1),
                             {"per_channel": False, "out_zp": -128, "act": RELU6}, True),
    "1x1_per_channel_folds": ([1, 6, 5, 9], [1, 3, 3, 14], (1, 1),
                              {"stride": (2, 2), "out_zp": 90}, True),
    # weights of +-1 over 3 input channels: a scale above 1/4, right shift 1 or 0
    "1x1_per_channel_no_fold": ([1, 3, 3, 3], [1, 3, 3, 6], (1, 1), {"out_zp": -128, "w_max": 1}, False),
    "1x1_per_tensor_no_fold": ([1, 4, 3, 3], [1, 4, 3, 5], (1, 1),
                               {"per_channel": False, "out_zp": 127, "w_max": 1}, False),
    "conv_per_tensor_folds": ([1, 6, 7, 3], [1, 6, 7, 8], (3, 3),
                             {"per_channel": False, "out_zp": 60, "act": RELU6}, True),
    "conv_per_channel_no_fold": ([1, 6, 6, 2], [1, 6, 6, 4], (1, 2), {"out_zp": -128, "w_max": 1}, False),
}


def _model(name):
    in_shape, out_shape, filt, opts, _ = CASES[name]
    rng = np.random.default_rng(len(name))
    mb = ModelBuilder()
    x = mb.input("x", "int8", in_shape, scale=0.05, zero_point=-7)
    y, _ = conv(mb, rng, x, (0.05, -7), out_shape, filt, **opts)
    mb.output(y)
    return mb.build()


@pytest.mark.parametrize("name", CASES)
def test_each_case_takes_the_path_it_names(name, tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_model(name))
    (_, (call,)), = compile_model(path, Options("m")).calls
    params, multiplier, shift = (call.args[0].fields, call.args[1].values, call.args[2].values)
    folds = bool(np.all(multiplier >= 0) and np.all((shift <= -2) & (shift >= -24)))
    _, out_shape, filt, _, want = CASES[name]
    kernel = "tinyaot_conv2d_1x1_s8" if filt == (1, 1) else "tinyaot_conv2d_s8"
    assert (call.kernel, len(shift), folds) == (kernel, out_shape[3] if params["per_channel"] else 1, want)


def test_matches_tflm_under_sanitizers(tmp_path):
    check_all_sanitized(tmp_path, {name: _model(name) for name in CASES})
