"""tinyaot_depthwise_mult_s8 (depthwise with a depth multiplier above 1) across its parameter
space, bit-exact with TFLM on the host under ASan/UBSan: every chunk size (multipliers 2..9,
13 = 8 + 4 + 1, 16), input depth 1 (the whole-window path with the folded bias) and more,
odd channel counts, 1-pixel outputs, windows larger than the input (large paddings), every
stride up to 3, dilation, heights and widths of 1, batches, per-tensor weights, input
zero points at both ends of the int8 range (input values plus offset reach +-255). (TFLM
crashes preparing a depthwise convolution without bias, so that case has no oracle.)"""

from functools import partial

import numpy as np
import pytest

from sanitized import check_all_sanitized
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.conv import PADDING_SAME as SAME, PADDING_VALID as VALID, out_size
from tinyaot.testing.models_conv import RELU, RELU6, conv, depthwise


# multiplier: input [b, h, w, c], filter, options (padding, stride, dilation, act, per_channel, bias),
# input zero point
CASES = {
    2: ([1, 5, 4, 3], (3, 3), {"dilation": (2, 1)}, -5),
    3: ([1, 1, 1, 1], (3, 3), {}, 0),                                   # 1x1 input, 1-pixel output
    4: ([2, 6, 7, 1], (2, 5), {"padding": VALID, "stride": (3, 2)}, 3),
    5: ([1, 3, 1, 2], (5, 1), {"per_channel": False}, -128),            # width 1
    6: ([1, 1, 9, 1], (1, 4), {"stride": (1, 3)}, 127),                 # height 1
    7: ([1, 4, 4, 1], (7, 7), {"act": RELU}, -100),                     # window past the input on every side
    8: ([1, 9, 8, 1], (4, 3), {"stride": (2, 2), "act": RELU}, -128),   # micro_speech's case, smaller
    9: ([1, 5, 5, 3], (3, 3), {"stride": (2, 2), "dilation": (2, 2), "act": RELU6}, 20),
    13: ([1, 4, 5, 1], (3, 2), {}, 127),
    16: ([1, 3, 3, 2], (2, 2), {"padding": VALID, "per_channel": False}, -1),
}


def one_layer_model(case, layer, out_ch, seed, **layer_options):
    """A model of one `layer` (models_conv's depthwise or conv) for a case as in CASES."""
    shape, filt, opts, zp = case
    opts = dict(opts)
    padding, stride, dilation = opts.pop("padding", SAME), opts.get("stride", (1, 1)), opts.get("dilation", (1, 1))
    out_hw = [out_size(padding, shape[1 + i], filt[i], stride[i], dilation[i]) for i in range(2)]
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    q = (0.05, zp)
    x = mb.input("x", "int8", shape, scale=q[0], zero_point=zp)
    y, _ = layer(mb, rng, x, q, [shape[0], *out_hw, out_ch], filt, padding=padding,
                 out_zp=int(rng.integers(-20, 20)), **opts, **layer_options)
    mb.output(y)
    return mb.build()


def _model(mult):
    return one_layer_model(CASES[mult], depthwise, CASES[mult][0][3] * mult, mult, multiplier=mult)


def _kernels(tmp_path, model_bytes):
    path = tmp_path / "m.tflite"
    path.write_bytes(model_bytes)
    model = compile_model(path, Options("m"))
    return [c.kernel for _, calls in model.calls for c in calls]


def test_multipliers_above_one_take_the_shared_kernel(tmp_path):
    for mult in CASES:
        assert _kernels(tmp_path, _model(mult)) == ["tinyaot_depthwise_mult_s8"], mult


def test_matches_tflm_under_sanitizers(tmp_path):
    check_all_sanitized(tmp_path, {mult: _model(mult) for mult in CASES})


@pytest.mark.parametrize("taps, fits", [(180 * 182, True), (182 * 182, False)])
def test_windows_whose_sums_could_leave_int32_keep_the_general_kernels(taps, fits, tmp_path):
    """sum(x * (w + 128)) over the window stays below 2^31 up to 33025 taps (255 * 255 each);
    the same limit for CONV_2D on one input channel (see test_conv_one_channel.py)."""
    for layer, general in ((partial(depthwise, multiplier=2), "tinyaot_depthwise_conv2d_s8"),
                           (conv, "tinyaot_conv2d_s8")):
        mb = ModelBuilder()
        x = mb.input("x", "int8", [1, taps // 182, 182, 1], scale=0.05, zero_point=0)
        y, _ = layer(mb, np.random.default_rng(0), x, (0.05, 0), [1, 1, 1, 2], (taps // 182, 182), padding=VALID)
        mb.output(y)
        assert _kernels(tmp_path, mb.build()) == ["tinyaot_depthwise_mult_s8" if fits else general], general
