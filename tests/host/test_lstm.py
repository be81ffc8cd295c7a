"""UNIDIRECTIONAL_SEQUENCE_LSTM: what the catalog comparison (tests/host/test_models_host.py,
20 calls with the state carried) does not reach: the states carried and then reset, under
ASan/UBSan, in each dtype (int8, 16x8, float32); the float32 kernel's integer dot product
bit for bit against the host's IEEE float; and the models tinyaot refuses, each with one
clear error."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from sanitized import run_c_check, run_sanitized
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import compare_with_tflm, tflm_interpreter
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import catalog
from tinyaot.testing.models_lstm import lstm


def check_carried_then_reset(path, name, out_dir, optimize="speed"):
    """Three calls carrying the states, then reset(): three more match a fresh TFLM
    interpreter. Returns the mismatches of both runs."""
    model = compile_model(path, Options(name, optimize=optimize))
    emit(model, out_dir)
    assert model.state_size > 0
    with HostModel(out_dir, name, sanitize=True) as host:
        def run(inputs):
            for i, x in enumerate(inputs):
                host.set_input(i, x)
            host.run()
            return [host.get_output(i) for i in range(len(host.outputs))]

        carried = compare_with_tflm(path, run, host.inputs, calls=3, seed=1, reset_between=False)
        host.reset()
        return carried + compare_with_tflm(path, run, host.inputs, calls=3, seed=2, reset_between=False)


def check_state_carried_then_reset(path, name, out_dir, optimize="speed"):
    assert not check_carried_then_reset(Path(path), name, Path(out_dir), optimize), name


def test_state_carried_then_reset_matches_tflm(tmp_path):
    """Under ASan/UBSan: int8 with its hidden state restarting at zero point -1, its 16x8 form,
    float32 time major over two layers, and int8 time major over two layers with --optimize size
    (tinyaot_lstm_s8_small: the model's int8 weights, not the gate pairs)."""
    cases = [("lstm_audio_fc", "speed"), ("lstm_audio_fc_16x8", "speed"),
             ("lstm_two_layer_time_major_float32", "speed"), ("lstm_two_layer_time_major", "size")]
    run_sanitized("test_lstm", "check_state_carried_then_reset",
                  [dict(path=str(catalog.build(name, tmp_path)), name=name, out_dir=str(tmp_path / "out" / name),
                        optimize=optimize) for name, optimize in cases])


def small_model(change=None):
    """x[1, 3, 6] -> int8 LSTM of 5 units; change(mb, op) edits the operator before serialising."""
    rng = np.random.default_rng(7)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 3, 6], scale=np.float32(0.02), zero_point=0)
    mb.output(lstm(mb, rng, x, np.float32(0.02), [1, 3, 6], 5))
    if change:
        change(mb, mb.operators[-1])
    return mb.build()


def _set_input(k, value):
    def change(mb, op):
        op["inputs"][k] = value(mb) if callable(value) else value
    return change


def _peephole(mb):
    return mb.const("peephole", np.zeros(5, np.int16), scale=np.float32(0.001))


def _option(**values):
    def change(mb, op):
        op["options"].update(values)
    return change


def _tensor(name_end, **values):
    def change(mb, op):
        next(t for t in mb.tensors if t["name"].endswith(name_end)).update(values)
    return change


def _quant(name_end, scale=None, zero_point=None):
    def change(mb, op):
        t = next(t for t in mb.tensors if t["name"].endswith(name_end))
        scales, zps, axis = t["quant"]
        t["quant"] = (scales if scale is None else np.array([scale], np.float32),
                      zps if zero_point is None else np.array([zero_point]), axis)
    return change


def _state_as_input(mb, op):
    hidden = op["inputs"][18]
    mb.tensors[hidden]["variable"] = False
    mb.inputs.append(hidden)


@pytest.mark.parametrize("change,message", [
    (_set_input(9, _peephole), r"peephole \(cell-to-gate weights, inputs 9-11\) is not supported: TFLM's kernel "
                               r"runs the plain LSTM only"),
    (_set_input(16, _peephole), r"projection \(inputs 16-17\) is not supported"),
    (_set_input(21, _peephole), r"layer norm \(inputs 20-23\) is not supported"),
    (_set_input(1, -1), r"CIFG \(no input gate weights\) is not supported: TFLM's kernel needs all four gates"),
    (_option(fused_activation_function=1), r"cell gate activation 1 is not supported"),
    (_state_as_input, r"tensor '\w+_hidden': hidden \(output\) state \(input 18\) must be a variable tensor"),
    (_tensor("_cell", dtype="int8"), r"tensor '\w+_cell': dtype int8 is not supported here \(supported: int16\)"),
    (_quant("_w_rec2", zero_point=3), r"tensor '\w+_w_rec2': weights have zero point 3; it must be 0"),
    (_tensor("_out", shape=[1, 3, 4]), r"tensor '\w+_out': output must be \[1, 3, 5\], not \[1, 3, 4\]"),
    (_quant("_cell", scale=8.0), r"tensor '\w+_cell': cell state scale 8 is too large"),
    (_quant("_out", zero_point=4), r"tensor '\w+_out': hidden state and output quantization differ"),
])
def test_refused_with_one_clear_error(change, message, tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(small_model(change))
    with pytest.raises(TinyAotError, match=r"m\.tflite: operator 0 \(UNIDIRECTIONAL_SEQUENCE_LSTM\): " + message):
        compile_model(path, Options("m"))


def test_another_dtype_is_refused_naming_it(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(small_model(_tensor("x", dtype="int32")))
    with pytest.raises(TinyAotError, match=r"tensor 'x': dtype int32 is not supported here \(supported: int8, "
                                           r"int16, float32\)"):
        compile_model(path, Options("m"))


@pytest.mark.skipif(shutil.which("cc") is None, reason="no host C compiler")
def test_float32_integer_dot_product_matches_ieee_float(tmp_path):
    """tinyaot_f32_dot.h (each product and sum rounded to nearest even in integers, the
    library's float expression where an operand or result is not normal) against
    `acc += x * w` on the host's FPU, both multiply paths (a long multiply; four 32-bit
    ones, as on the M0), under ASan/UBSan: 500 000 dots of 1-12 terms (see the check)."""
    for long_multiply in (0, 1):
        out = run_c_check("f32_dot_check.c", tmp_path / f"f32_dot_check{long_multiply}", 500000, long_multiply,
                          flags=["-ffp-contract=off"], libs=["-lm"], timeout=120)
        assert out == "500000 dots, 3250056 terms, all equal"


def test_float32_huge_values_match_tflm(tmp_path):
    """Rows of huge inputs through the float32 LSTM, two calls carrying the state: the dot
    products overflow, the gates saturate (sigmoid's 1 and expf branches, tanhf's +-1), and
    the outputs stay finite and bit-exact. (Inputs that make NaNs are left out: see the README.)"""
    name = "lstm_seq28_float32"
    path = catalog.build(name, tmp_path)
    emit(compile_model(path, Options(name)), tmp_path / "out")
    interp = tflm_interpreter(path)
    rng = np.random.default_rng(3)
    with HostModel(tmp_path / "out", name) as host:
        for call in range(2):
            x = rng.uniform(-4, 4, size=(1, 28, 28)).astype(np.float32)
            x[0, rng.choice(28, size=6, replace=False)] = np.float32(3e38)  # whole rows of one sign
            x[0, rng.choice(28, size=3, replace=False), :5] = np.float32(-3e38)
            interp.set_input(x, 0)
            interp.invoke()
            host.set_input(0, x)
            host.run()
            expected = interp.get_output(0)
            assert np.isfinite(expected).all() and host.get_output(0).tobytes() == expected.tobytes(), f"call {call}"


def test_int8_gate_pairs_at_their_bounds_match_tflm(tmp_path):
    """The int8 kernel's packed gate pairs (tinyaot_lstm_s8.h) over 300 inputs (a chunk of 255
    terms, then the rest), every input -128 and the input weights -128 or 127: each chunk's
    sums at the largest magnitudes the pairs keep apart; two calls carrying the state."""
    rng = np.random.default_rng(9)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 1, 300], scale=np.float32(0.02), zero_point=0)
    mb.output(lstm(mb, rng, x, np.float32(0.02), [1, 1, 300], 3, w_scale=0.00001))
    for t, spec in enumerate(mb.tensors):
        if "_w_in" in spec["name"]:
            mb.set_constant_data(t, np.full(spec["shape"], 127 if spec["name"].endswith("1") else -128, np.int8))
    path = tmp_path / "pairs.tflite"
    path.write_bytes(mb.build())
    emit(compile_model(path, Options("pairs")), tmp_path / "out")
    interp = tflm_interpreter(path)
    inputs = np.full((1, 1, 300), -128, np.int8)
    with HostModel(tmp_path / "out", "pairs") as host:
        for call in range(2):
            interp.set_input(inputs, 0)
            interp.invoke()
            host.set_input(0, inputs)
            host.run()
            expected = interp.get_output(0)
            got = host.get_output(0)
            assert got.tobytes() == expected.tobytes(), f"call {call}: {got} != {expected}"


def test_size_keeps_the_int8_weights(tmp_path):
    """--optimize size: tinyaot_lstm_s8_small on the model's int8 weights (4 gates x (20 x 28 + 20 x 20)
    bytes for lstm_seq28), where speed packs them two gates to an int32, twice the bytes."""
    path = catalog.build("lstm_seq28", tmp_path)
    weights = {}
    for optimize in ("speed", "size"):
        model = compile_model(path, Options("m", optimize=optimize))
        emit(model, tmp_path / optimize)
        weights[optimize] = json.loads((tmp_path / optimize / "m.json").read_text())["weight_bytes"]
        assert [c.kernel for _, calls in model.calls for c in calls] == [
            "tinyaot_lstm_s8" if optimize == "speed" else "tinyaot_lstm_s8_small"]
    assert weights == {"speed": 2 * 3840, "size": 3840}
