"""float32 beside int8: both kinds of model in one binary, and what float32 still refuses.

Each float32 operator's results against TFLM are checked by the catalog's
*_float32 models in test_models_host.py (and under ASan/UBSan in test_codegen.py)."""

import shutil
import subprocess

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import WARNING_FLAGS, HostModel
from tinyaot.host.oracle import compare_with_tflm

TWO_KINDS_MAIN = r"""
#include "f.h"
#include "q.h"
static float f_in[TINYAOT_F_INPUT0_SIZE], f_out[TINYAOT_F_OUTPUT0_SIZE];
static int8_t q_in[TINYAOT_Q_INPUT0_SIZE], q_out[TINYAOT_Q_OUTPUT0_SIZE];
int main(void)
{
    struct tinyaot_f_inputs fi = { f_in };
    struct tinyaot_f_outputs fo = { f_out };
    struct tinyaot_q_inputs qi = { q_in };
    struct tinyaot_q_outputs qo = { q_out };
    return tinyaot_f_run(&fi, &fo) | tinyaot_q_run(&qi, &qo);
}
"""


@pytest.fixture
def two_kinds(own_model, tmp_path):
    """The float32 and the int8 mini MobileNet generated into one folder as f and q."""
    out = tmp_path / "out"
    paths = {"f": own_model("mini_mobilenet_float32"), "q": own_model("mini_mobilenet")}
    for name, path in paths.items():
        emit(compile_model(path, Options(name)), out)
    return out, paths


def test_float32_and_int8_models_share_one_library_bit_exact(two_kinds):
    out, paths = two_kinds
    with HostModel(out, "f", also=["q"]) as f:
        q = f.sibling(out, "q")
        assert (np.dtype(f.inputs[0]["dtype"]), np.dtype(q.inputs[0]["dtype"])) == (np.float32, np.int8)
        for host, name in ((f, "f"), (q, "q")):
            def run(inputs, host=host):
                host.set_input(0, inputs[0])
                host.run()
                return [host.get_output(0)]
            assert not compare_with_tflm(paths[name], run, host.inputs, calls=5), name


def test_float32_and_int8_models_link_into_one_cortex_m3_firmware(two_kinds, tmp_path):
    if not shutil.which("arm-none-eabi-gcc"):
        pytest.skip("arm-none-eabi-gcc is not installed (scripts/setup.sh installs it)")
    out, _ = two_kinds
    (tmp_path / "main.c").write_text(TWO_KINDS_MAIN)
    elf = tmp_path / "two.elf"
    result = subprocess.run(["arm-none-eabi-gcc", *WARNING_FLAGS, "-O2", "-mcpu=cortex-m3", "-mthumb",
                             "--specs=nosys.specs", "-I", str(out), str(tmp_path / "main.c"), str(out / "f.c"),
                             str(out / "q.c"), "-lm", "-o", str(elf)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    symbols = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True).stdout
    for symbol in ("tinyaot_f_run", "tinyaot_q_run", "tinyaot_f_arena", "tinyaot_q_arena"):
        assert symbol in symbols
    # No FPU on the M3: float arithmetic is libgcc's soft-float.
    assert "__aeabi_fmul" in symbols and "__aeabi_fadd" in symbols


def test_bench_table_says_how_float32_runs():
    from tinyaot.measure.bench import format_table
    row = dict(status="ok", board="qemu_cortex_m3", variant="tinyaot-portable", inputs_in_arena=False, flash=1,
               ram_total=2, instructions=5, bit_exact=True, calls=1, arena=3, state=0, model_ram=4, stack=6)
    table = format_table([dict(row, model="q"), dict(row, model="f", float32=True)]).splitlines()
    assert [line.split()[0:2] for line in table[2:4]] == [["q", "qemu_cortex_m3"], ["f", "f"]]
    assert ("f float32 I/O: libgcc's soft-float on the Cortex-M0/M3 (no FPU); on the MPS2 boards the FPU,"
            " hard float with -ffp-contract=off (TFLM built the same)" in table)
