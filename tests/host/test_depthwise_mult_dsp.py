"""tinyaot_depthwise_mult_s8_dsp (kernels/dsp/, --cpu cortex-m4): a one-channel input's
depthwise convolution or CONV_2D with 16 or more output channels, bit-exact with TFLM on
the host under ASan/UBSan through the C models of the instructions: windows whose taps are
not a multiple of 4 (the last word's zero weights), output channels not a multiple of 4
(the last block's), strides, SAME and VALID padding, dilation, per-tensor and
per-channel weights, no bias, RELU/RELU6, a batch of two, input zero points at both
ends of the int8 range, DS-CNN's first layer; its outputs overlapping its input as
overlap.depthwise declares."""

import numpy as np

from test_conv_one_channel import CASES as SMALL
from sanitized import check_all_sanitized
from test_depthwise_mult import _kernels, one_layer_model
from test_overlap_kernels import _run_family, check_cases
from tinyaot.compiler import Options, compile_model
from tinyaot.ops.conv import PADDING_VALID as VALID
from tinyaot.ops.depthwise_dsp import mult_filter
from tinyaot.testing.models_conv import RELU, RELU6, conv, depthwise

# output channels: input [b, h, w, 1], filter, options, input zero point
CASES = {
    16: ([1, 6, 5, 1], (3, 3), {"act": RELU}, 4),
    17: ([1, 7, 6, 1], (3, 2), {"padding": VALID, "stride": (2, 2), "per_channel": False}, -128),
    18: ([2, 5, 7, 1], (2, 3), {"dilation": (2, 2), "act": RELU6}, 127),
    19: ([1, 9, 6, 1], (4, 3), {"stride": (2, 2), "act": RELU, "bias": False}, -3),
    64: ([1, 13, 10, 1], (10, 4), {"stride": (2, 2), "act": RELU}, -100),   # DS-CNN's first layer, shorter
}


def _model(out_ch):
    return one_layer_model(CASES[out_ch], conv, out_ch, out_ch)


def _depthwise_model():
    """DEPTHWISE_CONV_2D on one channel, multiplier 20 (micro_speech's shape, more outputs)."""
    return one_layer_model(([1, 9, 8, 1], (5, 4), {"stride": (2, 2)}, 9), depthwise, 20, 3, multiplier=20)


def _cores(tmp_path, model_bytes):
    path = tmp_path / "m.tflite"
    path.write_bytes(model_bytes)
    return [c.kernel for _, calls in compile_model(path, Options("m", cpu="cortex-m4")).calls for c in calls]


def test_dsp_cores_take_the_kernel_from_16_outputs(tmp_path):
    for out_ch in CASES:
        assert _cores(tmp_path, _model(out_ch)) == ["tinyaot_depthwise_mult_s8_dsp"], out_ch
    assert _cores(tmp_path, _depthwise_model()) == ["tinyaot_depthwise_mult_s8_dsp"]
    for out_ch in [n for n in SMALL if n < 16]:  # fewer outputs: the plain kernel (faster there)
        model = one_layer_model(SMALL[out_ch], conv, out_ch, out_ch)
        assert _cores(tmp_path, model) == _kernels(tmp_path, model) == ["tinyaot_depthwise_mult_s8"], out_ch


def test_filter_in_blocks_of_four_channels_words_of_four_taps():
    w = np.arange(1, 3 * 2 * 5 + 1).reshape(1, 3, 2, 5)  # tap t, channel c: 5 t + c + 1
    table = mult_filter(w).reshape(2, 2, 4, 4)  # [blocks][words][channels][taps]
    assert list(table[0, 0, 1]) == [2, 7, 12, 17] and list(table[1, 1, 0]) == [25, 30, 0, 0]
    assert not table[1, :, 1:].any()


def test_matches_tflm_under_sanitizers(tmp_path):
    models = {out_ch: _model(out_ch) for out_ch in CASES}
    models["depthwise"] = _depthwise_model()
    check_all_sanitized(tmp_path, models, cpu="cortex-m4")


def _one_channel_model(rng, family):
    """A random one-channel CONV_2D with 16-24 filters and a window of 1-4 x 1-4 taps."""
    b, h, w = (int(rng.integers(1, 3)), *(int(v) for v in rng.integers(2, 8, 2)))
    filt = tuple(int(v) for v in rng.integers(1, 5, 2))
    out_ch = int(rng.integers(16, 25))
    stride = tuple(int(v) for v in rng.integers(1, 3, 2))
    return one_layer_model(([b, h, w, 1], filt, {"stride": stride}, int(rng.integers(-20, 20))), conv, out_ch,
                           int(rng.integers(0, 1000)))


def test_output_overlapping_the_input_as_declared_changes_nothing(tmp_path):
    cases = _run_family("conv_one_channel", None, tmp_path, build=_one_channel_model,
                        options=lambda name: Options(name, cpu="cortex-m4"))
    check_cases("conv_one_channel", cases, None)
