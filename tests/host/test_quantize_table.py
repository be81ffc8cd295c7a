"""QUANTIZE float32 -> int8 by threshold table (tinyaot_quantize_f32_s8): bit-exact with
TFLM on the values where a division-free method could slip: each threshold and the float
just below it, exact halves (k + 0.5) x scale, zeros of both signs, subnormals,
infinities, NaN and values far outside the range; and no table when optimising for size.
Where |x / scale| >= 2^31 TFLM's float-to-int32 cast is undefined (x86, the oracle here,
gives INT32_MIN; Arm saturates): there the result must saturate, as on Arm.
The division kernel (int16, and int8 when optimising for size) rounds on the quotient's bits:
checked the same way at exact halves and their neighbours."""

import numpy as np

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import tflm_interpreter
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.quantize import _float_keys, quantize_thresholds

SCALE, ZERO_POINT = np.float32(0.027), 5


def _edge_values():
    keys = quantize_thresholds(SCALE, ZERO_POINT).astype(np.int64)
    halves = ((np.arange(-140, 140) + 0.5) * np.float64(SCALE)).astype(np.float32)
    special = np.array([0.0, -0.0, 1e-45, -1e-45, np.inf, -np.inf, np.nan, 1e30, -1e30, 3.4, -3.6], np.float32)
    return np.concatenate([_float_keys(keys), _float_keys(keys - 1), halves, special])


def _model(path, size):
    mb = ModelBuilder()
    x = mb.input("x", "float32", [1, size])
    y = mb.output(mb.tensor("y", "int8", [1, size], scale=float(SCALE), zero_point=ZERO_POINT))
    mb.op("QUANTIZE", [x], [y])
    path.write_bytes(mb.build())
    return path


def test_quantize_table_matches_tflm_at_every_edge(tmp_path):
    values = _edge_values()
    path = _model(tmp_path / "quantize_edges.tflite", values.size)
    model = compile_model(path, Options("q"))
    assert [c.kernel for _, calls in model.calls for c in calls] == ["tinyaot_quantize_f32_s8"]
    emit(model, tmp_path / "out")
    interp = tflm_interpreter(path)
    interp.set_input(values.reshape(1, -1), 0)
    interp.invoke()
    expected = interp.get_output(0)
    with HostModel(tmp_path / "out", "q") as host:
        host.set_input(0, values.reshape(1, -1))
        host.run()
        got = host.get_output(0)
    beyond = ~(np.abs(values.astype(np.float64) / np.float64(SCALE)) < 2.0 ** 31)
    expected = np.where(beyond & ~np.isnan(values), np.where(values > 0, 127, -128), expected).astype(np.int8)
    wrong = np.flatnonzero(got != expected)
    assert wrong.size == 0, f"{wrong.size} values differ, first {values.ravel()[wrong[0]]!r}: " \
                            f"TFLM {expected.ravel()[wrong[0]]}, tinyaot {got.ravel()[wrong[0]]}"


def test_quantize_keeps_the_division_when_optimising_for_size(tmp_path):
    model = compile_model(_model(tmp_path / "q.tflite", 4), Options("q", optimize="size"))
    assert [c.kernel for _, calls in model.calls for c in calls] == ["tinyaot_quantize_f32"]


S16_SCALE, S16_ZERO_POINT = np.float32(0.00013), -3


def _division_edge_values():
    """Where the division's rounding (done on the quotient's bits) could slip, for both outputs:
    exact halves k + 0.5 of either scale and the floats either side, zeros, subnormals,
    infinities, NaN, far outside both ranges."""
    halves = np.concatenate([((np.arange(-300, 300) + 0.5) * np.float64(scale)).astype(np.float32)
                             for scale in (SCALE, S16_SCALE)])
    halves = np.concatenate([halves, np.nextafter(halves, np.float32(np.inf)),
                             np.nextafter(halves, np.float32(-np.inf))])
    special = np.array([0.0, -0.0, 1e-45, -1e-45, 1e-39, np.inf, -np.inf, np.nan, 1e30, -1e30,
                        4.26, -4.26, 4.2599, 0.499 * S16_SCALE, -0.5 * S16_SCALE], np.float32)
    return np.concatenate([halves, special])


def test_quantize_by_division_matches_tflm_at_every_edge(tmp_path):
    """tinyaot_quantize_f32 (int16 outputs, and int8 ones when optimising for size)."""
    values = _division_edge_values()
    mb = ModelBuilder()
    x = mb.input("x", "float32", [1, values.size])
    y16 = mb.output(mb.tensor("y16", "int16", [1, values.size], scale=float(S16_SCALE), zero_point=S16_ZERO_POINT))
    y8 = mb.output(mb.tensor("y8", "int8", [1, values.size], scale=float(SCALE), zero_point=ZERO_POINT))
    mb.op("QUANTIZE", [x], [y16])
    mb.op("QUANTIZE", [x], [y8])
    path = tmp_path / "quantize_division.tflite"
    path.write_bytes(mb.build())
    model = compile_model(path, Options("q", optimize="size"))
    assert [c.kernel for _, calls in model.calls for c in calls] == ["tinyaot_quantize_f32"] * 2
    emit(model, tmp_path / "out")
    interp = tflm_interpreter(path)
    interp.set_input(values.reshape(1, -1), 0)
    interp.invoke()
    with HostModel(tmp_path / "out", "q") as host:
        host.set_input(0, values.reshape(1, -1))
        host.run()
        for index, (scale, dtype) in enumerate(((S16_SCALE, np.int16), (SCALE, np.int8))):
            info = np.iinfo(dtype)
            # TFLM's cast is undefined there (NaN too: x86's INT32_MIN plus a negative zero point
            # wraps to the top): saturation as on Arm, NaN to the minimum as documented
            beyond = ~(np.abs(values.astype(np.float64) / np.float64(scale)) < 2.0 ** 31)
            expected = np.where(beyond, np.where(values > 0, info.max, info.min),
                                interp.get_output(index).ravel()).astype(dtype)
            got = host.get_output(index).ravel()
            wrong = np.flatnonzero(got != expected)
            assert wrong.size == 0, f"{dtype.__name__}: {wrong.size} values differ, first {values[wrong[0]]!r}: " \
                                    f"TFLM {expected[wrong[0]]}, tinyaot {got[wrong[0]]}"
