"""CONV_2D on cores with the DSP extension (--cpu cortex-m4), bit-exact with TFLM on the host
under ASan/UBSan through the C models of the instructions: tinyaot_conv2d_gather_s8_dsp for
16 or more filters and windows of up to 576 values (pairs in the middle and at the borders, odd widths, strides,
dilation, SAME and VALID, odd filter counts: the last filter alone, windows not a multiple of
4 values, per-tensor and per-channel weights, no bias, a batch of two), and
tinyaot_conv2d_s8 with the pixel pairs' loop of kernels/dsp/tinyaot_conv2d_s8_dsp.h for
grouped filters, fewer filters and larger windows; both kernels' outputs overlapping their input as
overlap.convolution declares."""

import numpy as np
import pytest

from sanitized import check_all_sanitized
from test_depthwise_mult import one_layer_model
from test_overlap_kernels import _run_family, _window_model, check_cases
from tinyaot.compiler import Options, compile_model
from tinyaot.ops.conv import PADDING_SAME as SAME, PADDING_VALID as VALID, out_size
from tinyaot.ops.conv_dsp import gather_filter, gather_fits
from tinyaot.testing import catalog
from tinyaot.testing.models_conv import RELU, RELU6, conv

MODELS = ["conv_pixel_pairs", "conv_edge_shapes", "conv_grouped", "conv_dilation_relu6_no_bias",
          "conv_same_valid_strides"]


def _calls(name, tmp_path):
    model = compile_model(catalog.build(name, tmp_path), Options("m", cpu="cortex-m4"))
    return [c for _, calls in model.calls for c in calls if c.kernel.startswith("tinyaot_conv2d")]


def test_dsp_cores_take_the_gather_kernel_and_the_pair_loop_for_groups(tmp_path):
    assert {c.kernel for c in _calls("conv_pixel_pairs", tmp_path)} == {"tinyaot_conv2d_s8"}  # 5-12 filters
    grouped = _calls("conv_grouped", tmp_path)
    assert [c.kernel for c in grouped] == ["tinyaot_conv2d_s8"]
    assert grouped[0].header == "tinyaot_conv2d_s8_dsp.h"
    assert grouped[0].args[0].fields["pair4"].startswith("TINYAOT_CONV2D_PAIR4_DSP(")
    assert gather_fits(np.zeros((16, 3, 3, 64))) and not gather_fits(np.zeros((16, 3, 3, 65)))
    assert not gather_fits(np.zeros((15, 3, 3, 3)))


def test_gather_filter_rows_padded_to_words():
    w = np.arange(1, 2 * 3 * 3 * 1 + 1).reshape(2, 3, 3, 1)
    assert list(gather_filter(w)) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 10, 11, 12, 13, 14, 15, 16, 17, 18, 0, 0, 0]


# filters: input [b, h, w, c], filter, options, input zero point (one_layer_model's cases)
GATHER = {
    16: ([1, 7, 6, 3], (3, 3), {"act": RELU}, -128),                                      # resnet8's first, 7 values
    17: ([2, 5, 7, 5], (3, 2), {"stride": (2, 2), "per_channel": False}, 127),            # lone last filter, 30 values
    18: ([1, 6, 5, 4], (2, 3), {"dilation": (2, 2), "padding": VALID, "act": RELU6}, 5),
    20: ([1, 4, 9, 16], (3, 3), {"bias": False}, -7),                                      # 144 values, odd width
    21: ([1, 3, 3, 64], (3, 3), {"stride": (1, 2)}, 30),                                   # 576 values: the largest
}


def _gather_model(filters):
    return one_layer_model(GATHER[filters], conv, filters, filters)


def test_gather_cases_take_the_gather_kernel(tmp_path):
    for filters in GATHER:
        path = tmp_path / "m.tflite"
        path.write_bytes(_gather_model(filters))
        (_, (call,)), = compile_model(path, Options("m", cpu="cortex-m4")).calls
        assert call.kernel == "tinyaot_conv2d_gather_s8_dsp", filters


def test_matches_tflm_under_sanitizers(tmp_path):
    models = {name: catalog.build(name, tmp_path).read_bytes() for name in MODELS}
    models.update({filters: _gather_model(filters) for filters in GATHER})
    check_all_sanitized(tmp_path, models, cpu="cortex-m4")


def _many_filters_model(rng, family):
    """_window_model's random convolutions, with 16-20 filters (the gather kernel's)."""
    while True:
        b, h, w, c = (int(rng.integers(1, 3)), *(int(v) for v in rng.integers(1, 8, 2)), int(rng.integers(1, 7)))
        filt = tuple(int(v) for v in rng.integers(1, 4, 2))
        stride, dilation = (tuple(int(v) for v in rng.integers(1, 3, 2)) for _ in range(2))
        padding = int(rng.choice([SAME, VALID]))
        out = [out_size(padding, (h, w)[i], filt[i], stride[i], dilation[i]) for i in range(2)]
        if filt != (1, 1) and min(out) >= 1:
            break
    return one_layer_model(([b, h, w, c], filt, {"stride": stride, "dilation": dilation, "padding": padding},
                            int(rng.integers(-20, 20))), conv, int(rng.integers(16, 21)), int(rng.integers(0, 1000)))


@pytest.mark.parametrize("build", [_window_model, _many_filters_model], ids=["pair-loop", "gather"])
def test_output_overlapping_the_input_as_declared_changes_nothing(build, tmp_path):
    cases = _run_family("conv", None, tmp_path, build=build, options=lambda name: Options(name, cpu="cortex-m4"))
    check_cases("conv", cases, None)
