"""CONV_2D on Helium (MVE) cores (--cpu cortex-m55): tinyaot_conv2d_s8_mve for every layer
without groups but 1x1, bit-exact with TFLM on the host under ASan/UBSan through the C models
of tinyaot_mve.h: the first layers that carry the time (3x3 stride 2 on 3 channels as
MobileNet's, DS-CNN's 10x4 and micro_speech's 10x8 DEPTHWISE_CONV_2D on one channel, smaller), the DSP gather
kernel's cases (borders, odd widths, strides, dilation, SAME and VALID, windows cut inside a
vector, per-tensor weights, no bias, a batch of two), images of fewer than four pixels (the
last quad repeats a pixel), a band-fused layer; and its output overlapping its input as
overlap.convolution declares."""

import numpy as np

from test_conv2d_dsp import GATHER
from sanitized import check_all_sanitized
from test_depthwise_mult import one_layer_model
from test_overlap_kernels import _run_family, _window_model, check_cases
from tinyaot.compiler import Options, compile_model
from tinyaot.ops.base import ScratchRef
from tinyaot.ops.conv import PADDING_VALID as VALID
from tinyaot.testing import catalog
from tinyaot.testing.models_conv import RELU, RELU6, conv, depthwise

# (the gather cases below have the strides, SAME and VALID)
MODELS = ["conv_edge_shapes", "conv_dilation_relu6_no_bias", "fusion_conv_stride3_dilation"]

# name: (input [b, h, w, c], filter, options, input zero point), filters (one_layer_model's cases)
FIRST_LAYERS = {
    "mobilenet": (([1, 11, 9, 3], (3, 3), {"stride": (2, 2), "act": RELU6}, -128), 8),
    "ds_cnn": (([2, 9, 5, 1], (10, 4), {"stride": (2, 2), "per_channel": False}, 5), 5),
    "three_pixels": (([1, 1, 3, 2], (2, 2), {"bias": False}, 127), 3),
    "one_pixel": (([1, 3, 3, 5], (3, 3), {"padding": VALID}, -3), 4),
}
# micro_speech's layer: a DEPTHWISE_CONV_2D of one input channel, multiplier 8
MICRO_SPEECH = ([1, 13, 10, 1], (10, 8), {"stride": (2, 2), "act": RELU}, -128)


def _models():
    models = {f"gather{filters}": one_layer_model(GATHER[filters], conv, filters, filters) for filters in GATHER}
    models.update({name: one_layer_model(case, conv, filters, 7) for name, (case, filters) in FIRST_LAYERS.items()})
    models["micro_speech"] = one_layer_model(MICRO_SPEECH, depthwise, 8, 7, multiplier=8)
    return models


def _calls(path, kernels="portable"):
    model = compile_model(path, Options("m", cpu="cortex-m55", kernels=kernels))
    return [c for _, calls in model.calls for c in getattr(calls[0], "body", calls)]


def test_mve_cores_take_the_mve_kernel_with_a_scratch_of_four_windows(tmp_path):
    for name, model in _models().items():
        path = tmp_path / "m.tflite"
        path.write_bytes(model)
        (call,) = _calls(path)
        shape = next(a for a in call.args if hasattr(a, "fields")).fields
        assert call.kernel == "tinyaot_conv2d_s8_mve", name
        depth = shape["filter_h"] * shape["filter_w"] * shape["input_ch"]
        staged = shape["input_ch"] % 16 != 0  # a fifth window, staged, unless rows fall on 16-byte chunks
        assert call.scratch == [(4 + staged) * 16 * -(-depth // 16)], name
        assert call.args[-1] == ScratchRef(0, "int8_t")
    kernels = {c.kernel for c in _calls(catalog.build("conv_grouped", tmp_path))}
    assert kernels == {"tinyaot_conv2d_s8"}  # groups: the portable kernel's


def test_tables_are_filter_pairs_in_chunks_and_a_requantization_row_per_filter(tmp_path):
    """DS-CNN's first layer shape, 5 filters (an odd last one), per-tensor: the filters as
    [pair][chunk][filter][16] (a 10x4x1 window: 40 weights, 3 chunks, the last 8 lanes zero;
    the fifth filter's partner zeros), rows {folded bias, multiplier, left, right shift}, the
    partner's zeros; no multiplier or shift tables."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_models()["ds_cnn"])
    (call,) = _calls(path)
    assert call.args[1:3] == ["NULL", "NULL"]
    weights = next(t for t in compile_model(path, Options("m")).graph.tensors
                   if t.data is not None and t.shape == (5, 10, 4, 1)).data.reshape(5, 40)
    expected = np.zeros((6, 48), np.int8)
    expected[:5, :40] = weights
    pairs = call.args[4].values.reshape(3, 3, 2, 16)
    assert (pairs.transpose(0, 2, 1, 3).reshape(6, 48) == expected).all()
    rows = call.args[5].values.reshape(6, 4)
    assert (rows[5] == 0).all() and (rows[:5, 1] == rows[0, 1]).all() and rows[0, 1] > 0
    assert (rows[:5, 2] >= 0).all() and (rows[:5, 3] <= 0).all() and (rows[:5, 2] * rows[:5, 3] == 0).all()


def test_matches_tflm_under_sanitizers(tmp_path):
    models = {name: catalog.build(name, tmp_path).read_bytes() for name in MODELS}
    models.update(_models())
    check_all_sanitized(tmp_path, models, cpu="cortex-m55")


def test_output_overlapping_the_input_as_declared_changes_nothing(tmp_path):
    cases = _run_family("conv", None, tmp_path, build=_window_model,
                        options=lambda name: Options(name, cpu="cortex-m55"))
    check_cases("conv", cases, None)


def test_cmsis_nn_takes_a_one_channel_depthwise_as_a_convolution(tmp_path):
    """--kernels cmsis-nn on MVE: micro_speech's layer (8 outputs, where CMSIS-NN's wrapper keeps
    arm_depthwise_conv_s8) is arm_convolve_s8 on the filter transposed at build time, with that
    kernel's scratch. (The host's CMSIS-NN has no MVE paths: the board runs it, tinyaot bench.)"""
    path = tmp_path / "m.tflite"
    path.write_bytes(_models()["micro_speech"])
    (call,) = _calls(path, kernels="cmsis-nn")
    assert (call.kernel, call.args[-1], call.args[0].fields["input_c"]) == (
        "tinyaot_cmsis_conv_s8", "tinyaot_cmsis_convolve_s8", 1)
    assert call.scratch == [4 * 10 * 8]  # arm_convolve_s8_get_buffer_size_mve: 4 windows of whole vectors
    filters = call.args[5].values.reshape(8, 10, 8)
    model_filter = next(t for t in compile_model(path, Options("m")).graph.tensors if t.data is not None
                        and t.shape == (1, 10, 8, 8))
    assert (filters == model_filter.data[0].transpose(2, 0, 1)).all()
