"""--shared-arena: models whose runs never overlap share one arena of the largest need;
state stays per model. Alternating runs stay bit-exact with TFLM; RAM is the larger arena plus state."""

import ctypes
import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from tinyaot.host.model import WARNING_FLAGS, HostModel
from tinyaot.host.oracle import compare_with_tflm, random_inputs
from tinyaot.testing.cli import run_tinyaot

MODELS = {"a": "mini_mobilenet", "b": "ds_cnn_kws", "c": "svdf_rank1_relu"}  # c has state



@pytest.fixture
def group(own_model, tmp_path):
    out = tmp_path / "g"
    names = [a for n in MODELS for a in ("--name", n)]
    result = run_tinyaot("compile", *[own_model(m) for m in MODELS.values()], *names, "--shared-arena", "g",
                         "--out", out)
    assert result.returncode == 0, result.stderr
    return out, result.stdout


def test_group_arena_is_the_largest_need(group):
    out, stdout = group
    plans = {n: json.loads((out / f"{n}.json").read_text()) for n in MODELS}
    figures = json.loads((out / "tinyaot_g_arena.json").read_text())
    arenas = {n: p["arena_size"] for n, p in plans.items()}
    assert figures["arena_size"] == max(arenas.values()) and figures["separate_arenas"] == sum(arenas.values())
    assert figures["ram"] == max(arenas.values()) + plans["c"]["state_size"] and plans["c"]["state_size"] > 0
    assert (f"arena group g: arena {max(arenas.values())} bytes shared by a, b, c "
            f"(separate arenas: {sum(arenas.values())})") in stdout
    assert all(p["arena_group"] == "g" for p in plans.values())
    for header in ("tinyaot_g_arena.h", "a.h"):
        text = " ".join((out / header).read_text().replace("*", " ").split())
        assert "Runs of these models must not overlap" in text or "Runs of a, b, c must not overlap" in text, header


def test_alternating_runs_stay_bit_exact(group, own_model):
    out, _ = group
    with HostModel(out, "a", also=["b", "c"]) as a:
        others = [a.sibling(out, n) for n in ("b", "c")]
        rng = np.random.default_rng(3)
        for name, host in zip(MODELS, [a, *others]):
            host.reset()

            def run(inputs, host=host):
                # Every other model of the group runs in between, overwriting the shared arena.
                for other in [a, *others]:
                    if other is not host:
                        for i, x in enumerate(random_inputs(other.inputs, rng)):
                            other.set_input(i, x)
                        other.run()
                for i, x in enumerate(inputs):
                    host.set_input(i, x)
                host.run()
                return [host.get_output(i) for i in range(len(host.outputs))]
            stateful = host.arena_size == 0 or name == "c"
            mismatches = compare_with_tflm(own_model(MODELS[name]), run, host.inputs, calls=4,
                                           reset_between=not stateful)
            assert not mismatches, f"{name}: {len(mismatches)} outputs differ from TFLM"
        for other in others:
            other.close()


def test_ram_is_the_larger_arena_plus_state(group, tmp_path, own_model):
    """RAM (data + bss) of the group's objects for Cortex-M3, against the same models with separate arenas."""
    if not shutil.which("arm-none-eabi-gcc"):
        pytest.skip("arm-none-eabi-gcc is not installed (scripts/setup.sh installs it)")
    out, _ = group
    separate = tmp_path / "separate"
    for n, m in MODELS.items():
        assert run_tinyaot("compile", own_model(m), "--name", n, "--out", separate).returncode == 0

    def ram(folder, sources):
        total = 0
        for src in sources:
            obj = tmp_path / f"{folder.name}_{src}.o"
            subprocess.run(["arm-none-eabi-gcc", *WARNING_FLAGS, "-Os", "-mcpu=cortex-m3", "-mthumb", "-c",
                            "-I", str(folder), str(folder / src), "-o", str(obj)], check=True)
            text = subprocess.run(["arm-none-eabi-size", str(obj)], capture_output=True, text=True).stdout
            _, data, bss = (int(v) for v in text.splitlines()[1].split()[:3])
            total += data + bss
        return total
    plans = {n: json.loads((out / f"{n}.json").read_text()) for n in MODELS}
    arenas = [p["arena_size"] for p in plans.values()]
    state = sum(p["state_size"] for p in plans.values())
    assert ram(out, [f"{n}.c" for n in MODELS] + ["tinyaot_g_arena.c"]) == max(arenas) + state
    assert ram(separate, [f"{n}.c" for n in MODELS]) == sum(arenas) + state


def test_overlapping_run_is_caught_with_the_check(group, tmp_path):
    out, _ = group
    lib = tmp_path / "libg.so"
    subprocess.run(["gcc", *WARNING_FLAGS, "-DTINYAOT_ARENA_GROUP_CHECK", "-shared", "-fPIC", "-I", str(out),
                    *[str(out / f"{n}.c") for n in MODELS], str(out / "tinyaot_g_arena.c"), "-o", str(lib)],
                   check=True)
    with HostModel(out, "a", library=ctypes.CDLL(str(lib))) as a:
        busy = ctypes.c_uint8.in_dll(a._lib, "tinyaot_g_arena_busy")
        busy.value = 1  # as if model b were interrupted half-way through its run
        a._out[0][...] = 5
        assert a._desc.run(a._in_ptrs, a._out_ptrs) == -9  # TINYAOT_ERROR_ARENA_BUSY
        assert np.all(a.get_output(0) == 5)
        busy.value = 0
        a.run()
        assert busy.value == 0


@pytest.mark.parametrize("args,message", [
    (["--name", "a"], "give one --name per model (2 models, 1 names)"),
    (["--name", "a", "--name", "b"], "several models are compiled together only with --shared-arena"),
    (["--name", "a", "--name", "b", "--shared-arena", "G"],
     "arena group 'G' must be a lower-case C identifier ([a-z_][a-z0-9_]*)"),
])
def test_bad_group_arguments(own_model, tmp_path, args, message):
    result = run_tinyaot("compile", own_model("mini_mobilenet"), own_model("ds_cnn_kws"), *args, "--out", tmp_path)
    assert result.returncode == 1 and result.stderr.strip() == f"tinyaot: error: {message}"
    assert not re.search(r"\.c$", "\n".join(p.name for p in tmp_path.iterdir()))


def test_inspect_prints_the_group_ram_next_to_separate_arenas(own_model):
    result = run_tinyaot("inspect", own_model("mini_mobilenet"), own_model("svdf_rank1_relu"), "--name", "a",
                         "--name", "c", "--shared-arena", "voice")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    arenas = [l for l in lines if re.match(r"arena \d+ bytes", l)]
    a, c = (int(re.match(r"arena (\d+) bytes", l).group(1)) for l in arenas)
    state = int(re.search(r"state (\d+) bytes", arenas[1]).group(1))
    assert [l for l in lines if l.startswith("==")] == ["== a ==", "== c =="] and state > 0
    assert lines[-1] == (f"arena group voice: arena {max(a, c)} bytes shared by a, c (separate arenas: {a + c}); "
                         f"RAM {max(a, c) + state} bytes with state (separate: {a + c + state})")


def test_bench_table_shows_a_group_that_fits_where_separate_arenas_do_not():
    from tinyaot.measure.shared_arena import format_table
    row = {"board": "qemu_cortex_m0", "status": "ok", "arena": 4016, "separate_arenas": 4176, "state": 10240,
           "model_ram": 14256, "model_ram_separate": 14416, "ram": 15000, "ram_separate": None, "flash": 50000,
           "flash_separate": None, "calls": 3, "bit_exact": True, "separate_failed": "ld: tinyaot: RAM overflow"}
    failed = {"board": "qemu_cortex_m3", "status": "build failed", "reason": "ld: tinyaot: RAM overflow"}
    lines = format_table("voice", ["a", "b"], [row, failed]).splitlines()
    assert lines[0] == "arena group voice: a, b (RAM and flash in bytes; 'separate': one arena each)"
    assert lines[3].split() == ["qemu_cortex_m0", "4016", "4176", "10240", "14256", "14416", "15000", "-", "50000",
                                "-", "yes", "(3)"]
    assert lines[4] == "qemu_cortex_m3  build failed: ld: tinyaot: RAM overflow"
    assert lines[5] == "qemu_cortex_m0: with one arena each the firmware does not build: ld: tinyaot: RAM overflow"
