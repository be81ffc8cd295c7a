"""Every model on every board (a sample where conftest says why, unless TINYAOT_TARGET_ALL_BOARDS=1):
bit-exact against TFLite Micro over the serial runner."""

import os
import re

import numpy as np
import pytest

from conftest import shared_model
from tinyaot import harness
from tinyaot.frontend.tflite_reader import read_tflite
from tinyaot.host.oracle import ulps
from tinyaot.testing import catalog

CALLS = 20
FORM_CALLS = 5  # a float32 or 16x8 form: the host tests run its arithmetic at length
SEED = 1234
# How far newlib's expf on the boards takes a float32 SOFTMAX or LOGISTIC output from TFLM
# with glibc's on the host, in ulps: measured on the catalog's float32 forms (SOFTMAX 4 in
# softmax_scales_float32's 40-wide rows, 2 in the DS-CNN's) and test_float_on_target.py (EXP).
EXPF_ULP_BOUND = {"SOFTMAX": 4, "LOGISTIC": 2, "EXP": 1}


def expf_outputs(model_path):
    """{output index: ulp bound} of the float32 outputs that SOFTMAX or LOGISTIC compute
    with expf: newlib's on the boards is not glibc's, which the oracle on the host uses
    (see test_float_on_target.py). Their inputs, and every other output, are bit-exact."""
    graph = read_tflite(model_path)
    made_by = {t: op.type for op in graph.operators for t in op.outputs}
    return {i: EXPF_ULP_BOUND[made_by[t]] for i, t in enumerate(graph.outputs)
            if graph.tensors[t].dtype == "float32" and made_by.get(t) in EXPF_ULP_BOUND}


def check_against_tflm(dev, model_path, calls, seed, reset_between):
    """Runs compare_with_tflm with the device as candidate; returns the run figures.
    Bit-exact, but for expf_outputs: within their ulp bound."""
    bounds = expf_outputs(model_path)
    mismatches, figures = dev.compare_with_tflm(model_path, calls=calls, seed=seed, reset_between=reset_between)
    mismatches = [m for m in mismatches if m[1] not in bounds or np.any(np.signbit(m[2]) != np.signbit(m[3]))
                  or ulps(m[2], m[3]).max() > bounds[m[1]]]
    assert not mismatches, (
        f"{len(mismatches)} of {calls} calls differ from TFLM; first: call {mismatches[0][0]},"
        f" output {mismatches[0][1]}: expected {mismatches[0][2]}, got {mismatches[0][3]}")
    assert len(figures) == calls
    return figures


def fitting_firmware(target, board, name, path, kernels="portable", weights="linked", generator_args=()):
    """The firmware for a model, with its inputs in the arena if that is what it takes to fit."""
    try:
        return target.firmware(board, name=name, model=path, kernels=kernels, weights=weights,
                               generator_args=generator_args)
    except harness.ModelTooBig:
        try:  # less RAM: the inputs inside the arena
            return target.firmware(board, name=name, model=path, inputs_in_arena=True, kernels=kernels,
                                   weights=weights, generator_args=generator_args)
        except harness.ModelTooBig as exc:
            pytest.skip(f"does not fit {board}: {exc}")


def test_bit_exact(target, target_model):
    board, name, path = target_model
    path = path or shared_model(name)
    fw = fitting_firmware(target, board, name, path)
    with target.open(fw, run_timeout=300) as dev:
        info = dev.info()
        assert info.name == name
        assert info.io_ok, f"I/O tensors need {info.io_needed} bytes, runner has {info.io_buffer_size}"
        assert info.arena_size == fw.model_json()["arena_size"]
        stateful = info.state_size > 0
        calls = FORM_CALLS if name in catalog.FORMS else CALLS
        figures = check_against_tflm(dev, path, calls, SEED, reset_between=True)
    assert all(f.status == 0 for f in figures)
    assert all(f.stack_bytes > 0 for f in figures)
    if not stateful:
        # The same code on the same emulated core: cost must not depend on data much,
        # and it must have been counted at all.
        assert min(f.cycles for f in figures) > 0


def test_bit_exact_with_cmsis_nn(target, cmsis_nn_target_model, cmsis_nn):
    """The same with Arm's CMSIS-NN kernels (built for the board's core) where they apply."""
    board, name, path = cmsis_nn_target_model
    if name in catalog.FORMS:
        # Each form would cost a firmware on the M3's full cmsis-nn lane in CI; CMSIS-NN has no
        # float32 kernels, and its 16x8 calls run in the catalog's own 16x8 models.
        pytest.skip("a float32 or 16x8 form: the portable run covers it (CMSIS-NN's 16x8 calls: "
                    "cmsis_nn_s16_kinds_16x8, unet_block_16x8)")
    path = path or shared_model(name)
    fw = fitting_firmware(target, board, name, path, kernels="cmsis-nn")
    assert fw.model_json()["kernels"] == "cmsis-nn"
    with target.open(fw, run_timeout=300) as dev:
        check_against_tflm(dev, path, 5, SEED, reset_between=dev.info().state_size == 0)


def test_keyword_scrambled_keeps_state(target, boards):
    """SVDF state persists across 10 calls exactly as in TFLM invoked 10 times without reset."""
    path = shared_model("tflm_keyword_scrambled")
    for board in boards:
        fw = target.firmware(board, name="tflm_keyword_scrambled", model=path)
        with target.open(fw) as dev:
            assert dev.info().state_size > 0
            check_against_tflm(dev, path, 10, SEED + 1, reset_between=False)
            # After reset(), the first call matches a fresh interpreter again.
            check_against_tflm(dev, path, 2, SEED + 2, reset_between=False)


LSTM_MODELS = [n for n in catalog.names() if n.startswith("lstm_")]
# A float32 LSTM's outputs on the boards against TFLM's on the host, whose expf and tanhf
# (glibc's) are not newlib's: measured at most 2.4e-7 (two ulps of 1) on the catalog's four.
LSTM_F32_BOUND = 2.0 ** -21
# In the default lane (CI budget): the int8 LSTM on the portable kernels of the M3 (gate pairs) and
# of the M0 (int8 weights, the Armv6-M two-gate dot loop), and the 100-unit one on CMSIS-NN's LSTM
# step on the M0; every pair below with TINYAOT_TARGET_ALL_BOARDS=1. The cmsis-nn runs take
# CMSIS-NN's step (--cmsis-nn-lstm step): on these cores without DSP the default keeps tinyaot's
# faster kernel, which the portable runs cover.
LSTM_DEFAULT = {("lstm_seq28", "qemu_cortex_m3", "portable"), ("lstm_seq28", "qemu_cortex_m0", "portable"),
                ("lstm_seq28_units100", "qemu_cortex_m0", "cmsis-nn")}


@pytest.mark.parametrize("kernels", ["portable", "cmsis-nn"])
@pytest.mark.parametrize("board", ["qemu_cortex_m0", "qemu_cortex_m3"])
@pytest.mark.parametrize("name", LSTM_MODELS)
def test_lstm_keeps_state_then_resets(name, board, kernels, target, tmp_path, request):
    """An LSTM model (catalog.models_lstm: registered off the board matrix, these are its
    firmware runs) keeps its hidden and cell states across two calls exactly as TFLM invoked
    twice, and after reset() two more calls match a fresh interpreter (float32: within
    LSTM_F32_BOUND)."""
    if (name, board, kernels) not in LSTM_DEFAULT and os.environ.get(catalog.ALL_BOARDS_ENV) != "1":
        pytest.skip(f"{name} on {board} ({kernels}): with {catalog.ALL_BOARDS_ENV}=1 only")
    if kernels == "cmsis-nn":
        if name.endswith("_float32"):
            pytest.skip("float32: CMSIS-NN's LSTM is integer only, the portable run covers it")
        request.getfixturevalue("cmsis_nn")
    path = catalog.build(name, tmp_path)
    fw = fitting_firmware(target, board, name, path, kernels=kernels,
                          generator_args=["--cmsis-nn-lstm=step"] if kernels == "cmsis-nn" else [])
    if (name, board, kernels) in LSTM_DEFAULT:
        lstm_ops = [op for op in fw.model_json()["operators"] if op["type"] == "UNIDIRECTIONAL_SEQUENCE_LSTM"]
        assert {op["backend"] for op in lstm_ops} == {kernels}
        if kernels == "portable":  # Armv6-M keeps the int8 weights (the two-gate dot loop), the M3 the gate pairs
            want = "tinyaot_lstm_s8_small" if board == "qemu_cortex_m0" else "tinyaot_lstm_s8"
            assert [op["kernels"] for op in lstm_ops] == [[want]]
    with target.open(fw, run_timeout=300) as dev:
        assert dev.info().state_size > 0
        if name.endswith("_float32"):  # expf and tanhf: newlib's on the boards, glibc's in the oracle
            for seed in (SEED, SEED + 1):
                mismatches, _ = dev.compare_with_tflm(path, calls=2, seed=seed, reset_between=False)
                worst = max((np.abs(e.astype(np.float64) - g).max() for _, _, e, g in mismatches), default=0.0)
                assert worst <= LSTM_F32_BOUND, f"float32 outputs {worst:g} from TFLM's on the host"
            return
        check_against_tflm(dev, path, 2, SEED, reset_between=False)
        check_against_tflm(dev, path, 2, SEED + 1, reset_between=False)  # compare_with_tflm resets first


def test_person_detect_on_m3(target):
    """64 KB of RAM: the classic plan (55296 bytes) plus its own input buffer would not
    fit; outputs written over inputs (overlap-aware plan) make it fit as it is, and with
    the input inside the arena (--inputs-in-arena) it needs the arena alone. Both run
    bit-exact (the first in test_bit_exact)."""
    path = shared_model("tflm_person_detect_int8")
    name = "tflm_person_detect_int8"
    plan = target.firmware("qemu_cortex_m3", name=name, model=path).model_json()
    budget = 65536 - 4096 - 1024  # RAM - stack - runner reserve
    assert plan["arena_size"] + 96 * 96 + 2 <= budget < plan["lower_bound"] + 96 * 96 + 2

    fw = target.firmware("qemu_cortex_m3", name=name, model=path, inputs_in_arena=True)
    assert fw.model_json()["inputs"][0]["arena_offset"] is not None
    assert fw.sizes()["ram"] + fw.config["stack_size"] <= fw.config["ram_size"]
    with target.open(fw, run_timeout=300) as dev:
        assert dev.info().io_needed == 8  # only the 2-byte output, 8-aligned
        figures = check_against_tflm(dev, path, CALLS, SEED, reset_between=True)
    assert all(f.stack_bytes > 0 for f in figures)


def test_ds_cnn_fits_m0_by_overlaps(target, own_model):
    """The DS-CNN keyword spotter on the 16 KB Cortex-M0, built by tinyaot_add_model with
    the runner's default budget check: its classic plan (two 8000-byte activations) does
    not fit, the overlap-aware one does, bit-exact with TFLM."""
    path = own_model("ds_cnn_kws")
    fw = target.firmware("qemu_cortex_m0", name="ds_cnn_kws", model=path)
    plan = fw.model_json()
    io = 49 * 10 + 12
    budget = fw.config["ram_size"] - fw.config["stack_size"] - 1024
    assert plan["arena_size"] == plan["overlap_bound"] == 10048 and plan["lower_bound"] == 16000
    assert plan["arena_size"] + io <= budget < plan["lower_bound"] + io
    assert fw.sizes()["ram"] + fw.config["stack_size"] <= fw.config["ram_size"]
    with target.open(fw, run_timeout=300) as dev:
        figures = check_against_tflm(dev, path, 2, SEED, reset_between=True)
    assert all(0 < f.stack_bytes <= fw.config["stack_size"] for f in figures)


def test_mobilenet_96x96x3_inputs_in_arena_on_m3(target, own_model):
    """MobileNetV1 0.25 on a 96x96x3 image with its input in the arena: 36880 bytes
    (classic plan 55296), bit-exact on the Cortex-M3."""
    path = own_model("mobilenet_v1_025_96x96x3")
    fw = target.firmware("qemu_cortex_m3", name="mobilenet_v1_025_96x96x3", model=path, inputs_in_arena=True)
    plan = fw.model_json()
    assert plan["arena_size"] == plan["overlap_bound"] == 36880 and plan["lower_bound"] == 55296
    with target.open(fw, run_timeout=300) as dev:
        check_against_tflm(dev, path, 1, SEED, reset_between=True)


def test_bit_exact_with_weights_blob(target, blob_target_model):
    """--weights blob, every model on the M3 and a sample on the M0 (conftest.ONE_CORE_VARIANTS):
    the blob linked into its own section, bound at start, bit-exact with TFLM (2 calls:
    test_bit_exact runs the same code at length)."""
    board, name, path = blob_target_model
    if name in catalog.FORMS and not name.startswith("mini_mobilenet_"):
        pytest.skip("a float32 or 16x8 form: a blob holds any dtype's weights as bytes; the mini MobileNet's "
                    "forms check float32 and 16x8 blobs, test_bit_exact the rest")
    path = path or shared_model(name)
    fw = fitting_firmware(target, board, name, path, weights="blob")
    assert fw.model_json()["weights_mode"] == "blob"
    with target.open(fw, run_timeout=300) as dev:
        figures = check_against_tflm(dev, path, 2, SEED, reset_between=dev.info().state_size == 0)
    assert all(f.status == 0 for f in figures)
