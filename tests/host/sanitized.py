"""Checks run under ASan and UBSan.

The generated C is built into shared libraries with the sanitizers, whose runtime must be the
first thing loaded in the process: the checks run in a Python child started with it in LD_PRELOAD.
One child runs every case of a test (one interpreter start and one TFLM import for all).
The kernels' own C checks (tests/host/c/*_check.c) are built into sanitized programs (run_c_check)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyaot.host.model import SANITIZE_FLAGS, WARNING_FLAGS

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
KERNELS = ROOT / "python" / "tinyaot" / "kernels"

CHILD = """
import importlib, json, sys
sys.path[:0] = {paths!r}
check = getattr(importlib.import_module({module!r}), {function!r})
for case in json.loads({cases!r}):
    print("CASE", json.dumps(case), flush=True)
    check(**case)
print("SANITIZED-OK")
"""


def sanitizer_env():
    """Environment for a Python child that loads sanitized shared libraries."""
    libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan):
        pytest.skip("gcc has no libasan")
    return dict(os.environ, LD_PRELOAD=libasan, ASAN_OPTIONS="detect_leaks=0",
                UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")


def run_sanitized(module, function, cases):
    """module.function(**case) for each case (a dict of JSON values) in one sanitized child; the
    function asserts. A failure names the case it stopped at."""
    script = CHILD.format(paths=[str(ROOT / "python"), str(TESTS), str(TESTS / "host")], module=module,
                          function=function, cases=json.dumps(cases))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=sanitizer_env())
    reached = [line[len("CASE "):] for line in result.stdout.splitlines() if line.startswith("CASE ")]
    assert "SANITIZED-OK" in result.stdout, (f"stopped at {reached[-1] if reached else 'the start'}:\n"
                                             f"{result.stdout[-2000:]}\n{result.stderr[-4000:]}")


def run_c_check(check, exe, arg, long_multiply, flags=(), libs=(), timeout=None):
    """The stdout of tests/host/c/<check>, built under ASan/UBSan into `exe` for one multiply path
    (TINYAOT_LONG_MULTIPLY: a 64-bit product, or 32-bit multiplies as on Armv6-M) and run with `arg`;
    it must exit 0."""
    subprocess.run(["cc", *WARNING_FLAGS, *flags, "-O1", *SANITIZE_FLAGS, f"-DTINYAOT_LONG_MULTIPLY={long_multiply}",
                    "-I", str(KERNELS), str(TESTS / "host" / "c" / check), "-o", str(exe), *libs], check=True)
    result = subprocess.run([str(exe), str(arg)], capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.strip()


def check_all_sanitized(tmp_path, models, cpu="cortex-m3"):
    """check_against_tflm under ASan/UBSan for each {case: model bytes}, compiled for `cpu`."""
    cases = []
    for case, model in models.items():
        (tmp_path / str(case)).mkdir()
        path = tmp_path / str(case) / "m.tflite"
        path.write_bytes(model)
        cases.append(dict(path=str(path), name="m", out_dir=str(path.parent / "out"), calls=3, sanitize=True,
                          cpu=cpu))
    run_sanitized("test_models_host", "check_against_tflm", cases)
