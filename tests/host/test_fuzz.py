"""Damaged models end in a clean error or a TFLM-exact success (tinyaot.fuzz.check
classifies them: compiled warning-free, run under ASan/UBSan, every output written,
equal to TFLM when TFLM accepts the model)."""

import subprocess

import numpy as np
import pytest

from conftest import ROOT, SHARED_MODELS
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.fuzz.campaign import run_campaign
from tinyaot.fuzz.check import run_case, sanitizer_available
from tinyaot.host.model import WARNING_FLAGS
from tinyaot.modelbuilder import ModelBuilder

SHARED_CASES = ROOT.parent / "shared" / "fuzz-cases"
CORPUS = ROOT / "tests" / "fuzz_corpus"  # every case that ever failed, mutated from the project's own models
SEEDED_CASES = 300
GOOD = {"error", "ok", "ok-tflm-refuses", "ok-tflm-undefined"}


def shared_cases():
    return sorted(p.name for p in SHARED_CASES.glob("*.tflite")) if SHARED_CASES.is_dir() else []


@pytest.fixture(autouse=True)
def need_sanitizers():
    if not sanitizer_available():
        pytest.skip("gcc has no libasan: the cases run under ASan/UBSan")


@pytest.mark.parametrize("name", shared_cases() or ["(none)"])
def test_shared_fuzz_case(name, tmp_path):
    if not SHARED_CASES.is_dir():
        pytest.skip(f"{SHARED_CASES} is absent: the shared fuzz cases live beside the repository")
    kind, detail = run_case(SHARED_CASES / name, tmp_path / "work")
    assert kind in GOOD, f"{name}: {kind}: {detail}"


def names_model(names):
    """x -> RELU -> y -> RELU -> z, tensors named as asked; both y and z are outputs."""
    mb = ModelBuilder()
    x = mb.input(names[0], "int8", [1, 4], scale=0.1)
    y = mb.output(mb.tensor(names[1], "int8", [1, 4], scale=0.1))
    z = mb.output(mb.tensor(names[2], "int8", [1, 4], scale=0.1))
    mb.op("RELU", [x], [y])
    mb.op("RELU", [y], [z])
    return mb.build()


@pytest.mark.parametrize("names", [
    ("void", "return", "class"),
    ("tinyaot_m_run", "errno", "int8_t"),
    ("for", "bool", "bool_t"),  # a suffixed keyword must not collide with a real name
    ("x", "out:0", "out/0"),  # two names that sanitise alike
])
def test_tensor_names_never_break_c_or_cxx(names, tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(names_model(names))
    out = tmp_path / "out"
    emit(compile_model(path, Options("m")), out)
    header = (out / "m.h").read_text()
    for name in names:  # the header says which member is which tensor
        assert f"/* tensor '{name.replace(':', ':').replace('/', '/')}' */" in header
    (tmp_path / "use.cpp").write_text('#include "m.h"\nint main() { return (int)sizeof(struct tinyaot_m_inputs); }\n')
    for cmd in (["gcc", *WARNING_FLAGS, "-pedantic", "-c", str(out / "m.c")],
                ["gcc", "-std=gnu99", "-Wall", "-Wextra", "-Werror", "-c", str(out / "m.c")],
                ["g++", "-Wall", "-Wextra", "-Werror", "-c", str(tmp_path / "use.cpp")]):
        result = subprocess.run([*cmd, "-I", str(out), "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
        assert result.returncode == 0, f"{cmd[:2]}: {result.stderr}"
    kind, detail = run_case(path, tmp_path / "work")
    assert kind == "ok", detail


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("*.tflite")))
def test_corpus_case(name, tmp_path):
    kind, detail = run_case(CORPUS / name, tmp_path / "work")
    assert kind in GOOD, f"{name}: {kind}: {detail}"


def test_seeded_fuzz_run(own_models_dir, tmp_path):
    """A fixed seed over the own models (and hello_world when ../shared is there): no defect,
    and the run reaches both refusals and TFLM-exact successes."""
    sources = {p.stem: str(p) for p in own_models_dir.glob("*.tflite")}
    hello = SHARED_MODELS / "tflm_hello_world_int8.tflite"
    if hello.exists():
        sources[hello.stem] = str(hello)
    counts, defects = run_campaign(sources, SEEDED_CASES, seed=2026, work=tmp_path, jobs=2)
    print(dict(sorted(counts.items())))
    assert not defects, "\n".join(f"case {d['index']} ({d['source']}): {d['class']}: {d['detail']}; "
                                  f"{d['mutation']}" for d in defects)
    assert counts["error"] > SEEDED_CASES // 4 and counts["ok"] > SEEDED_CASES // 20


def test_quantize_past_int32_saturates_where_tflm_is_undefined(tmp_path):
    """x / scale far outside int32: TFLM's cast overflows (undefined; INT32_MIN on x86),
    tinyaot clamps to the int8 range by the value's sign, and the checker says why they differ."""
    mb = ModelBuilder()
    x = mb.input("x", "float32", [1, 8])
    y = mb.output(mb.tensor("y", "int8", [1, 8], scale=1e-30, zero_point=-3))
    mb.op("QUANTIZE", [x], [y])
    path = tmp_path / "m.tflite"
    path.write_bytes(mb.build())
    kind, detail = run_case(path, tmp_path / "work")
    assert kind == "ok-tflm-undefined", detail
    x = np.load(tmp_path / "work" / "in.npz")["arr_0"].reshape(-1)
    got = np.frombuffer((tmp_path / "work" / "out_a.bin").read_bytes()[:8], np.int8)
    assert list(got) == [127 if v > 0 else -128 for v in x]
