"""cmake/tinyaot.cmake: generation at build time, incremental rebuilds, two
models in one target, generator errors and budget errors surfacing in the build.

Uses a host project (cmake_project/) so it needs no cross compiler, and a copy
of the generator package so touching "generator sources" disturbs nobody.
"""

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import REPO, own_models

PROJECT = Path(__file__).parent / "cmake_project"


def run(cmd, cwd=None, check=True):
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed:\n{proc.stdout}")
    return proc


def touch(path):
    """Now, strictly after anything built so far. (Not a future time: ninja
    logs the newest input time it saw, so a future mtime would hide later edits.)"""
    time.sleep(0.02)
    os.utime(path)


def generated(output):
    return {name for name in ("model_a", "model_b") if f"tinyaot: generating {name} " in output}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    if shutil.which("cc") is None:
        pytest.skip("no host C compiler (cc)")
    tmp = tmp_path_factory.mktemp("cmake")
    models = own_models()
    a, b = tmp / "a.tflite", tmp / "b.tflite"
    shutil.copy(models["fc_relu_per_tensor"], a)
    shutil.copy(models["reshape_views"], b)
    gen = tmp / "python"
    shutil.copytree(REPO / "python" / "tinyaot", gen / "tinyaot",
                    ignore=shutil.ignore_patterns("__pycache__"))
    build = tmp / "build"
    configure = ["cmake", "-G", "Ninja", "-S", str(PROJECT), "-B", str(build),
                 f"-DTINYAOT_REPO={REPO}", f"-DTINYAOT_PYTHONPATH={gen}",
                 f"-DMODEL_A={a}", f"-DMODEL_B={b}", "-DMODEL_B_RAM_BUDGET=100000"]
    run(configure)
    return {"build": build, "a": a, "b": b, "gen": gen / "tinyaot", "configure": configure}


def ninja(project, *args, check=True):
    return run(["ninja", "-C", str(project["build"]), *args], check=check).stdout


def assert_up_to_date(project):
    """A real build that does nothing. (Not `ninja -n`: with CONFIGURE_DEPENDS
    globs the glob check always runs, and a dry run cannot see that it finds
    nothing new, so it would always predict a CMake re-run.)"""
    out = ninja(project, "-d", "explain")
    assert "no work to do" in out, out
    assert "Building" not in out and "Linking" not in out and "generating" not in out, out


def test_first_build_generates_both_models_into_one_program(project):
    out = ninja(project)
    assert generated(out) == {"model_a", "model_b"}
    for name in ("model_a", "model_b"):
        for ext in ("c", "h", "json"):
            assert (project["build"] / "tinyaot" / name / f"{name}.{ext}").exists()
    printed = run([str(project["build"] / "two_models")]).stdout.splitlines()
    assert printed[0].startswith("model_a inputs=1 outputs=1 arena=")
    assert printed[1].startswith("model_b inputs=1 outputs=1 arena=")
    assert "--alignment 8" in (project["build"] / "build.ninja").read_text()


def test_nothing_changed_regenerates_nothing(project):
    ninja(project)
    assert_up_to_date(project)
    assert_up_to_date(project)


def test_touched_model_regenerates_only_that_model(project):
    ninja(project)
    touch(project["a"])
    out = ninja(project)
    assert generated(out) == {"model_a"}, out
    assert "model_a.c" in out and "model_b.c" not in out
    assert_up_to_date(project)


def test_changed_generator_regenerates_all_models(project):
    ninja(project)
    touch(project["gen"] / "cli.py")
    assert generated(ninja(project)) == {"model_a", "model_b"}
    assert_up_to_date(project)


def test_new_generator_file_is_noticed_and_harness_is_not_a_generator_source(project):
    ninja(project)
    (project["gen"] / "harness" / "notes.py").write_text("# not part of the generator\n")
    touch(project["gen"] / "harness" / "device.py")
    touch(project["gen"] / "measure" / "bench.py")
    touch(project["gen"] / "host" / "oracle.py")
    touch(project["gen"] / "modelbuilder.py")
    assert generated(ninja(project)) == set()
    (project["gen"] / "ops" / "__pycache__").mkdir(exist_ok=True)
    (project["gen"] / "ops" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")
    out = ninja(project)
    assert generated(out) == set()
    assert "Re-running CMake" not in out, out  # bytecode caches are not globbed
    (project["gen"] / "ops" / "brand_new_op.py").write_text("# a new generator file\n")
    assert generated(ninja(project)) == {"model_a", "model_b"}
    (project["gen"] / "ops" / "brand_new_op.py").unlink()
    ninja(project)
    assert_up_to_date(project)


def test_generator_error_fails_the_build_with_its_own_message(project):
    good = project["b"].read_bytes()
    try:
        project["b"].write_bytes(b"this is not a flatbuffer")
        touch(project["b"])
        proc = run(["ninja", "-C", str(project["build"])], check=False)
        assert proc.returncode != 0
        errors = [line for line in proc.stdout.splitlines() if line.startswith("tinyaot: error:")]
        assert len(errors) == 1 and "b.tflite" in errors[0], proc.stdout
        # A failed generation is retried, not remembered as done.
        assert run(["ninja", "-C", str(project["build"])], check=False).returncode != 0
    finally:
        project["b"].write_bytes(good)
        touch(project["b"])
    assert generated(ninja(project)) == {"model_b"}


def test_budget_failure_names_model_and_sizes(project):
    configure = [a for a in project["configure"] if not a.startswith("-DMODEL_B_RAM_BUDGET=")]
    try:
        run(configure + ["-DMODEL_B_RAM_BUDGET=3"])
        proc = run(["ninja", "-C", str(project["build"])], check=False)
        assert proc.returncode != 0
        arena = int((project["build"] / "tinyaot/model_b/model_b.json").read_text()
                    .split('"arena_size":')[1].split(",")[0])
        assert (f"tinyaot: model 'model_b' does not fit the test budget: needs {arena} bytes of RAM"
                f" (arena {arena} + state 0) but only 3 are available") in proc.stdout, proc.stdout
        assert not (project["build"] / "two_models").exists() or "Linking" not in proc.stdout
    finally:
        run(project["configure"])
    ninja(project)
    assert_up_to_date(project)


def bare_python(folder):
    """A Python without any of the generator's packages (a venv without site packages)."""
    import sys
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / "bin" / "python"


def test_python_without_the_generator_packages_gets_one_pip_line(project, tmp_path):
    python = bare_python(tmp_path / "bare")
    configure = [str(tmp_path / "build") if a == str(project["build"]) else a
                 for a in project["configure"]]
    proc = run(configure + [f"-DTINYAOT_PYTHON={python}"], check=False)
    assert proc.returncode != 0
    assert "ModuleNotFoundError" not in proc.stdout and "internal error" not in proc.stdout
    lines = [l for l in proc.stdout.splitlines() if l.startswith("tinyaot: the generator needs")]
    assert lines == [f"tinyaot: the generator needs Python packages that {python} lacks "
                     f"(numpy, tflite>=2.10, jinja2>=3); install them with: "
                     f"{python} -m pip install numpy 'tflite>=2.10' 'jinja2>=3'"], proc.stdout


def test_arena_group_and_weights_blob(project):
    """ARENA_GROUP: one arena of the larger need compiled into the target; WEIGHTS blob: bound at run time."""
    ninja(project, "group_models")
    build = project["build"]
    plans = [json.loads((build / "tinyaot" / n / f"{n}.json").read_text()) for n in ("g_a", "g_b")]
    blob = build / "tinyaot" / "g_b" / "g_b.weights.bin"
    printed = run([str(build / "group_models"), str(blob)]).stdout.splitlines()
    assert printed == [f"group arena={max(p['arena_size'] for p in plans)} a={plans[0]['arena_size']} "
                       f"b={plans[1]['arena_size']}", "b before bind=-2", "bind=0", "a=0 b=0"]
    assert plans[1]["blob"]["size"] == blob.stat().st_size
    assert "static uint8_t tinyaot_g_a_arena" not in (build / "tinyaot" / "g_a" / "g_a.c").read_text()


def test_cpu_follows_the_targets_core_and_float_abi(tmp_path):
    """The --cpu tinyaot_add_model passes with the portable kernels, from each target's
    -mcpu and float ABI or Zephyr's GCC_M_CPU and CONFIG_FPU: GCC turns Helium (MVE) on
    only with a floating-point ABI, so a soft-float M55 gets cortex-m55+nomve (DSP kernels); an
    Armv6-M core is named too (its LSTM weight layout), other cores without DSP are not."""
    cases = {  # name -> (compile options, Zephyr's GCC_M_CPU, CONFIG_FPU)
        "m55_hard": (("-mcpu=cortex-m55", "-mfloat-abi=hard"), "", ""),
        "m55_soft": (("-mcpu=cortex-m55", "-mfloat-abi=soft"), "", ""),
        "m55_nomve": (("-mcpu=cortex-m55+nomve", "-mfloat-abi=hard"), "", ""),
        "m33_nodsp": (("-mcpu=cortex-m33+nodsp",), "", ""),
        "m0": (("-mcpu=cortex-m0",), "", ""), "m3": (("-mcpu=cortex-m3",), "", ""),
        "zephyr_m55": ((), "cortex-m55", ""), "zephyr_m55_fpu": ((), "cortex-m55", "y"),
    }
    expected = {"m55_hard": "cortex-m55", "m55_soft": "cortex-m55+nomve", "m55_nomve": "cortex-m55+nomve",
                "m33_nodsp": None, "m0": "cortex-m0", "m3": None, "zephyr_m55": "cortex-m55+nomve", "zephyr_m55_fpu": "cortex-m55"}
    model = own_models()["fc_relu_per_tensor"]
    lines = ["cmake_minimum_required(VERSION 3.20)", "project(cpus C)",
             f'include("{REPO}/cmake/tinyaot.cmake")']
    for name, (options, gcc_m_cpu, fpu) in cases.items():
        lines += [f"add_library({name} STATIC lib.c)",
                  *([f"target_compile_options({name} PRIVATE {' '.join(options)})"] if options else []),
                  f'set(GCC_M_CPU "{gcc_m_cpu}")' if gcc_m_cpu else "unset(GCC_M_CPU)",
                  f"set(CONFIG_FPU {fpu})",
                  f'tinyaot_add_model({name} MODEL "{model}" NAME {name})']
    (tmp_path / "CMakeLists.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "lib.c").write_text("int lib;\n")
    run(["cmake", "-G", "Ninja", "-S", str(tmp_path), "-B", str(tmp_path / "build")])
    ninja_file = (tmp_path / "build" / "build.ninja").read_text()
    got = {}
    for name in cases:  # the generator's command line for that model
        command = next(line for line in ninja_file.splitlines()
                       if "-m tinyaot compile" in line and f"--name {name} " in line)
        got[name] = command.split("--cpu ", 1)[1].split()[0] if "--cpu " in command else None
    assert got == expected
