"""CONV_2D on cores with the DSP extension (--cpu cortex-m4), bit-exact with TFLM on the host
under ASan/UBSan through the C models of the instructions: tinyaot_conv2d_gather_s8_dsp for
windows of up to 576 values (pairs in the middle and at the borders, odd widths, strides,
dilation, SAME and VALID, odd filter counts: the last filter alone, windows not a multiple of
4 values, per-tensor and per-channel weights, no bias, a batch of two), and
tinyaot_conv2d_s8 with the pixel pairs' loop of kernels/dsp/tinyaot_conv2d_s8_dsp.h for
grouped filters and larger windows; both kernels' outputs overlapping their input as
overlap.convolution declares."""

import numpy as np

from test_depthwise_mult import check_all_sanitized
from test_overlap_kernels import _run_family, _window_model, check_cases
from tinyaot.compiler import Options, compile_model
from tinyaot.ops.conv_dsp import gather_filter, gather_fits
from tinyaot.testing import catalog

MODELS = ["conv_pixel_pairs", "conv_edge_shapes", "conv_grouped", "conv_dilation_relu6_no_bias",
          "conv_same_valid_strides"]


def _calls(name, tmp_path):
    model = compile_model(catalog.build(name, tmp_path), Options("m", cpu="cortex-m4"))
    return [c for _, calls in model.calls for c in calls if c.kernel.startswith("tinyaot_conv2d")]


def test_dsp_cores_take_the_gather_kernel_and_the_pair_loop_for_groups(tmp_path):
    for c in _calls("conv_pixel_pairs", tmp_path):
        f = c.args[0].fields
        wide = f["filter_h"] * f["filter_w"] * f["filter_ch"] > 576
        assert c.kernel == ("tinyaot_conv2d_s8" if f["groups"] > 1 or wide else "tinyaot_conv2d_gather_s8_dsp")
    grouped = _calls("conv_grouped", tmp_path)
    assert [c.kernel for c in grouped] == ["tinyaot_conv2d_s8"]
    assert grouped[0].header == "tinyaot_conv2d_s8_dsp.h"
    assert grouped[0].args[0].fields["pair4"].startswith("TINYAOT_CONV2D_PAIR4_DSP(")
    assert gather_fits(np.zeros((8, 3, 3, 64))) and not gather_fits(np.zeros((8, 3, 3, 65)))


def test_gather_filter_rows_padded_to_words():
    w = np.arange(1, 2 * 3 * 3 * 1 + 1).reshape(2, 3, 3, 1)
    assert list(gather_filter(w)) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 10, 11, 12, 13, 14, 15, 16, 17, 18, 0, 0, 0]


def test_matches_tflm_under_sanitizers(tmp_path):
    check_all_sanitized(tmp_path, {name: catalog.build(name, tmp_path).read_bytes() for name in MODELS},
                        cpu="cortex-m4")


def test_output_overlapping_the_input_as_declared_changes_nothing(tmp_path):
    cases = _run_family("conv", None, tmp_path, build=_window_model, options=lambda name: Options(name, cpu="cortex-m4"))
    check_cases("conv", cases, None)
