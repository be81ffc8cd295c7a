"""Generated C: deterministic, warning-free on host and Cortex-M, sanitizer-clean,
and several models link into one binary."""

import re
import shutil
import subprocess

import numpy as np
import pytest

from conftest import SHARED_MODEL_NAMES, SHARED_MODELS
from sanitized import run_sanitized
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import WARNING_FLAGS, HostModel
from tinyaot.host.oracle import random_inputs
from tinyaot.ir import c_identifier
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import catalog


def all_models(own_models_dir):
    models = {n: own_models_dir / f"{n}.tflite" for n in catalog.names()}
    for n in SHARED_MODEL_NAMES:
        if (SHARED_MODELS / f"{n}.tflite").exists():
            models[n] = SHARED_MODELS / f"{n}.tflite"
    return models


def generate(path, name, out):
    emit(compile_model(path, Options(name)), out)
    return out


def folder_bytes(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def generated(own_models_dir, tmp_path_factory):
    """{name: output folder}: every model generated once, for the checks that read the C."""
    root = tmp_path_factory.mktemp("generated")
    return {name: generate(path, name, root / name) for name, path in all_models(own_models_dir).items()}


def test_generating_twice_gives_identical_folders(own_models_dir, generated, tmp_path):
    for name, path in all_models(own_models_dir).items():
        again = generate(path, name, tmp_path / name)
        assert folder_bytes(again) == folder_bytes(generated[name]), name


# -pedantic on the host and on the M0 at -Os; the target lane builds every model at -O2 with
# -Werror for the M0 and the M3 (firmware/serial_runner), so -O2 on Cortex-M is covered there.
COMPILERS = [
    ("gcc", ["-O2"]),
    ("arm-none-eabi-gcc", ["-Os", "-mcpu=cortex-m0", "-mthumb"]),
]


@pytest.mark.parametrize("compiler,flags", COMPILERS)
def test_compiles_without_warnings(generated, tmp_path, compiler, flags):
    if not shutil.which(compiler):
        pytest.skip(f"{compiler} is not installed (scripts/setup.sh installs it)")
    for name, out in generated.items():
        result = subprocess.run([compiler, *WARNING_FLAGS, "-pedantic", *flags, "-c", "-I", str(out),
                                 str(out / f"{name}.c"), "-o", str(tmp_path / f"{name}.o")],
                                capture_output=True, text=True)
        assert result.returncode == 0, f"{name}:\n{result.stderr}"


def test_runs_clean_under_address_and_undefined_sanitizers(own_models_dir, tmp_path):
    run_sanitized("test_models_host", "check_against_tflm",
                  [dict(path=str(path), name=name, out_dir=str(tmp_path / name), calls=5, sanitize=True)
                   for name, path in all_models(own_models_dir).items()])


TWO_MODELS_MAIN = r"""
#include <stdio.h>
#include "first.h"
#include "second.h"
int main(void)
{
    const struct tinyaot_model *models[2] = { &tinyaot_first_model, &tinyaot_second_model };
    int8_t in[256] = {0}, out[256];
    void *ins[1] = { in }, *outs[1] = { out };
    int i;
    for (i = 0; i < 2; i++) {
        if (models[i]->run(ins, outs) != 0) return 1;
        printf("%s %u\n", models[i]->name, (unsigned)models[i]->arena_size);
    }
    return 0;
}
"""


def test_two_models_link_into_one_binary(own_model, tmp_path):
    first = generate(own_model("fc_relu_per_tensor"), "first", tmp_path / "first")
    second = generate(own_model("reshape_views"), "second", tmp_path / "second")
    (tmp_path / "main.c").write_text(TWO_MODELS_MAIN)
    exe = tmp_path / "two"
    result = subprocess.run(["gcc", *WARNING_FLAGS, "-I", str(first), "-I", str(second), str(tmp_path / "main.c"),
                             str(first / "first.c"), str(second / "second.c"), "-o", str(exe)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0
    assert run.stdout.splitlines() == ["first 16", "second 16"]
    symbols = subprocess.run(["nm", str(exe)], capture_output=True, text=True).stdout
    assert "tinyaot_first_arena" in symbols and "tinyaot_second_arena" in symbols
    assert "tinyaot_first_w1_w1" in symbols  # every weight is a named symbol


def test_null_pointers_are_refused(own_model, tmp_path):
    out = generate(own_model("fc_relu_per_tensor"), "m", tmp_path / "m")
    (tmp_path / "main.c").write_text(
        '#include "m.h"\nint main(void){ int8_t x[24]; struct tinyaot_m_inputs in = { x };\n'
        ' struct tinyaot_m_outputs out = { NULL };\n'
        ' return tinyaot_m_run(&in, &out) == TINYAOT_ERROR_NULL_POINTER && tinyaot_m_run(NULL, &out) == -1 ? 0 : 1; }\n')
    exe = tmp_path / "nullcheck"
    subprocess.run(["gcc", *WARNING_FLAGS, "-I", str(out), str(tmp_path / "main.c"), str(out / "m.c"), "-o",
                    str(exe)], check=True)
    assert subprocess.run([str(exe)]).returncode == 0


def test_any_tensor_name_gives_valid_c(tmp_path):
    """Names are data: quotes, backslashes, newlines, NUL, comment ends and trigraphs."""
    nasty = 'in "x"\\ */ ??/\n\x00é'
    mb = ModelBuilder()
    x = mb.input(nasty, "int8", [1, 4], scale=0.1, zero_point=0)
    w = mb.const("w */ ??=", np.eye(4, dtype=np.int8), scale=0.01)
    y = mb.output(mb.tensor("out\r\n", "int8", [1, 4], scale=0.1, zero_point=0))
    mb.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    path = tmp_path / "names.tflite"
    path.write_bytes(mb.build())
    out = generate(path, "names", tmp_path / "names")
    result = subprocess.run(["gcc", *WARNING_FLAGS, "-pedantic", "-c", "-I", str(out), str(out / "names.c"),
                             "-o", str(tmp_path / "names.o")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    with HostModel(out, "names") as host:
        # The descriptor carries the name byte for byte (up to the NUL, where C strings end).
        assert host.inputs[0]["name"] == 'in "x"\\ */ ??/\n'
        assert host.outputs[0]["name"] == "out\r\n"


def test_damaged_models_fail_cleanly_or_give_valid_c(own_models_dir, tmp_path):
    """Random byte damage gives a TinyAotError naming the file, or C that compiles warning-free
    and runs clean under the sanitizers (no arena overflow, no undefined behaviour)."""
    rng = np.random.default_rng(7)
    sources = sorted(own_models_dir.glob("*.tflite"))
    built = 0
    for attempt in range(400):
        data = bytearray(sources[attempt % len(sources)].read_bytes())
        for _ in range(rng.integers(1, 4)):
            data[rng.integers(0, len(data))] = rng.integers(0, 256)
        path = tmp_path / "damaged.tflite"
        path.write_bytes(bytes(data))
        try:
            model = compile_model(path, Options("d"))
        except TinyAotError as e:
            assert str(e).startswith(str(path))
            continue
        out = tmp_path / f"d{built}"
        emit(model, out)
        result = subprocess.run(["gcc", *WARNING_FLAGS, "-pedantic", "-fsyntax-only", "-I", str(out),
                                 str(out / "d.c")], capture_output=True, text=True)
        assert result.returncode == 0, f"attempt {attempt}:\n{result.stderr[-2000:]}"
        built += 1
        if built == 25:
            break
    assert built == 25  # enough damaged-but-valid models were exercised
    run_sanitized("test_codegen", "run_twice", [dict(out=str(tmp_path / f"d{i}")) for i in range(built)])


def run_twice(out):
    """The damaged model generated in `out` run twice on random inputs (the sanitizers judge)."""
    with HostModel(out, "d", sanitize=True) as host:
        for i, x in enumerate(random_inputs(host.inputs, np.random.default_rng(0))):
            host.set_input(i, x)
        host.run()
        host.run()


def test_tables_are_named_by_layer_and_kernel_parameter_and_long_names_cut_at_words(tmp_path):
    """What `nm` and rom_report show: a re-laid-out filter and the per-channel tables carry the
    step and the kernel parameter they are passed as; a long tensor name keeps its last whole
    words (48 characters at most)."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 2, 2, 8], scale=0.1, zero_point=0)
    w = mb.const("model/depthwise_conv2d_1/BiasAdd/ReadVariableOp/resource;model/conv2d_1/kernel",
                 np.ones((4, 1, 1, 8), np.int8), scale=[0.01, 0.02, 0.03, 0.04], zero_point=[0] * 4)
    b = mb.const("b", np.arange(4, dtype=np.int32), scale=[0.001, 0.002, 0.003, 0.004], zero_point=[0] * 4)
    y = mb.output(mb.tensor("y", "int8", [1, 2, 2, 4], scale=0.2, zero_point=1))
    mb.op("CONV_2D", [x, w, b], [y], "Conv2DOptions", padding=1, stride_w=1, stride_h=1)  # 1: VALID
    path = tmp_path / "kws.tflite"
    path.write_bytes(mb.build())
    source = (generate(path, "kws", tmp_path / "kws") / "kws.c").read_text()
    tables = re.findall(r"static const \w+ (tinyaot_kws_op0_\w+)\[", source)
    assert sorted(tables) == ["tinyaot_kws_op0_bias", "tinyaot_kws_op0_filter", "tinyaot_kws_op0_multiplier",
                              "tinyaot_kws_op0_shift"]
    assert c_identifier("model/depthwise_conv2d_1/BiasAdd/ReadVariableOp/resource;model/conv2d_1/kernel") == \
        "readvariableop_resource_model_conv2d_1_kernel"
