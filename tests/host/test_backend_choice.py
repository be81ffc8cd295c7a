"""Which backend each operator gets with --kernels cmsis-nn, and why, as the JSON and inspect say."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.backends.cmsis_nn import PORTABLE_FOR_ARENA_ON_SCALAR
from tinyaot.testing.models_conv import VALID, conv, depthwise


def operators(path, tmp_path, **options):
    emit(compile_model(path, Options("m", **options)), tmp_path)
    return json.loads((tmp_path / "m.json").read_text())["operators"]


def test_grouped_convolution_stays_portable_with_the_reason(own_model, tmp_path):
    ops = operators(own_model("conv_grouped"), tmp_path, kernels="cmsis-nn")
    convs = [op for op in ops if op["type"] == "CONV_2D"]
    grouped = [op for op in convs if op["backend"] == "portable"]
    assert grouped and all(op["backend_reason"].startswith("3 groups: kept portable") for op in grouped)
    assert all(op["kernels"] == ["tinyaot_conv2d_s8"] for op in grouped)


def test_convolutions_wider_than_16_bits_stay_portable_with_the_reason(tmp_path):
    """tinyaot_cmsis_conv_params holds 16-bit fields: a convolution over 40000 samples stays
    portable and says why; the depthwise one after it, over 20000, takes CMSIS-NN."""
    rng = np.random.default_rng(3)
    mb = ModelBuilder()
    q = (0.05, -5)
    x = mb.input("x", "int8", [1, 1, 40000, 2], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [1, 1, 20000, 2], (1, 3), stride=(1, 2))
    y, _ = depthwise(mb, rng, h, q, [1, 1, 20000, 2], (1, 3))
    mb.output(y)
    path = tmp_path / "wide.tflite"
    path.write_bytes(mb.build())
    ops = operators(path, tmp_path, kernels="cmsis-nn", cpu="cortex-m4")
    reason = "a dimension, stride or dilation of 40000: tinyaot_cmsis_conv_params holds 16-bit fields (at most 32767)"
    assert [(op["type"], op["backend"], op["backend_reason"]) for op in ops] == [
        ("CONV_2D", "portable", reason),
        ("DEPTHWISE_CONV_2D", "cmsis-nn", None)]


@pytest.mark.parametrize("cpu,backend", [("cortex-m4", "portable"), ("cortex-m3", "cmsis-nn"),
                                         ("cortex-m55", "cmsis-nn")])
def test_softmax_stays_portable_on_dsp_cores(cpu, backend, tmp_path):
    """On a DSP core without Helium the portable SOFTMAX is as fast as arm_softmax_s8 and smaller."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 12], scale=0.1, zero_point=3)
    y = mb.tensor("y", "int8", [1, 12], scale=1.0 / 256, zero_point=-128)
    mb.op("SOFTMAX", [x], [y], "SoftmaxOptions", beta=1.0)
    mb.output(y)
    path = tmp_path / "softmax.tflite"
    path.write_bytes(mb.build())
    (op,) = operators(path, tmp_path, kernels="cmsis-nn", cpu=cpu)
    assert op["backend"] == backend
    assert (op["backend_reason"] or "").startswith("tinyaot_softmax_s8 is 2.9 KB smaller") == (backend == "portable")


def test_portable_backend_names_no_reasons(own_model, tmp_path):
    ops = operators(own_model("mini_mobilenet"), tmp_path)
    assert {op["backend"] for op in ops} <= {"portable", "view"}
    assert all(op["backend_reason"] is None for op in ops)
    assert not any(k.startswith("tinyaot_cmsis_") for op in ops for k in op["kernels"])


def test_cmsis_nn_takes_convolutions_and_says_why_others_stay(own_model, tmp_path):
    ops = operators(own_model("mini_mobilenet"), tmp_path, kernels="cmsis-nn", cpu="cortex-m0")
    by_type = {op["type"]: op for op in ops}
    assert by_type["DEPTHWISE_CONV_2D"]["kernels"] == ["tinyaot_cmsis_depthwise_conv_s8"]
    assert by_type["DEPTHWISE_CONV_2D"]["backend"] == "cmsis-nn"
    for op in ops:
        if op["backend"] == "portable":
            assert op["backend_reason"], op


def test_inspect_prints_the_reason(own_model):
    result = subprocess.run([sys.executable, "-m", "tinyaot", "inspect", str(own_model("conv_grouped")),
                             "--kernels", "cmsis-nn"], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2] / "python")))
    assert result.returncode == 0, result.stderr
    assert "portable: 3 groups: kept portable, since CMSIS-NN's buffer size query" in result.stdout


@pytest.mark.parametrize("options,message", [
    ({"kernels": "arm"}, "kernels 'arm' is not a backend (have: portable, cmsis-nn)"),
    ({"kernels": "cmsis-nn", "cpu": "cortex-m85"}, "cpu 'cortex-m85' is not supported"),
])
def test_bad_backend_options_are_named(own_model, options, message):
    with pytest.raises(TinyAotError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compile_model(own_model("fc_relu_per_tensor"), Options("m", **options))


def test_dsp_core_gets_a_guard_against_other_cores(own_model, tmp_path, cmsis_nn):
    """CMSIS-NN's DSP paths want other buffers than its scalar ones: the .c refuses the wrong core."""
    model = compile_model(own_model("depthwise_dilation_strides"), Options("m", kernels="cmsis-nn", cpu="cortex-m4"))
    emit(model, tmp_path)
    c = (tmp_path / "m.c").read_text()
    assert "#if !(defined(__ARM_FEATURE_DSP) && (__ARM_FEATURE_DSP == 1))" in c
    result = subprocess.run(["gcc", "-fsyntax-only", "-I", str(tmp_path), "-isystem", str(cmsis_nn / "Include"),
                             str(tmp_path / "m.c")], capture_output=True, text=True)
    assert "generated with --cpu cortex-m4" in result.stderr
    # On the host, CMSIS-NN's DSP paths through the C models of the instructions are that core.
    from tinyaot.host.cmsis_nn import dsp_flags
    result = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I", str(tmp_path), "-isystem",
                             str(cmsis_nn / "Include"), *dsp_flags(), str(tmp_path / "m.c")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_m33_without_dsp_gets_cmsis_nns_plain_c(own_model, tmp_path):
    """-mcpu=cortex-m33+nodsp (Zephyr's mps2/an521/cpu0): the core's own --cpu, CMSIS-NN's plain C
    paths (the .c refuses a core with the extension) and their overlaps."""
    model = compile_model(own_model("depthwise_dilation_strides"),
                          Options("m", kernels="cmsis-nn", cpu="cortex-m33+nodsp"))
    emit(model, tmp_path)
    assert "#if (defined(__ARM_FEATURE_DSP) && (__ARM_FEATURE_DSP == 1)) ||" in (tmp_path / "m.c").read_text()
    assert json.loads((tmp_path / "m.json").read_text())["cpu"] == "cortex-m33+nodsp"
    m3 = compile_model(own_model("depthwise_dilation_strides"), Options("m", kernels="cmsis-nn", cpu="cortex-m3"))
    assert model.arena_size == m3.arena_size


@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")
def test_mve_core_gets_a_guard_against_other_cores(own_model, tmp_path, cmsis_nn):
    """CMSIS-NN's MVE paths want other buffers and the kernel sums: cmsis-nn code for the M55 builds
    for it only, and code for the M4 refuses the M55."""
    def syntax(cpu, mcpu):
        folder = tmp_path / cpu
        emit(compile_model(own_model("fc_relu_per_tensor"), Options("m", kernels="cmsis-nn", cpu=cpu)), folder)
        return subprocess.run(["arm-none-eabi-gcc", "-mthumb", f"-mcpu={mcpu}", "-mfloat-abi=hard", "-fsyntax-only",
                               "-Wall", "-Wextra", "-Werror", "-I", str(folder), "-isystem",
                               str(cmsis_nn / "Include"), str(folder / "m.c")], capture_output=True, text=True)
    assert syntax("cortex-m55", "cortex-m55").returncode == 0
    mismatch = "which does not match this core's Helium (MVE) integer instructions"
    assert f"generated with --cpu cortex-m55, {mismatch}" in syntax("cortex-m55", "cortex-m55+nomve").stderr
    assert f"generated with --cpu cortex-m4, {mismatch}" in syntax("cortex-m4", "cortex-m55").stderr
    # An M55 without Helium (+nomve; GCC's soft-float M55 too, as Zephyr builds it without
    # CONFIG_FPU): CMSIS-NN's DSP paths, refused by the M55 with MVE.
    assert syntax("cortex-m55+nomve", "cortex-m55+nomve").returncode == 0
    assert f"generated with --cpu cortex-m55+nomve, {mismatch}" in syntax("cortex-m55+nomve", "cortex-m55").stderr


@pytest.mark.parametrize("cpu,convolutions", [("cortex-m55", "tinyaot_conv2d_s8_mve"), ("cortex-m4", "tinyaot_cmsis_conv_s8")])
def test_residual_bands_on_helium_keep_tinyaots_convolutions(own_model, tmp_path, cpu, convolutions):
    """In a residual block's bands CMSIS-NN's set-up repeats at every band: on Helium the cmsis-nn
    backend keeps tinyaot's MVE convolutions there and says why; a DSP core keeps CMSIS-NN's."""
    ops = operators(own_model("resnet8"), tmp_path, kernels="cmsis-nn", cpu=cpu)
    block = next(op for op in ops if op["type"] == "ADD")
    assert block["kernels"][0].startswith(f"{convolutions}+{convolutions}+")
    assert ("on Helium, tinyaot's MVE convolutions are faster" in block["backend_reason"]) == (cpu == "cortex-m55")


def test_convolution_whose_scratch_would_raise_the_arena_keeps_tinyaots_on_cores_without_dsp(own_model, tmp_path):
    """cnn_kws_small's second convolution: arm_convolve_s8's im2col (4480 bytes) would set the arena's
    peak; on the M0 and M3, where tinyaot_conv2d_s8 is not slower, the backend keeps tinyaot's kernel in
    the band step and says why; --cmsis-nn-conv im2col, and a DSP core, keep CMSIS-NN's."""
    path = own_model("cnn_kws_small")
    for cpu in ("cortex-m0", "cortex-m3"):
        step = operators(path, tmp_path, kernels="cmsis-nn", cpu=cpu)[1]
        assert step["kernels"] == ["tinyaot_depthwise_mult_s8+tinyaot_conv2d_s8 in bands"]
        assert step["backend_reason"].endswith(f"operator 1: {PORTABLE_FOR_ARENA_ON_SCALAR})")
        assert compile_model(path, Options("m", kernels="cmsis-nn", cpu=cpu)).arena_size == 2928
    im2col = compile_model(path, Options("m", kernels="cmsis-nn", cmsis_nn_conv="im2col"))
    assert im2col.calls[1][1][0].kernel == "tinyaot_depthwise_mult_s8+tinyaot_cmsis_conv_s8 in bands"
    assert im2col.arena_size == 7408
    assert operators(path, tmp_path, kernels="cmsis-nn", cpu="cortex-m4")[1]["kernels"] == [
        "tinyaot_cmsis_conv_s8+tinyaot_cmsis_conv_s8 in bands"]
    with pytest.raises(TinyAotError, match=r"cmsis-nn conv 'wrapper' is not a choice \(have: auto, im2col\)"):
        compile_model(path, Options("m", kernels="cmsis-nn", cmsis_nn_conv="wrapper"))


def test_convolution_over_rows_of_one_pixel_stays_on_cmsis_nn(tmp_path):
    """Output rows of one pixel: no pixel pairs, tinyaot_conv2d_s8 is slower than arm_convolve_s8 on the
    M3 (magic_wand's 4x1 over 8 channels: 6.31 against 4.92 instructions a multiply-accumulate), so
    CMSIS-NN's stays though its scratch raises the arena."""
    rng = np.random.default_rng(5)
    mb = ModelBuilder()
    q = (0.05, -3)
    x = mb.input("x", "int8", [1, 43, 1, 8], scale=q[0], zero_point=q[1])
    y, _ = conv(mb, rng, x, q, [1, 40, 1, 16], (4, 1), padding=VALID)
    mb.output(y)
    path = tmp_path / "column.tflite"
    path.write_bytes(mb.build())
    (op,) = operators(path, tmp_path, kernels="cmsis-nn", cpu="cortex-m3")
    assert (op["backend"], op["kernels"], op["backend_reason"]) == ("cmsis-nn", ["tinyaot_cmsis_conv_s8"], None)
    assert compile_model(path, Options("m", kernels="cmsis-nn")).arena_size > compile_model(path, Options("m")).arena_size
