"""The command line as a user runs it: compile, inspect, run."""

import json
import subprocess
import sys

import numpy as np

from conftest import ROOT
from tinyaot.host.model import HostModel
from tinyaot.testing.cli import run_tinyaot



def test_compile_writes_a_self_contained_folder(own_model, tmp_path):
    out = tmp_path / "kws"
    result = run_tinyaot("compile", own_model("reshape_views"), "--name", "kws", "--out", out)
    assert result.returncode == 0, result.stderr
    assert "arena 16 bytes (lower bound 16)" in result.stdout
    files = sorted(p.name for p in out.iterdir())
    assert files == ["kws.c", "kws.h", "kws.json", "tinyaot.h", "tinyaot_common.h", "tinyaot_fully_connected_s8.h",
                     "tinyaot_fully_connected_s8_params.h"]
    header = (out / "kws.h").read_text()
    for macro in ["TINYAOT_KWS_ARENA_SIZE 16", "TINYAOT_KWS_NUM_INPUTS 1", "TINYAOT_KWS_NUM_OUTPUTS 1",
                  "TINYAOT_KWS_INPUT0_SIZE 32", "TINYAOT_KWS_OUTPUT0_SIZE 6"]:
        assert f"#define {macro}" in header
    assert "struct tinyaot_kws_inputs {\n    const int8_t *x; /* tensor 'x' */\n};" in header
    assert "int32_t tinyaot_kws_run(const struct tinyaot_kws_inputs *in, const struct tinyaot_kws_outputs *out);" \
        in header
    plan = json.loads((out / "kws.json").read_text())
    assert plan["arena_size"] == plan["lower_bound"] == 16
    assert [op["type"] for op in plan["operators"]] == ["RESHAPE", "FULLY_CONNECTED", "FULLY_CONNECTED", "RESHAPE"]
    assert [op["kernels"] for op in plan["operators"]][0] == []  # reshape is a view
    # Only the weight matrices: each bias lives on folded into its operator's parameter tables.
    assert plan["weight_bytes"] == sum(plan["weights"].values()) == 32 * 16 + 16 * 6
    # ... and per fully connected layer: multiplier, shift, and the folded bias (int32 per output).
    assert plan["table_bytes"] == sum(plan["tables"].values()) == (4 + 4 + 16 * 4) + (4 + 4 + 6 * 4)


def test_generated_header_includes_only_standard_and_tinyaot_headers(own_model, tmp_path):
    run_tinyaot("compile", own_model("fc_relu_per_tensor"), "--name", "m", "--out", tmp_path)
    includes = [line for line in (tmp_path / "m.h").read_text().splitlines() if line.startswith("#include")]
    assert includes == ["#include <stddef.h>", "#include <stdint.h>", '#include "tinyaot.h"']


def test_sections_and_alignment_options(own_model, tmp_path):
    result = run_tinyaot("compile", own_model("fc_relu_per_tensor"), "--name", "m", "--out", tmp_path,
                     "--alignment", "32", "--weights-section", ".rodata.nn", "--arena-section", ".noinit.nn")
    assert result.returncode == 0, result.stderr
    source = (tmp_path / "m.c").read_text()
    assert 'TINYAOT_ALIGNED(4) TINYAOT_SECTION(".rodata.nn")' in source
    assert 'TINYAOT_ALIGNED(32) TINYAOT_SECTION(".noinit.nn")' in source
    assert json.loads((tmp_path / "m.json").read_text())["alignment"] == 32


def test_bad_alignment_is_refused(own_model, tmp_path):
    result = run_tinyaot("compile", own_model("fc_relu_per_tensor"), "--name", "m", "--out", tmp_path,
                     "--alignment", "12")
    assert result.returncode == 1
    assert result.stderr.strip() == "tinyaot: error: alignment 12 must be a power of two between 1 and 4096"


def test_inspect_prints_operators_tensors_and_plan(own_model):
    result = run_tinyaot("inspect", own_model("reshape_views"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "RESHAPE" in out and "(view)" in out and "tinyaot_fully_connected_s8" in out
    assert "arena 16 bytes, lower bound 16 bytes, state 0 bytes, alignment 16" in out
    assert "memory plan" in out


def test_inspect_prints_the_c_api_with_member_names(own_model):
    result = run_tinyaot("inspect", own_model("reshape_views"), "--name", "kws")
    assert result.returncode == 0, result.stderr
    api = result.stdout.split('C API: #include "kws.h"')[1]
    assert "tinyaot_add_model, <build>/tinyaot/kws/" in api
    assert "  struct tinyaot_kws_inputs {\n      const int8_t *x; /* tensor 'x' */\n  };" in api
    assert "  struct tinyaot_kws_outputs {\n      int8_t *y; /* tensor 'y' */\n  };" in api
    assert "  #define TINYAOT_KWS_INPUT0_SIZE 32 /* int8_t[1][4][4][2] */" in api
    assert "int32_t tinyaot_kws_run(const struct tinyaot_kws_inputs *in," in api


def test_missing_generator_packages_are_named_at_once_with_the_pip_line(own_model, tmp_path):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True)
    python = tmp_path / "bare" / "bin" / "python"
    result = subprocess.run([python, "-m", "tinyaot", "inspect", own_model("reshape_views")],
                            capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "python")})
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"tinyaot: the generator needs Python packages that {python} lacks (numpy, tflite>=2.10, "
        f"jinja2>=3); install them with: {python} -m pip install numpy 'tflite>=2.10' 'jinja2>=3'")


def test_generator_requirements_are_pyprojects_dependencies():
    import tomllib

    from tinyaot.requirements import GENERATOR
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert sorted(GENERATOR.values()) == sorted(deps)


def test_run_prints_outputs_equal_to_the_host_model(own_model, tmp_path):
    x = np.arange(-16, 16, dtype=np.int8).reshape(1, 4, 4, 2)
    np.save(tmp_path / "x.npy", x)
    result = run_tinyaot("run", own_model("reshape_views"), "--input", tmp_path / "x.npy")
    assert result.returncode == 0, result.stderr
    run_tinyaot("compile", own_model("reshape_views"), "--name", "m", "--out", tmp_path / "m")
    with HostModel(tmp_path / "m", "m") as host:
        host.set_input(0, x)
        host.run()
        expected = host.get_output(0)
    assert result.stdout.strip() == f"y: {expected}"


def test_run_without_inputs_names_the_missing_ones(own_model):
    result = run_tinyaot("run", own_model("reshape_views"))
    assert result.returncode == 1
    assert "the model has 1 inputs; give one --input FILE.npy each (x)" in result.stderr
