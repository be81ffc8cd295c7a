"""The portable backend on Helium (MVE) cores (--cpu cortex-m55): the kernels of kernels/mve/
where they take a layer, the DSP kernels elsewhere; the host runs kernels/mve/ through the C
models of tinyaot_mve.h, and the generated C refuses an Arm core without MVE."""

import shutil
import subprocess

import pytest

from sanitized import check_all_sanitized
from test_dsp_kernels import _add_model, _fully_connected_model, _kernels, _pointwise_model
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.testing import catalog

ARM_GCC = shutil.which("arm-none-eabi-gcc")


def test_pointwise_takes_the_mve_kernel_on_mve_cores(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_pointwise_model())
    assert _kernels(path, "cortex-m55") == ["tinyaot_conv2d_1x1_s8_mve"] * 3 + ["tinyaot_conv2d_1x1_s8"]


def test_fully_connected_takes_the_mve_kernel_on_mve_cores(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_fully_connected_model())
    assert _kernels(path, "cortex-m55") == ["tinyaot_fully_connected_s8_mve"] * 3


def test_add_takes_the_dsp_kernel_on_mve_cores_and_cmsis_nn_its_own(tmp_path):
    """tinyaot_add_s8_dsp (the M55 has the DSP extension); with --kernels cmsis-nn
    arm_elementwise_add_s8, whose MVE path is the faster there (on DSP cores the backend keeps
    the DSP kernel: test_dsp_kernels)."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_add_model())
    assert _kernels(path, "cortex-m55") == ["tinyaot_add_s8_dsp"] * 2 + ["tinyaot_add"]
    cmsis = compile_model(path, Options("m", cpu="cortex-m55", kernels="cmsis-nn"))
    assert [c.kernel for _, calls in cmsis.calls for c in calls] == ["tinyaot_cmsis_add_s8"] * 2 + ["tinyaot_add"]


def test_mve_kernels_match_tflm_under_sanitizers(tmp_path):
    """For the M55, in one sanitized child: the 1x1 DSP kernel's corners (pixels after the quads,
    depths 6, 9, 13 cut inside a vector, stride 2, batches, per-tensor weights), conv_1x1_depths
    (depths 7 to 68), conv_same_valid_strides (multipliers that do not fold) and a band-fused
    1x1; the fully connected DSP kernel's corners (blocks of four rows and rows after them,
    depths 23, 11 and 4, weights with a zero point, batches), the catalog's fully connected
    models and micro_speech's band fusion (the MVE kernel's tables with a depthwise's bands)."""
    models = {"pointwise": _pointwise_model(), "fully_connected": _fully_connected_model()}
    for name in ("conv_1x1_depths", "conv_same_valid_strides", "fusion_conv_1x1_stride2", "fc_relu_per_tensor",
                 "fc_batched_per_channel_relu6", "fc_no_bias_relu_n1_to_1", "fusion_depthwise_stride2_multiplier"):
        models[name] = catalog.build(name, tmp_path / "catalog").read_bytes()
    check_all_sanitized(tmp_path, models, cpu="cortex-m55")


@pytest.mark.skipif(ARM_GCC is None, reason="needs arm-none-eabi-gcc")
def test_mve_cpu_code_refuses_cores_without_mve(own_model, tmp_path):
    emit(compile_model(own_model("conv_1x1_depths"), Options("m", cpu="cortex-m55")), tmp_path)

    def check(*flags):
        return subprocess.run([ARM_GCC, "-std=c99", "-Wall", "-Wextra", "-Werror", "-mthumb", *flags, "-fsyntax-only",
                               "-I", str(tmp_path), str(tmp_path / "m.c")], capture_output=True, text=True)
    assert check("-mcpu=cortex-m55", "-mfloat-abi=hard").returncode == 0
    lacks = "m.c was generated with --cpu cortex-m55, whose {} instructions this core lacks"
    assert lacks.format("Helium (MVE)") in check("-mcpu=cortex-m55+nomve", "-mfloat-abi=hard").stderr
    assert lacks.format("Helium (MVE)") in check("-mcpu=cortex-m4", "-mfloat-abi=hard").stderr
    assert lacks.format("DSP") in check("-mcpu=cortex-m3").stderr
