"""Every model compiles, runs on the host and matches TFLM bit for bit."""

import json
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_MODEL_NAMES, shared_model
from tinyaot.backends.cmsis_nn import PORTABLE_ON_SCALAR
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import compare_with_tflm
from tinyaot.testing import catalog

STATEFUL = {"tflm_keyword_scrambled"}


def check_against_tflm(path, name, out_dir, calls=20, sanitize=False, inputs_in_arena=False, zero_copy=True,
                       kernels="portable", optimize="speed", cpu="cortex-m3", cmsis_nn_1x1="auto",
                       cmsis_nn_conv="auto", cmsis_nn_lstm="auto"):
    path, out_dir = Path(path), Path(out_dir)
    model = compile_model(path, Options(name, inputs_in_arena=inputs_in_arena, kernels=kernels, optimize=optimize,
                                        cpu=cpu, cmsis_nn_1x1=cmsis_nn_1x1, cmsis_nn_conv=cmsis_nn_conv,
                                        cmsis_nn_lstm=cmsis_nn_lstm))
    emit(model, out_dir)
    report = json.loads((out_dir / f"{name}.json").read_text())
    # The planner's figures must hold: arena at or below the classic lower bound, at the
    # overlap-aware one or a note saying why not.
    assert report["lower_bound"] == model.lower_bound and report["overlap_bound"] == model.plan.overlap_bound
    assert report["overlap_bound"] <= report["arena_size"] <= model.lower_bound
    assert report["arena_size"] == report["overlap_bound"] or report["notes"]
    with HostModel(out_dir, name, sanitize=sanitize, zero_copy=zero_copy) as host:
        def run(inputs):
            for i, x in enumerate(inputs):
                host.set_input(i, x)
            host.run()
            return [host.get_output(i) for i in range(len(host.outputs))]

        stateful = name in STATEFUL or any(t.is_variable for t in model.graph.tensors)
        mismatches = compare_with_tflm(path, run, host.inputs, calls=calls, reset_between=not stateful)
        if not stateful:
            host.reset()
    for call, i, expected, got in mismatches[:3]:
        diff = np.abs(expected.astype(np.int64).reshape(-1) - np.asarray(got).astype(np.int64).reshape(-1))
        print(f"call {call} output {i}: {np.count_nonzero(diff)} values differ, max by {diff.max()}")
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM"


@pytest.mark.parametrize("name", catalog.names())
def test_own_model_matches_tflm(name, own_model, tmp_path):
    check_against_tflm(own_model(name), name, tmp_path)


@pytest.mark.parametrize("name", SHARED_MODEL_NAMES)
def test_published_model_matches_tflm(name, tmp_path):
    path = shared_model(name)
    calls = 10 if name in STATEFUL else 20
    check_against_tflm(path, name, tmp_path, calls=calls)


@pytest.mark.parametrize("zero_copy", [True, False], ids=["written-in-arena", "copied-in"])
@pytest.mark.parametrize("name", ["tflm_micro_speech_quantized", "tflm_person_detect_int8"])
def test_inputs_in_arena_match_tflm(name, zero_copy, tmp_path):
    check_against_tflm(shared_model(name), name, tmp_path, calls=5, inputs_in_arena=True, zero_copy=zero_copy)
    report = json.loads((tmp_path / f"{name}.json").read_text())
    # The input now counts against the arena; without overlaps (the classic lower bound) that
    # equals TFLM's own planned activation area, and outputs written over inputs save more.
    assert report["lower_bound"] == {"tflm_micro_speech_quantized": 5968, "tflm_person_detect_int8": 55296}[name]
    # micro_speech: its depthwise output (4000 bytes) is fused into the FULLY_CONNECTED in bands (passes/fusion.py).
    assert report["arena_size"] == {"tflm_micro_speech_quantized": 2640, "tflm_person_detect_int8": 36880}[name]
    assert report["inputs"][0]["arena_offset"] is not None


@pytest.mark.parametrize("optimize", ["speed", "size"])  # QUANTIZE by threshold table, and by division
def test_float_input_in_arena_takes_its_int8_form_in_place(optimize, own_model, tmp_path):
    # dnn_kws_float_io: float32 features (1000 B) -> QUANTIZE -> int8 (250 B) -> FULLY_CONNECTED...:
    # the int8 form is written over the float input as it is read, so the arena holds the input alone.
    check_against_tflm(own_model("dnn_kws_float_io"), "m", tmp_path, calls=5, inputs_in_arena=True, optimize=optimize)
    report = json.loads((tmp_path / "m.json").read_text())
    assert (report["lower_bound"], report["arena_size"]) == (1264, 1008)


@pytest.mark.parametrize("name", ["reshape_views", "fc_relu_per_tensor", "mini_mobilenet"])
def test_own_models_with_inputs_in_arena_match_tflm(name, own_model, tmp_path):
    check_against_tflm(own_model(name), name, tmp_path, inputs_in_arena=True, zero_copy=False)


# The float32 and 16x8 forms would run the portable kernels again (16x8 convolutions: below).
# --cmsis-nn-conv im2col keeps CMSIS-NN's convolutions under test where auto, on this core, would keep
# tinyaot's for a smaller arena; the keyword spotter and ResNet-8 take auto, as a user's build does:
# (operators kept on tinyaot_conv2d_s8, arena with them, arena with arm_convolve_s8's scratch).
ARENA_CONVOLUTIONS = {"cnn_kws_small": ([1], 2928, 7408), "resnet8": ([1, 2, 4, 5], 18944, 20096)}


@pytest.mark.parametrize("name", catalog.names(forms=False))
def test_own_model_with_cmsis_nn_matches_tflm(name, own_model, tmp_path, cmsis_nn):
    auto = name in ARENA_CONVOLUTIONS
    check_against_tflm(own_model(name), name, tmp_path, calls=5, kernels="cmsis-nn",
                       cmsis_nn_conv="auto" if auto else "im2col")
    if auto:
        kept, arena, with_scratch = ARENA_CONVOLUTIONS[name]
        report = json.loads((tmp_path / f"{name}.json").read_text())
        assert report["arena_size"] == arena
        assert (f"on tinyaot_conv2d_s8 instead of arm_convolve_s8, whose scratch would raise the arena: {arena} "
                f"bytes instead of {with_scratch}") in " ".join(report["notes"])
        assert f"{', '.join(map(str, kept))} on tinyaot_conv2d_s8" in " ".join(report["notes"])


# 16x8 layers on CMSIS-NN (backends/cmsis_nn_s16.py): convolutions on arm_convolve_s16 (strides,
# padding, dilation, no bias, per-tensor weights, a batch of two), fully connected layers with
# per-tensor weights on arm_fully_connected_s16; grouped filters and per-channel fully connected
# weights stay portable, saying why; a residual block's arm_convolve_s16 calls cut into bands.
@pytest.mark.parametrize("name, op_type, on_cmsis_nn", [
    ("conv_same_valid_strides_16x8", "CONV_2D", True), ("conv_dilation_relu6_no_bias_16x8", "CONV_2D", True),
    ("conv_grouped_16x8", "CONV_2D", False), ("fc_relu_per_tensor_16x8", "FULLY_CONNECTED", True),
    ("fc_batched_per_channel_relu6_16x8", "FULLY_CONNECTED", False),
    ("residual_u_first_remainder_16x8", "CONV_2D", True)])
def test_16x8_layers_with_cmsis_nn_match_tflm(name, op_type, on_cmsis_nn, own_model, tmp_path, cmsis_nn):
    check_against_tflm(own_model(name), name, tmp_path, calls=5, kernels="cmsis-nn")
    report = json.loads((tmp_path / f"{name}.json").read_text())
    layers = [op for op in report["operators"] if op["type"] == op_type]
    assert layers and all((op["backend"] == "cmsis-nn") == on_cmsis_nn for op in layers), layers


# The other 16x8 operators TFLM's CMSIS-NN glue sends to CMSIS-NN, in one model (cmsis_nn_s16_kinds_16x8):
# each on its s16 kernel, bit-exact with TFLM, the average pool's scratch planned (DSP cores only). On
# the M3 the depthwise layers keep tinyaot's kernel, the faster there (cmsis_nn_s16.DEPTHWISE_ON_SCALAR;
# arm_depthwise_conv_s16 runs bit-exact on a DSP core's path in test_cmsis_nn_overlap.py).
CMSIS_NN_S16_KERNELS = {"ADD": "tinyaot_cmsis_add_s16", "MUL": "tinyaot_cmsis_mul_s16",
                        "AVERAGE_POOL_2D": "tinyaot_cmsis_pool_s16", "MAX_POOL_2D": "tinyaot_cmsis_pool_s16",
                        "SOFTMAX": "tinyaot_cmsis_softmax_s16"}


def test_16x8_kinds_on_cmsis_nn_s16_kernels_match_tflm(own_model, tmp_path, cmsis_nn):
    check_against_tflm(own_model("cmsis_nn_s16_kinds_16x8"), "m", tmp_path, calls=3, kernels="cmsis-nn")
    report = json.loads((tmp_path / "m.json").read_text())
    kernels = sorted((op["type"], op["backend"], op["kernels"][0]) for op in report["operators"])
    portable_depthwise = ("DEPTHWISE_CONV_2D", "portable", "tinyaot_depthwise_conv2d_s16")
    assert kernels == sorted([portable_depthwise] * 2 + [(t, "cmsis-nn", CMSIS_NN_S16_KERNELS[t]) for t in
                             ["AVERAGE_POOL_2D", "MAX_POOL_2D", "ADD", "MUL", "SOFTMAX", "SOFTMAX"]])
    assert all(op["backend_reason"].startswith("tinyaot_depthwise_conv2d_s16 is faster than arm_depthwise_conv_s16")
               for op in report["operators"] if op["type"] == "DEPTHWISE_CONV_2D")


def test_16x8_add_with_zero_points_stays_portable_on_cmsis_nn(own_model, tmp_path, cmsis_nn):
    # arm_elementwise_add_s16 ignores offsets: TFLM + CMSIS-NN would differ from TFLM there.
    check_against_tflm(own_model("add_16x8"), "m", tmp_path, calls=1, kernels="cmsis-nn")
    report = json.loads((tmp_path / "m.json").read_text())
    same_shape_add = next(op for op in report["operators"] if op["type"] == "ADD")
    assert same_shape_add["backend"] == "portable"
    assert "ignores offsets" in same_shape_add["backend_reason"], same_shape_add


@pytest.mark.parametrize("name", SHARED_MODEL_NAMES)
def test_published_model_with_cmsis_nn_matches_tflm(name, tmp_path, cmsis_nn):
    check_against_tflm(shared_model(name), name, tmp_path, calls=5, kernels="cmsis-nn")
    report = json.loads((tmp_path / f"{name}.json").read_text())
    # Every convolution and fully connected layer of the published models is one CMSIS-NN supports;
    # on this core (no DSP) the backend keeps only the portable kernels it names as faster.
    # (A convolution fused into its FULLY_CONNECTED runs in that one's step: no kernels of its own.)
    for op in report["operators"]:
        if op["type"] in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED") and op["kernels"]:
            if op["backend"] == "portable" and "+" in op["kernels"][0]:  # a fusion: its first layer's reason
                why = PORTABLE_ON_SCALAR[op["kernels"][0].split("+")[0]]
                assert op["backend_reason"].endswith(f"(on portable kernels: {why})"), op
            elif op["backend"] == "portable":
                assert op["backend_reason"] == PORTABLE_ON_SCALAR[op["kernels"][0]], op
            else:
                assert op["backend"] == "cmsis-nn" and op["kernels"][0].startswith("tinyaot_cmsis_"), op
