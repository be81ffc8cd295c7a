"""--optimize size: the same results as TFLM (and as speed) from code without the kernels'
specialised paths; the generated C differs as claimed; the link hint's measurement of what
size saves (zephyr/size_saving.py) equals what --optimize size saves, and the hint says it."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from test_models_host import check_against_tflm
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.testing.cli import run_tinyaot

ZEPHYR_DIR = Path(__file__).resolve().parents[2] / "zephyr"
sys.path.insert(0, str(ZEPHYR_DIR))
import link_hint  # noqa: E402
import size_saving  # noqa: E402


# Each takes a specialised path when optimising for speed: general CONV_2D pairs (instances per
# distance), 1x1 adjacent pairs (instances per depth), depthwise 3x3 pairs.
@pytest.mark.parametrize("name", ["conv_pixel_pairs", "conv_1x1_depths", "mini_mobilenet"])
def test_size_is_bit_exact_with_tflm(name, own_model, tmp_path):
    check_against_tflm(own_model(name), name, tmp_path, calls=3, optimize="size")


def _generate(path, out, optimize):
    emit(compile_model(path, Options("m", optimize=optimize)), out)
    return (out / "m.c").read_text(), json.loads((out / "m.json").read_text())


def test_size_code_has_no_instances_and_no_pairs(own_model, tmp_path):
    speed_c, speed_json = _generate(own_model("conv_same_valid_strides"), tmp_path / "speed", "speed")
    size_c, size_json = _generate(own_model("conv_same_valid_strides"), tmp_path / "size", "size")
    assert "TINYAOT_CONV2D_PAIR4_STEP(24)\n" in speed_c and ".pair4 = TINYAOT_CONV2D_PAIR4(24)" in speed_c
    assert "#define TINYAOT_PIXEL_PAIRS" not in speed_c
    assert "PAIR4_STEP(" not in size_c and "TINYAOT_CONV2D_PAIR4(" not in size_c and ".pair4 = NULL" in size_c
    assert "Kernel loops specialised" not in size_c
    assert "#ifndef TINYAOT_PIXEL_PAIRS\n#define TINYAOT_PIXEL_PAIRS 0\n" in size_c
    assert (speed_json["optimize"], size_json["optimize"]) == ("speed", "size")
    # The plan does not change: only code does.
    assert size_json["arena_size"] == speed_json["arena_size"] and size_json["weights"] == speed_json["weights"]


def _compile(c_file, obj, *flags):
    cmd = ["cc", "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", *flags, "-c", str(c_file), "-o", str(obj)]
    subprocess.run(cmd, check=True)
    return cmd


@pytest.fixture(scope="module")
def speed_and_size(tmp_path_factory, own_models_dir):
    """mini_mobilenet generated both ways, with the flash bytes of each compiled."""
    tmp = tmp_path_factory.mktemp("both")
    path = own_models_dir / "mini_mobilenet.tflite"
    for optimize in ("speed", "size"):
        _generate(path, tmp / optimize, optimize)
        _compile(tmp / optimize / "m.c", tmp / f"{optimize}.o")
    return tmp, {o: size_saving.flash_bytes(tmp / f"{o}.o") for o in ("speed", "size")}


def test_size_is_speed_without_pixel_pairs(speed_and_size):
    """What size_saving measures (the speed C with TINYAOT_PIXEL_PAIRS 0) is the size code."""
    tmp, flash = speed_and_size
    _compile(tmp / "speed" / "m.c", tmp / "no_pairs.o", "-DTINYAOT_PIXEL_PAIRS=0")
    assert flash["size"] < flash["speed"]
    assert size_saving.flash_bytes(tmp / "no_pairs.o") == flash["size"]


@pytest.mark.parametrize("short", [False, True], ids=["fits", "short"])
def test_flash_overflow_hint_names_optimize_size_and_what_it_saves(speed_and_size, short, capsys):
    tmp, flash = speed_and_size
    saved = flash["speed"] - flash["size"]
    overflow = saved + 100 if short else saved - 100
    # The build's compile command for m.c, with the dependency file options a Ninja build has.
    cmd = ["cc", "-O2", "-std=c99", "-MD", "-MT", "m.o", "-MF", str(tmp / "m.o.d"), "-o", "m.o", "-c",
           str(tmp / "speed" / "m.c")]
    (tmp / "compile_commands.json").write_text(json.dumps(
        [{"directory": str(tmp), "command": shlex.join(cmd), "file": str(tmp / "speed" / "m.c")}]))
    link = ["sh", "-c", f"echo \"ld: region \\`FLASH' overflowed by {overflow} bytes\" >&2; exit 1"]
    rc = link_hint.main(["--board", "qemu_cortex_m3", "--models", str(tmp / "speed" / "m.json"),
                         "--build-dir", str(tmp), "--", *link])
    assert rc == 1
    weights = json.loads((tmp / "speed" / "m.json").read_text())
    tables = weights["weight_bytes"] + weights["table_bytes"]
    verdict = f"{overflow - saved} B short of fitting" if short else "enough to fit"
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"tinyaot: the link overflowed FLASH of qemu_cortex_m3 by {overflow} B; the app's models need: m weights "
        f"and tables {tables}; OPTIMIZE size (CONFIG_TINYAOT_OPTIMIZE_SIZE=y, or OPTIMIZE size in "
        f"tinyaot_add_model) drops the specialised kernel paths: {saved} B less code for m (measured: the "
        f"generated C compiled both ways), {verdict}; else use a smaller model or free flash elsewhere; a larger "
        "CONFIG_TINYAOT_FLASH_RESERVE stops such builds before linking")
    assert not (tmp / "m.o.d").exists() and not (tmp / "m.o").exists()  # the build's files untouched


def test_flash_overflow_hint_of_a_size_model_offers_no_size():
    doc = {"name": "m", "weight_bytes": 1000, "table_bytes": 24, "optimize": "size"}
    assert link_hint.hint("FLASH", "20", "qemu_cortex_m3", [doc]) == (
        "tinyaot: the link overflowed FLASH of qemu_cortex_m3 by 20 B; the app's models need: m weights and "
        "tables 1024; use a smaller model or free flash elsewhere; a larger CONFIG_TINYAOT_FLASH_RESERVE stops "
        "such builds before linking")


def test_unmeasured_hint_says_to_try_size():
    doc = {"name": "m", "weight_bytes": 1000, "table_bytes": 24, "optimize": "speed"}
    assert "OPTIMIZE size in tinyaot_add_model) drops the specialised kernel paths of m (pixel pairs, loops " \
        "instantiated per shape): try it; else use" in link_hint.hint("FLASH", "20", "b", [doc], {"m": None})


def test_inspect_names_the_choice_and_a_bad_one_is_refused(own_model, tmp_path):
    result = run_tinyaot("inspect", own_model("fc_relu_per_tensor"), "--optimize", "size")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == ("optimised for size: one pixel at a time, no loops instantiated per "
                                             "shape (--optimize speed: faster, more flash)")
    result = run_tinyaot("compile", own_model("fc_relu_per_tensor"), "--name", "m", "--out", tmp_path,
                         "--optimize", "fast")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == ("tinyaot compile: error: argument --optimize: invalid choice: "
                                              "'fast' (choose from 'speed', 'size')")
