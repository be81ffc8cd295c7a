"""int16 LOGISTIC and TANH (16x8) against TFLM on every int16 input, at every scale of
LOGISTIC_TANH_16X8_SCALES: checks the generated sigmoid table (tinyaot.ops.lut.sigmoid_table)
by behaviour, all 256 knots and both signs, and both of TFLM's input rescale paths. What TFLM
refuses, tinyaot refuses in one line naming the operator and the tensor."""

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host import HostModel
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.oracle import tflm_interpreter
from tinyaot.testing.models_16x8 import LOGISTIC_TANH_16X8_SCALES, logistic_tanh_16x8_model

EVERY_INT16 = np.arange(-32768, 32768, dtype=np.int16)


def test_every_int16_input_matches_tflm(tmp_path):
    path = tmp_path / "every.tflite"
    path.write_bytes(logistic_tanh_16x8_model([EVERY_INT16.size]))
    emit(compile_model(path, Options("every")), tmp_path / "out")
    interp = tflm_interpreter(path, extra_arena=4 << 20)
    with HostModel(tmp_path / "out", "every") as host:
        for i in range(len(LOGISTIC_TANH_16X8_SCALES)):
            interp.set_input(EVERY_INT16, i)
            host.set_input(i, EVERY_INT16)
        interp.invoke()
        host.run()
        differing = {}
        for i in range(2 * len(LOGISTIC_TANH_16X8_SCALES)):
            expected, got = interp.get_output(i), host.get_output(i)
            assert expected.dtype == got.dtype == np.int16
            if not np.array_equal(expected, got):
                differing[("LOGISTIC", "TANH")[i % 2], LOGISTIC_TANH_16X8_SCALES[i // 2]] = \
                    int(np.count_nonzero(expected != got))
        # At scale 2^-11 the table's steps are 6 inputs: every segment holds dozens of inputs of
        # either sign, and both ends saturate.
        logistic, tanh = host.get_output(2), host.get_output(3)
        assert (logistic.min(), logistic.max(), tanh.min(), tanh.max()) == (1, 32767, -32767, 32767)
    assert not differing, f"values differing from TFLM, per (operator, input scale): {differing}"


def one_op(op="LOGISTIC", in_dtype="int16", out_dtype="int16", in_scale=2**-12, in_zp=0, out_scale=1 / 32768,
           out_zp=0):
    mb = ModelBuilder()
    x = mb.input("x", in_dtype, [1, 8], scale=in_scale, zero_point=in_zp)
    mb.op(op, [x], [mb.output(mb.tensor("y", out_dtype, [1, 8], scale=out_scale, zero_point=out_zp))])
    return mb.build()


REFUSED = [
    # TFLM refuses these too (its Prepare's checks).
    (one_op(in_zp=3), True, r"operator 0 \(LOGISTIC\): tensor 'x': int16 zero point must be 0, not 3"),
    (one_op("TANH", out_zp=-1), True, r"operator 0 \(TANH\): tensor 'y': int16 zero point must be 0, not -1"),
    (one_op(out_scale=1 / 16384), True,
     r"operator 0 \(LOGISTIC\): tensor 'y': int16 output must have scale 1/32768, not 6.10352e-05"),
    (one_op("TANH", out_scale=1.003 / 32768), True,
     r"operator 0 \(TANH\): tensor 'y': int16 output must have scale 1/32768, not 3.06091e-05"),
    (one_op("TANH", out_dtype="int8", out_scale=1 / 128), True,
     r"operator 0 \(TANH\): tensor 'y': output dtype int8 differs from input dtype int16"),
    # TFLM takes these without a check but leaves its kernels' contract: its DCHECK on the
    # multiplier (then the 32-bit multiply can overflow), a multiplier of 0 (then read as 3 << 31).
    (one_op(in_scale=2.7), False,
     r"operator 0 \(LOGISTIC\): tensor 'x': input scale 2.7 is too large: TFLM's int16 LOGISTIC takes up to "
     r"2.667 \(its input multiplier 33177 would pass 32767\)"),
    (one_op("TANH", in_scale=1e-14), False,
     r"operator 0 \(TANH\): tensor 'x': input scale 1e-14 is too small for TFLM's int16 TANH \(its input "
     r"multiplier truncates to 0\)"),
]


@pytest.mark.parametrize("data,tflm_refuses,message", REFUSED,
                         ids=["input-zero-point", "output-zero-point", "output-scale-1/16384",
                              "output-scale-off-by-0.3%", "int8-output", "input-scale-too-large",
                              "input-scale-too-small"])
def test_refused_in_one_line(tmp_path, data, tflm_refuses, message):
    path = tmp_path / "bad.tflite"
    path.write_bytes(data)
    with pytest.raises(TinyAotError, match=message):
        compile_model(path, Options("bad"))
    if tflm_refuses:
        with pytest.raises(RuntimeError):
            tflm_interpreter(path)


def test_output_scale_within_checked_log2_tolerance_compiles(tmp_path):
    """TFLM's CheckedLog2 takes an output scale within 0.1% of 1/32768 (its kernels ignore it)."""
    path = tmp_path / "ok.tflite"
    path.write_bytes(one_op("TANH", out_scale=1.0005 / 32768))
    compile_model(path, Options("ok"))
    tflm_interpreter(path)
