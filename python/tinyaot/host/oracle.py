"""The ground truth: TFLite Micro itself, through the `tflite-micro` package."""

import os
import re
import subprocess
import sys

import numpy as np


def tflm_interpreter(model_path, extra_arena=1 << 20):
    from tflite_micro.python.tflite_micro import runtime
    # The package's default arena, 10x the model's size, is too small for small float32
    # models with large activations; a megabyte more costs nothing on the host.
    size = os.path.getsize(model_path)
    return runtime.Interpreter.from_file(str(model_path), arena_size=10 * size + extra_arena)


def random_inputs(specs, rng):
    """One random array per input spec ({"dtype", "shape"}), over the full integer range (bool: 0 or 1)."""
    arrays = []
    for spec in specs:
        dtype = np.dtype(spec["dtype"])
        if dtype.kind == "f":
            arrays.append(rng.uniform(-4.0, 4.0, size=spec["shape"]).astype(dtype))
        elif dtype.kind == "b":
            arrays.append(rng.integers(0, 2, size=spec["shape"]).astype(dtype))
        else:
            info = np.iinfo(dtype)
            arrays.append(rng.integers(info.min, info.max, size=spec["shape"], endpoint=True).astype(dtype))
    return arrays


def ulps(expected, got):
    """|difference| in ulps of float32 arrays, element by element: the distance between their
    bit patterns in sign-and-magnitude order (-0.0 and +0.0 one apart); NaN against NaN 0."""
    expected, got = (np.asarray(v, np.float32).reshape(-1) for v in (expected, got))
    a, b = (v.view(np.int32).astype(np.int64) for v in (expected, got))
    a, b = (np.where(k < 0, -(k & 0x7fffffff) - 1, k) for k in (a, b))
    return np.where(np.isnan(expected) & np.isnan(got), 0, np.abs(a - b))


def compare_with_tflm(model_path, run_candidate, input_specs, calls=20, seed=0, reset_between=True, outputs=None):
    """Runs TFLM and a candidate on the same random inputs; returns the mismatches.

    run_candidate(list of arrays) -> list of output arrays. With reset_between
    False both keep state across calls (stateful models such as SVDF).
    Each mismatch is (call, output index, expected, got). outputs: a list the
    candidate's outputs of every call are appended to.
    """
    interp = tflm_interpreter(model_path)
    rng = np.random.default_rng(seed)
    mismatches = []
    for call in range(calls):
        inputs = random_inputs(input_specs, rng)
        for i, x in enumerate(inputs):
            interp.set_input(x, i)
        interp.invoke()
        got = run_candidate(inputs)
        if outputs is not None:
            outputs.append(got)
        expected = [interp.get_output(i) for i in range(len(got))]
        for i, (e, g) in enumerate(zip(expected, got)):
            # Bit for bit: float32 NaNs must match too, and -0.0 is not +0.0.
            g = np.asarray(g)
            if e.dtype != g.dtype or e.size != g.size or e.tobytes() != g.tobytes():
                mismatches.append((call, i, e, g))
        if reset_between:
            interp.reset()
    return mismatches



def run_in_child(script, *args, timeout):
    """`python -c script args...` with this tinyaot importable (for tflm_interpreter): TFLM
    prints on the C stderr and can abort, which a child process contains."""
    package_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # python/
    path = os.pathsep.join(p for p in (package_dir, os.environ.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": path})


_USAGE_SCRIPT = """
import sys
from tinyaot.host.oracle import tflm_interpreter
tflm_interpreter(sys.argv[1]).print_allocations()
"""


def tflm_arena_usage(model_path):
    """TFLM's own arena figures for a model, {'total', 'head', 'tail'} in bytes.

    Read from its RecordingMicroAllocator report, which TFLM prints on the C
    stderr: hence a child process.
    """
    stderr = run_in_child(_USAGE_SCRIPT, model_path, timeout=120).stderr.decode("utf-8", "replace")
    usage = dict(re.findall(r"Arena allocation (total|head|tail) (\d+) bytes", stderr))
    if set(usage) != {"total", "head", "tail"}:
        raise RuntimeError(f"TFLM reported no arena figures for {model_path}: {stderr[-500:]}")
    return {k: int(v) for k, v in usage.items()}
