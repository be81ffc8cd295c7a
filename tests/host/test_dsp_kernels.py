"""The portable backend on cores with the DSP extension (--cpu cortex-m4/m7/m33/m35p):
the generated C needs such a core (or the host, which runs kernels/dsp/ through the C
models of tinyaot_acle.h)."""

import shutil
import subprocess

import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model

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
