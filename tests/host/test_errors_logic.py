"""The comparisons, logical operators, SELECT_V2, CAST, int8 LOG_SOFTMAX, GATHER_ND, EMBEDDING_LOOKUP
and DYNAMIC_UPDATE_SLICE refuse what TFLM refuses or what cannot run here, in one line naming
the operator, the tensor and the problem."""

import re

import numpy as np
import pytest

from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder

Q = dict(scale=0.1, zero_point=0)


def _model(build):
    mb = ModelBuilder()
    build(mb)
    return mb.build()


def _binary(op, dtype, out_dtype="bool", quant=Q):
    def build(mb):
        q = quant if dtype in ("int8", "int16") else {}
        a, b = mb.input("a", dtype, [4], **q), mb.input("b", dtype, [4], **q)
        mb.op(op, [a, b], [mb.output(mb.tensor("y", out_dtype, [4]))])
    return _model(build)


def _unary(op, dtype, out_dtype):
    def build(mb):
        mb.op(op, [mb.input("x", dtype, [4])], [mb.output(mb.tensor("y", out_dtype, [4]))])
    return _model(build)


def _select(x_quant, y_quant):
    def build(mb):
        c = mb.input("c", "bool", [4])
        x, y = mb.input("x", "int8", [4], **x_quant), mb.input("yy", "int8", [4], **y_quant)
        mb.op("SELECT_V2", [c, x, y], [mb.output(mb.tensor("y", "int8", [4], **Q))])
    return _model(build)


def _log_softmax_output(quant):
    def build(mb):
        mb.op("LOG_SOFTMAX", [mb.input("x", "int8", [2, 4], **Q)], [mb.output(mb.tensor("y", "int8", [2, 4], **quant))])
    return _model(build)


def _gather_nd_runtime():
    def build(mb):
        p, i = mb.input("p", "float32", [3, 4]), mb.input("i", "int16", [2, 1])
        mb.op("GATHER_ND", [p, i], [mb.output(mb.tensor("y", "float32", [2, 4]))])
    return _model(build)


def _lookup(ids):
    def build(mb):
        table = mb.input("table", "float32", [3, 2])
        mb.op("EMBEDDING_LOOKUP", [mb.const("ids", np.array(ids, np.int32)), table],
              [mb.output(mb.tensor("y", "float32", [len(ids), 2]))])
    return _model(build)


def _update(update_shape):
    def build(mb):
        x, u = mb.input("x", "float32", [3, 4]), mb.input("u", "float32", update_shape)
        mb.op("DYNAMIC_UPDATE_SLICE", [x, u, mb.const("at", np.array([0, 0], np.int32))],
              [mb.output(mb.tensor("y", "float32", [3, 4]))])
    return _model(build)


CASES = [
    (_binary("LESS", "int16"), r"operator 0 \(LESS\): tensor 'a': dtype int16 is not supported here "
                               r"\(supported: float32, int32, int64, int8\)"),
    (_binary("GREATER", "int16", quant=dict(scale=1.5, zero_point=0)),
     r"operator 0 \(GREATER\): tensor 'a': scale 1.5 is 1 or more \(TFLM's comparison takes scales below 1\)"),
    (_binary("EQUAL", "int16"), r"operator 0 \(EQUAL\): tensor 'a': dtype int16 is not supported here "
                                r"\(supported: float32, int32, int64, int8, bool\)"),
    (_binary("GREATER", "bool"), r"operator 0 \(GREATER\): tensor 'a': dtype bool is not supported here"),
    (_binary("EQUAL", "int8", quant=dict(scale=1.5, zero_point=0)),
     r"operator 0 \(EQUAL\): tensor 'a': scale 1.5 is 1 or more \(TFLM's comparison takes scales below 1\)"),
    (_binary("EQUAL", "float32", out_dtype="int8"), r"operator 0 \(EQUAL\): tensor 'y': dtype int8 is not "
                                                    r"supported here \(supported: bool\)"),
    (_binary("LOGICAL_AND", "float32"), r"operator 0 \(LOGICAL_AND\): tensor 'a': dtype float32 is not supported"),
    (_unary("CAST", "float32", "bool"), r"operator 0 \(CAST\): tensor 'y': dtype bool is not supported here "
                                        r"\(supported: int8, int16, int32, uint32, float32\)"),
    (_unary("CAST", "int64", "int32"), r"operator 0 \(CAST\): tensor 'x': dtype int64 is not supported here "
                                       r"\(supported: int8, int16, int32, uint32, float32, bool\)"),
    (_unary("LOGICAL_NOT", "int8", "bool"), r"operator 0 \(LOGICAL_NOT\): tensor 'x': dtype int8 is not supported"),
    (_select(Q, dict(scale=0.2, zero_point=0)), r"operator 0 \(SELECT_V2\): tensor 'yy': input quantization "
                                                r"\(scale 0.2, zero point 0\) differs from the output's"),
    (_log_softmax_output(dict(scale=0.1, zero_point=127)),
     r"operator 0 \(LOG_SOFTMAX\): tensor 'y': output quantization \(scale 0.1, zero point 127\) is not TFLM's "
     r"\(scale 0.0625, zero point 127\)"),
    (_gather_nd_runtime(), r"operator 0 \(GATHER_ND\): tensor 'i': indices computed at run time must be int32 "
                           r"\(as TFLM's kernel\), not int16"),
    (_lookup([0, 3]), r"operator 0 \(EMBEDDING_LOOKUP\): tensor 'ids': id 3 is outside 0..2"),
    (_update([4, 1]), r"operator 0 \(DYNAMIC_UPDATE_SLICE\): tensor 'u': update shape \[4, 1\] does not fit in "
                      r"operand shape \[3, 4\]"),
]


def _case_id(message):
    """The operator's name from the expected message, for readable test ids."""
    return re.search(r"[(](\w+)", message).group(1)


@pytest.mark.parametrize("data,message", CASES, ids=[f"{_case_id(m)}-{k}" for k, (_, m) in enumerate(CASES)])
def test_refused_with_one_line(tmp_path, data, message):
    path = tmp_path / "bad.tflite"
    path.write_bytes(data)
    with pytest.raises(TinyAotError, match=r"bad\.tflite: " + message) as info:
        compile_model(path, Options("bad"))
    assert "\n" not in str(info.value)
