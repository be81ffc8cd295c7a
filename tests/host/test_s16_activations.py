"""int16 LOGISTIC and TANH (16x8) against TFLM on every int16 input, at every scale of
LOGISTIC_TANH_16X8_SCALES: checks the generated sigmoid table (tinyaot.ops.lut.sigmoid_table)
by behaviour, all 256 knots and both signs, and both of TFLM's input rescale paths. What TFLM
refuses, tinyaot refuses in one line naming the operator and the tensor. RELU and LEAKY_RELU
(int8 and int16) on every input, at scales where how their factors are computed shows; int16
SOFTMAX on every difference from a row's maximum, at each of its rescale paths."""

import numpy as np
import pytest

from test_logic_edges import outputs_of_both
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.host.oracle import tflm_interpreter
from tinyaot.testing.models_16x8 import LOGISTIC_TANH_16X8_SCALES, logistic_tanh_16x8_model

EVERY_INT16 = np.arange(-32768, 32768, dtype=np.int16)


def every_input_outputs(tmp_path, data, inputs, extra_arena=4 << 20):
    """(TFLM's outputs, tinyaot's outputs) of a model given `inputs`."""
    path = tmp_path / "every.tflite"
    path.write_bytes(data)
    emit(compile_model(path, Options("every")), tmp_path / "out")
    interp = tflm_interpreter(path, extra_arena=extra_arena)
    with HostModel(tmp_path / "out", "every") as host:
        return outputs_of_both(interp, host, inputs)


def test_every_int16_input_matches_tflm(tmp_path):
    scales = LOGISTIC_TANH_16X8_SCALES
    expected, got = every_input_outputs(tmp_path, logistic_tanh_16x8_model([EVERY_INT16.size]),
                                        [EVERY_INT16] * len(scales))
    differing = {}
    for i, (e, g) in enumerate(zip(expected, got)):
        assert e.dtype == g.dtype == np.int16
        if not np.array_equal(e, g):
            differing[("LOGISTIC", "TANH")[i % 2], scales[i // 2]] = int(np.count_nonzero(e != g))
    # At scale 2^-11 the table's steps are 6 inputs: every segment holds dozens of inputs of
    # either sign, and both ends saturate.
    logistic, tanh = got[2], got[3]
    assert (logistic.min(), logistic.max(), tanh.min(), tanh.max()) == (1, 32767, -32767, 32767)
    assert not differing, f"values differing from TFLM, per (operator, input scale): {differing}"


# (dtype, input scale, input zero point, output scale, output zero point, LEAKY_RELU's alpha or None
# for RELU): scales whose rescale factors differ between float32 and double arithmetic at some
# inputs (0.0005 / 0.0006 at every rounding tie), which only every input reliably reaches.
RESCALED = [
    ("int8", 0.0005, 0, 0.0006, 0, None), ("int16", 0.0005, 0, 0.0006, 0, None),
    ("int8", 0.0005, 10, 0.0006, 19, 0.5), ("int16", 0.0005, -7821, 0.0006, 5045, 0.5),
    ("int16", 0.0015196849, -2544, 0.0012349784, 5877, 0.66797215),
    ("int16", 0.0018825151, 4391, 0.0018721796, -7954, 1.5),
    ("int16", 0.00065305555, -7927, 0.0094126025, 5308, -0.633464),
]


def test_relu_and_leaky_relu_match_tflm_on_every_input(tmp_path):
    mb = ModelBuilder()
    inputs = []
    for k, (dtype, in_scale, in_zp, out_scale, out_zp, alpha) in enumerate(RESCALED):
        values = EVERY_INT16 if dtype == "int16" else np.arange(-128, 128, dtype=np.int8)
        x = mb.input(f"x{k}", dtype, [values.size], scale=in_scale, zero_point=in_zp)
        y = mb.output(mb.tensor(f"y{k}", dtype, [values.size], scale=out_scale, zero_point=out_zp))
        if alpha is None:
            mb.op("RELU", [x], [y])
        else:
            mb.op("LEAKY_RELU", [x], [y], "LeakyReluOptions", alpha=alpha)
        inputs.append(values)
    expected, got = every_input_outputs(tmp_path, mb.build(), inputs)
    differing = {RESCALED[i]: int(np.count_nonzero(e != g)) for i, (e, g) in enumerate(zip(expected, got))
                 if not np.array_equal(e, g)}
    assert not differing, f"values differing from TFLM, per case: {differing}"


# int16 SOFTMAX's input scale x beta: differences rescaled by right shifts 3, 1 and 0, left
# shifts 4 and 15 (tinyaot_softmax_s16_scaled) and 16 (TFLM's requantization as written).
SOFTMAX_SCALES = [1e-5, 4e-5, 0.00015, 0.002, 4.0, 8.0]


def test_softmax_16x8_matches_tflm_on_every_difference(tmp_path):
    """Rows (32767, v) for every int16 v: each difference from the row's maximum, 0 to 65535."""
    mb = ModelBuilder()
    rows = np.stack([np.full(EVERY_INT16.size, 32767, np.int16), EVERY_INT16], axis=1)
    for k, scale in enumerate(SOFTMAX_SCALES):
        x = mb.input(f"x{k}", "int16", list(rows.shape), scale=scale, zero_point=0)
        y = mb.output(mb.tensor(f"p{k}", "int16", list(rows.shape), scale=1 / 32768, zero_point=0))
        mb.op("SOFTMAX", [x], [y], "SoftmaxOptions", beta=1.0)
    expected, got = every_input_outputs(tmp_path, mb.build(), [rows] * len(SOFTMAX_SCALES))
    differing = {SOFTMAX_SCALES[i]: int(np.count_nonzero(e != g)) for i, (e, g) in enumerate(zip(expected, got))
                 if not np.array_equal(e, g)}
    assert not differing, f"values differing from TFLM, per input scale: {differing}"
    assert len({int(v) for v in got[2][:, 1]}) > 1000  # most differences give an exp of their own


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
