"""The portable backend on cores with the DSP extension (--cpu cortex-m4/m7/m33/m35p):
the generated C needs such a core (or the host, which runs kernels/dsp/ through the C
models of tinyaot_acle.h)."""

import shutil
import subprocess

import numpy as np
import pytest

from sanitized import check_all_sanitized
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import catalog
from tinyaot.testing.models_basic import fc
from tinyaot.testing.models_conv import RELU, conv

ARM_GCC = shutil.which("arm-none-eabi-gcc")


def _syntax_check(cc, flags, folder):
    return subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", *flags, "-fsyntax-only", "-I", str(folder),
                           str(folder / "m.c")], capture_output=True, text=True)


@pytest.mark.skipif(ARM_GCC is None, reason="needs arm-none-eabi-gcc")
def test_dsp_cpu_code_refuses_cores_without_dsp(own_model, tmp_path):
    emit(compile_model(own_model("conv_1x1_depths"), Options("m", cpu="cortex-m4")), tmp_path)
    assert _syntax_check("cc", [], tmp_path).returncode == 0  # the host: C models of the instructions
    assert _syntax_check(ARM_GCC, ["-mthumb", "-mcpu=cortex-m4"], tmp_path).returncode == 0
    assert _syntax_check(ARM_GCC, ["-mthumb", "-mcpu=cortex-m33"], tmp_path).returncode == 0
    for core in ("cortex-m3", "cortex-m33+nodsp"):
        result = _syntax_check(ARM_GCC, ["-mthumb", f"-mcpu={core}"], tmp_path)
        assert "m.c was generated with --cpu cortex-m4, whose DSP instructions this core lacks" in result.stderr, core


def test_scalar_cpu_code_has_no_guard(own_model, tmp_path):
    emit(compile_model(own_model("conv_1x1_depths"), Options("m")), tmp_path)
    assert "__ARM_FEATURE_DSP" not in (tmp_path / "m.c").read_text()


def _pointwise_model():
    """1x1 convolutions through tinyaot_conv2d_1x1_s8_dsp's corners: 15 pixels an image (3
    after the quads), 6 (2 after); depths 6, 9 and 13 (2, 1 and 3 input channels after the
    groups of four); stride 2; a batch of two; per-tensor and per-channel weights, RELU, an
    output zero point at -128. Last, a one-pixel image (stride 2x3), which stays on the
    portable kernel."""
    rng = np.random.default_rng(22)
    mb = ModelBuilder()
    q = (0.05, -7)
    x = mb.input("x", "int8", [2, 3, 5, 6], scale=q[0], zero_point=q[1])
    h, q = conv(mb, rng, x, q, [2, 3, 5, 9], (1, 1), act=RELU, out_zp=-128, spread=60)
    h, q = conv(mb, rng, h, q, [2, 3, 5, 13], (1, 1), per_channel=False, out_zp=5)
    h, q = conv(mb, rng, h, q, [2, 2, 3, 16], (1, 1), stride=(2, 2), out_zp=-3)
    y, _ = conv(mb, rng, h, q, [2, 1, 1, 8], (1, 1), stride=(2, 3), out_zp=11)
    mb.output(y)
    return mb.build()


def _kernels(path, cpu):
    return [c.kernel for _, calls in compile_model(path, Options("m", cpu=cpu)).calls for c in calls]


def test_pointwise_takes_the_dsp_kernel_on_dsp_cores(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_pointwise_model())
    for cpu in ("cortex-m4", "cortex-m7", "cortex-m33", "cortex-m35p"):
        assert _kernels(path, cpu) == ["tinyaot_conv2d_1x1_s8_dsp"] * 3 + ["tinyaot_conv2d_1x1_s8"], cpu
    assert _kernels(path, "cortex-m3") == ["tinyaot_conv2d_1x1_s8"] * 4


def test_pointwise_matches_tflm_under_sanitizers(tmp_path):
    """Besides the model above: conv_1x1_depths (depths 7 to 68, 9 pixels: 1 after the
    quads), a 1x1 whose
    multipliers are above 1 (requantization without the fold) and a band-fused one, all
    compiled for the M4."""
    models = {"corners": _pointwise_model()}
    for name in ("conv_1x1_depths", "conv_same_valid_strides", "fusion_conv_1x1_stride2"):
        models[name] = catalog.build(name, tmp_path / "catalog").read_bytes()
    check_all_sanitized(tmp_path, models, cpu="cortex-m4")


def _fully_connected_model():
    """FULLY_CONNECTED through tinyaot_fully_connected_s8_dsp's corners: a batch of two;
    11 outputs (two blocks of four, three alone), 4 (one block), 6; depths 23 and 11 (3
    values after the whole words), 4; per-channel and per-tensor, no bias, RELU, and
    weights with a zero point (the input sum's share)."""
    rng = np.random.default_rng(23)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 23], scale=0.04, zero_point=-9)
    h = fc(mb, rng, x, 0.04, 11, 23, [2, 11], 0.05, -128, act=1, per_channel=True)
    h = fc(mb, rng, h, 0.05, 4, 11, [2, 4], 0.06, 6, bias=False)
    w = mb.const("w_zp", rng.integers(-100, 100, (6, 4)).astype(np.int8), scale=0.01, zero_point=5)
    y = mb.tensor("y", "int8", [2, 6], scale=0.03, zero_point=-2)
    mb.op("FULLY_CONNECTED", [h, w, -1], [y], "FullyConnectedOptions", fused_activation_function=0)
    mb.output(y)
    return mb.build()


def test_fully_connected_takes_the_dsp_kernel_on_dsp_cores(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_fully_connected_model())
    assert _kernels(path, "cortex-m4") == ["tinyaot_fully_connected_s8_dsp"] * 3
    assert _kernels(path, "cortex-m3") == ["tinyaot_fully_connected_s8"] * 3


def test_fully_connected_matches_tflm_under_sanitizers(tmp_path):
    """Besides the model above: the catalog's fully connected models, and band fusion (the
    FULLY_CONNECTED's tables with a convolution's bands; tinyaot_band_fc_accumulate_s8_dsp's
    blocks of four rows, the last rows and the slices' last values alone): micro_speech's
    one output, 4 outputs of 702 values in slices of 54, 30 outputs of 960, for the M4."""
    models = {"corners": _fully_connected_model()}
    for name in ("fc_relu_per_tensor", "fc_batched_per_channel_relu6", "fc_no_bias_relu_n1_to_1",
                 "fusion_depthwise_stride2_multiplier", "fusion_depthwise_dilation_same",
                 "fusion_conv_odd_padding_grouped"):
        models[name] = catalog.build(name, tmp_path / "catalog").read_bytes()
    check_all_sanitized(tmp_path, models, cpu="cortex-m4")


def _add_model():
    """Same-shape int8 ADDs through tinyaot_add_s8_dsp's corners: 256 values a call (each
    call meets most of the other input's 256 table entries), input zero points at both
    ends of int8, the larger scale first and second, an output scale small enough that
    most sums saturate (zero point 127) and a coarse one with RELU6; a broadcast ADD stays
    on tinyaot_add."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 8, 32, 1], scale=0.05, zero_point=-128)
    z = mb.input("z", "int8", [1, 8, 32, 1], scale=0.013, zero_point=127)
    row = mb.input("row", "int8", [1, 1, 32, 1], scale=0.02, zero_point=3)
    for a, b, scale, zp, act in ((x, z, 0.004, 127, 0), (z, x, 0.2, -100, 3), (z, row, 0.03, 1, 1)):
        y = mb.tensor(f"add{len(mb.tensors)}", "int8", [1, 8, 32, 1], scale=scale, zero_point=zp)
        mb.op("ADD", [a, b], [y], "AddOptions", fused_activation_function=act)
        mb.output(y)
    return mb.build()


def test_add_takes_the_dsp_kernel_on_dsp_cores(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_add_model())
    assert _kernels(path, "cortex-m4") == ["tinyaot_add_s8_dsp"] * 2 + ["tinyaot_add"]
    assert _kernels(path, "cortex-m3") == ["tinyaot_add"] * 3
    # the CMSIS-NN backend keeps it too (faster than arm_elementwise_add_s8), and CMSIS-NN's ADD on the M3
    cmsis = compile_model(path, Options("m", cpu="cortex-m4", kernels="cmsis-nn"))
    assert [c.kernel for _, calls in cmsis.calls for c in calls] == ["tinyaot_add_s8_dsp"] * 2 + ["tinyaot_add"]
    cmsis = compile_model(path, Options("m", cpu="cortex-m3", kernels="cmsis-nn"))
    assert [c.kernel for _, calls in cmsis.calls for c in calls] == ["tinyaot_cmsis_add_s8"] * 2 + ["tinyaot_add"]


def test_add_matches_tflm_under_sanitizers(tmp_path):
    """Besides the model above: add_broadcast_act (equal scales, a tensor added to itself, every
    fused activation) and residual blocks computed in bands (the ADD on each band's rows)."""
    models = {"corners": _add_model()}
    for name in ("add_broadcast_act", "residual_down_1x1_shortcut", "residual_u_first_remainder"):
        models[name] = catalog.build(name, tmp_path / "catalog").read_bytes()
    check_all_sanitized(tmp_path, models, cpu="cortex-m4")
