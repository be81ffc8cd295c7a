"""int64 activations and uint32 CAST (tinyaot.testing.models_int64) against TFLM under ASan and
UBSan: the integer extremes (INT64_MIN/MAX next to each other and to values one apart, so the
comparisons meet equal, larger and smaller ones; start indices far outside the operand, which
TFLM clamps; UINT32_MAX and values past INT32_MAX cast down), then random calls. Random inputs
alone run in test_models_host.py."""

import numpy as np
import pytest

from sanitized import run_sanitized
from test_logic_edges import run_both
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import random_inputs, tflm_interpreter

I64_MIN, I64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max
EDGES64 = np.array([I64_MIN, I64_MAX, 0, -1, 1, I64_MIN + 1, I64_MAX - 1, 2**31, -2**31 - 1, 2**32, -2**32, 7],
                   np.int64)
U32 = np.array([0, 2**32 - 1, 2**31, 2**31 - 1, 1, 255, 256, 65535, 65536, 2**32 - 128], np.uint32)


def _edge_inputs(name, shift):
    """Inputs of model `name` (in its input order) from the edge values, rolled by `shift` so that
    two calls pair the values differently."""
    def pick(shape):
        return np.roll(np.resize(EDGES64, int(np.prod(shape))), shift).reshape(shape)

    if name == "int64_moves":
        starts = np.array([[I64_MIN, I64_MAX], [I64_MAX, -1], [1, 2**40]][shift % 3], np.int64)
        x = np.arange(-6, 6, dtype=np.int32).reshape(3, 4) * 357913941  # reaches both int32 ends
        return [pick([2, 3, 4]), pick([2, 1, 4]), starts, x]
    assert name == "int64_compare_cast"
    return [pick([2, 3, 4]), EDGES64[shift:shift + 4],
            np.array([-128, 127, 0, -1, 1, -128, 127, 64, -65, 100], np.int8).reshape(2, 5),
            np.array([-32768, 32767, 0, -1, 128, -129, 255, 256, -32768, 32767], np.int16).reshape(2, 5),
            np.array([-2**31, 2**31 - 1, 0, -1, 65535, 65536, -32769, 255, 128, -129], np.int32).reshape(2, 5),
            np.array([-4.29e9, 4.29e9, -0.0, 0.0, 0.99999994, -1.5, 1e-45, -127.5, 2.1e9, 100.5],
                     np.float32).reshape(2, 5),
            np.array([True, False, True, True, False, False, True, False, True, False]).reshape(2, 5),
            np.roll(U32, shift).reshape(2, 5)]


def check_edges(path, name, out_dir):
    """Two calls of edge values and three random ones, each bit-exact with TFLM."""
    emit(compile_model(path, Options(name)), out_dir)
    tflm = tflm_interpreter(path)
    rng = np.random.default_rng(64)
    with HostModel(out_dir, name, sanitize=True) as host:
        for shift in (0, 5):
            run_both(tflm, host, _edge_inputs(name, shift), f"edges rolled by {shift}: ")
        for call in range(3):
            run_both(tflm, host, random_inputs(host.inputs, rng), f"random call {call}: ")


def test_int64_and_uint32_match_tflm_sanitized(own_model, tmp_path):
    names = ["int64_moves", "int64_compare_cast"]
    run_sanitized("test_int64", "check_edges", [dict(path=str(own_model(n)), name=n, out_dir=str(tmp_path / n))
                                                for n in names])


def test_int64_needs_8_byte_alignment(own_model):
    path = own_model("int64_moves")
    with pytest.raises(TinyAotError) as error:
        compile_model(path, Options("m", alignment=4))
    assert str(error.value) == f"{path}: tensor 'a': alignment 4 is below 8, the alignment of int64 tensors"
