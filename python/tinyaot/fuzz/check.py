"""Runs one model through tinyaot and TFLM and says which class it ends in.

Classes: "error" (a one-line TinyAotError naming the file), "ok" (compiled, ran
clean under the sanitizers, wrote every output, and equals TFLM byte for byte,
or TFLM itself refused or crashed on the model: "ok-tflm-refuses"), or
"defect-<kind>" with a detail line. One more good class, "ok-tflm-undefined": the
outputs differ only where TFLM's own C++ has undefined behaviour on these inputs
(a QUANTIZE from float whose x / scale + zero point leaves int32: TFLM's cast and
addition overflow, giving INT32_MIN on x86; tinyaot saturates, as TFLM means to).
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import tflite

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import SANITIZE_FLAGS, WARNING_FLAGS
from tinyaot.planner.greedy import align_up
from tinyaot.host.oracle import random_inputs, run_in_child

CALLS = 2  # two calls in a row: stateful models must agree on the second too
_NP = {0: np.int8, 1: np.int16, 2: np.int32, 3: np.float32, 4: np.uint8, 5: np.bool_,
       6: np.int64, 7: np.uint32}
_SENTINELS = (0xA5, 0x5A)

# A standalone runner (a process of its own, so a sanitizer report or a crash
# cannot take the fuzzer down): reads every input, runs CALLS times, writes every
# output; outputs start filled with a sentinel, once per sentinel byte.
_RUNNER_C = r"""
#include <stdio.h>
#include <string.h>
#include "m.h"
#define ALIGN16(n) (((n) + 15u) & ~15u)
/* Caller buffers aligned as a C object of the tensor's type would be. */
static uint32_t in_words[%(in_total)d / 4 + 4], out_words[%(out_total)d / 4 + 4];
int main(int argc, char **argv)
{
    unsigned char *in_bytes = (unsigned char *)in_words, *out_bytes = (unsigned char *)out_words;
    void *ins[%(n_in)d + 1], *outs[%(n_out)d + 1];
    uint32_t i, off = 0;
    int call;
    FILE *f = fopen(argv[1], "rb");
    if (argc != 4 || !f) return 3;
    for (i = 0; i < tinyaot_m_model.num_inputs; i++) {
        ins[i] = in_bytes + off;
        if (fread(ins[i], 1, tinyaot_m_model.inputs[i].size_bytes, f) != tinyaot_m_model.inputs[i].size_bytes) return 3;
        off += ALIGN16(tinyaot_m_model.inputs[i].size_bytes);
    }
    fclose(f);
    off = 0;
    for (i = 0; i < tinyaot_m_model.num_outputs; i++) { outs[i] = out_bytes + off; off += ALIGN16(tinyaot_m_model.outputs[i].size_bytes); }
    f = fopen(argv[2], "wb");
    for (call = 0; call < %(calls)d; call++) {
        memset(out_bytes, argv[3][0] == 'a' ? 0xA5 : 0x5A, sizeof out_words);
        if (tinyaot_m_model.run(ins, outs) != TINYAOT_OK) return 4;
        for (i = 0; i < tinyaot_m_model.num_outputs; i++) fwrite(outs[i], 1, tinyaot_m_model.outputs[i].size_bytes, f);
    }
    fclose(f);
    return 0;
}
"""

_ORACLE = """
import sys, numpy as np
from tinyaot.host.oracle import tflm_interpreter
interp = tflm_interpreter(sys.argv[1])
ins = np.load(sys.argv[2], allow_pickle=False)
outs = []
for call in range({calls}):
    for i in range(len(ins.files)):
        interp.set_input(ins[f"arr_{{i}}"], i)
    interp.invoke()
    k = 0
    while True:
        try:
            outs.append(np.ascontiguousarray(interp.get_output(k)).tobytes())
        except Exception:
            break
        k += 1
sys.stdout.buffer.write(b"".join(outs))
"""


def sanitizer_available():
    return os.path.isabs(subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                                        text=True).stdout.strip())


def run_case(model_path, work, seed=0, oracle_timeout=60):
    """(class, detail) for the model at model_path; `work` is a scratch folder."""
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        model = compile_model(model_path, Options("m"))
        emit(model, work / "out")
    except TinyAotError as e:
        text = str(e)
        if "\n" in text or not text.startswith(str(model_path)):
            return "defect-bad-error", text[:300]
        return "error", text
    except Exception as e:  # noqa: BLE001 - exactly what the fuzzer looks for
        return "defect-internal-error", f"{type(e).__name__}: {e}"[:300]

    declared = _declared_io(model_path)
    got = (len(model.graph.inputs), len(model.graph.outputs))
    header = (work / "out" / "m.h").read_text()
    in_header = tuple(int(n) for n in re.findall(r"#define TINYAOT_M_NUM_(?:INPUTS|OUTPUTS) (\d+)", header))
    if in_header != declared or got != declared:
        return "defect-io-count", f"model declares {declared} inputs/outputs, header says {in_header}"

    specs_in = [_spec(t) for t in _io_tensors(model, model.graph.inputs)]
    specs_out = [_spec(t) for t in _io_tensors(model, model.graph.outputs)]
    in_total = sum(align_up(s["bytes"], 16) for s in specs_in)
    out_total = sum(align_up(s["bytes"], 16) for s in specs_out)
    (work / "run.c").write_text(_RUNNER_C % dict(in_total=in_total, out_total=out_total, n_in=len(specs_in),
                                       n_out=len(specs_out), calls=CALLS))
    exe = work / "run"
    cc = subprocess.run(["gcc", *WARNING_FLAGS, "-pedantic", "-O1", "-g", *SANITIZE_FLAGS, "-I", str(work / "out"),
                         str(work / "out" / "m.c"), str(work / "run.c"), "-lm", "-o", str(exe)],
                        capture_output=True, text=True)
    if cc.returncode:
        return "defect-c-compile-error", _first_error(cc.stderr)

    inputs = random_inputs([{"dtype": s["dtype"], "shape": s["shape"]} for s in specs_in],
                           np.random.default_rng(seed))
    (work / "in.bin").write_bytes(b"".join(np.ascontiguousarray(x).tobytes() for x in inputs))
    results = []
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    for sentinel in "ab":
        run = subprocess.run([str(exe), str(work / "in.bin"), str(work / f"out_{sentinel}.bin"), sentinel],
                             capture_output=True, text=True, timeout=60, env=env)
        if run.returncode:
            return "defect-runtime", f"exit {run.returncode}: {_first_error(run.stderr)}"
        results.append(np.frombuffer((work / f"out_{sentinel}.bin").read_bytes(), np.uint8))
    a, b = results
    never = (a == _SENTINELS[0]) & (b == _SENTINELS[1])
    if never.any():
        return "defect-output-not-written", f"{int(never.sum())} of {len(a)} output bytes never written by run()"

    np.savez(work / "in.npz", *inputs)
    try:
        oracle = run_in_child(_ORACLE.format(calls=CALLS), model_path, work / "in.npz", timeout=oracle_timeout)
    except subprocess.TimeoutExpired:
        return "ok-tflm-refuses", "TFLM timed out"
    if oracle.returncode:
        return "ok-tflm-refuses", _first_error(oracle.stderr.decode("utf-8", "replace"))
    expected = np.frombuffer(oracle.stdout, np.uint8)
    if len(expected) != len(a):
        return "defect-differs-tflm", f"TFLM wrote {len(expected)} output bytes, tinyaot {len(a)}"
    differ = np.flatnonzero(expected != a)
    if len(differ) and _quantize_overflows(model.graph, inputs):
        return "ok-tflm-undefined", "a float QUANTIZE of an input leaves int32, where TFLM's result is undefined"
    if len(differ):
        return "defect-differs-tflm", f"{len(differ)} of {len(a)} output bytes differ, first at byte {differ[0]}"
    return "ok", f"{len(a)} output bytes equal TFLM's"


def _quantize_overflows(graph, inputs):
    """True if a QUANTIZE reading a float32 model input rounds some value, plus the
    zero point, outside int32 (as AffineQuantize: round(x / float(scale)) + zero point)."""
    for op in graph.operators:
        t_in, t_out = graph.tensors[op.inputs[0]], graph.tensors[op.outputs[0]]
        if op.type != "QUANTIZE" or t_in.dtype != "float32" or op.inputs[0] not in graph.inputs:
            continue
        x = inputs[graph.inputs.index(op.inputs[0])].astype(np.float32)
        scaled = (x / np.float32(t_out.scale)).astype(np.float64)
        rounded = np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)  # std::round: halves away from zero
        for value in (rounded, rounded + t_out.zero_point):  # the cast, then the addition
            if ((value < -2**31) | (value > 2**31 - 1)).any():
                return True
    return False


def _io_tensors(model, indices):
    return [model.graph.tensors[t] for t in indices]


def _spec(tensor):
    return {"dtype": np.dtype(np.float32 if tensor.dtype == "float32" else tensor.dtype),
            "shape": tuple(tensor.shape) or (1,), "bytes": tensor.nbytes}


def _declared_io(model_path):
    sub = tflite.Model.GetRootAsModel(Path(model_path).read_bytes(), 0).Subgraphs(0)
    return sub.InputsLength(), sub.OutputsLength()


def _first_error(stderr):
    lines = [ln for ln in stderr.splitlines() if "error" in ln.lower() or "runtime" in ln.lower()]
    return " ".join((lines or stderr.splitlines()[-3:] or [""])[:2]).strip()[:300]


if __name__ == "__main__":  # python -m tinyaot.fuzz.check model.tflite workdir
    print(json.dumps(run_case(sys.argv[1], sys.argv[2])))
