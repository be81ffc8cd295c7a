"""SVDF: models tinyaot refuses (one clear error naming operator and problem),
and the behaviours the catalog comparison cannot reach: no bias (TFLM crashes
on it), reset, state tensors holding data, and how TFLM rounds the scales."""

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.host.oracle import compare_with_tflm, random_inputs, tflm_interpreter
from tinyaot.ops.base import ParamStruct
from tinyaot.quant import multiply_by_quantized_multiplier, quantize_multiplier
from tinyaot.testing.compile import compile_bytes
from tinyaot.testing.models_svdf import rank2_batch2_model
from tinyaot.testing.variants import variant_of

IN_SCALE, F_SCALE, T_SCALE, STATE_SCALE = 0.05, 0.01, 0.002, 0.0015


def svdf_model(batches=1, input_size=8, units=4, rank=1, memory=5, **over):
    """x[batches, input_size] -> SVDF -> y[batches, units]; `over` changes one piece."""
    rng = np.random.default_rng(1)
    filters = units * rank
    mb = ModelBuilder()
    x = mb.input("x", over.get("in_dtype", "int8"), over.get("x_shape", [batches, input_size]),
                 scale=IN_SCALE, zero_point=-3)
    f = mb.const("feature", random_int8(rng, over.get("f_shape", (filters, input_size))), scale=F_SCALE,
                 zero_point=over.get("f_zp", 0))
    t_dtype = over.get("t_dtype", "int16")
    t = mb.const("time", rng.integers(-100, 100, size=over.get("t_shape", (filters, memory))).astype(t_dtype),
                 dtype=t_dtype, scale=T_SCALE)
    b = mb.const("bias", rng.integers(-500, 500, size=over.get("b_units", units)).astype(np.int32),
                 scale=over.get("b_scale", np.float32(STATE_SCALE) * np.float32(T_SCALE)))
    s = mb.tensor("state", over.get("s_dtype", "int16"), over.get("s_shape", [batches, memory * filters]),
                  scale=STATE_SCALE, zero_point=over.get("s_zp", 0), variable=over.get("variable", True),
                  data=over.get("s_data"))
    if over.get("state_is_input"):
        mb.inputs.append(s)
    y = mb.tensor("y", "int8", over.get("y_shape", [batches, units]), scale=0.1, zero_point=2)
    mb.op("SVDF", over.get("inputs", [x, f, t, b, s]), [y], "SVDFOptions", rank=over.get("rank_option", rank))
    mb.output(y)
    return mb.build()


def test_valid_model_compiles(tmp_path):
    compile_bytes(tmp_path, svdf_model(batches=2, rank=2))


@pytest.mark.parametrize("over,message", [
    # A plain tensor nobody writes: the frontend's dataflow check names it first.
    (dict(variable=False), r"tensor 'state': reads a tensor that no earlier operator writes and that is not a "
                           r"model input"),
    (dict(variable=False, state_is_input=True),
     r"tensor 'state': activation state \(input 4\) must be a variable tensor"),
    (dict(state_is_input=True), r"tensor 'state': activation state \(input 4\) must not be a model input"),
    (dict(s_shape=[1, 21]), r"tensor 'state': activation state must be \[1, 20\] \(batch x memory size \* "
                            r"filters\), not \[1, 21\]"),
    (dict(s_shape=[1, 4, 5]), r"tensor 'state': activation state must be 2-D, not \[1, 4, 5\]"),
    (dict(s_dtype="int8"), r"tensor 'state': dtype int8 is not supported here \(supported: int16\)"),
    (dict(s_zp=7), r"tensor 'state': activation state has zero point 7; an int16 state must have zero point 0"),
    (dict(t_dtype="int8"), r"tensor 'time': time weights of dtype int8 are not supported"),
    (dict(f_shape=(4, 9)), r"tensor 'feature': feature weights must be \[4, 8\] \(filters x input size\), "
                           r"not \[4, 9\]"),
    (dict(f_zp=1), r"tensor 'feature': feature weights have zero point 1; it must be 0"),
    (dict(t_shape=(6, 5), s_shape=[1, 30]), r"tensor 'time': time weights must be \[4, 5\] \(filters x memory "
                                             r"size\), not \[6, 5\]"),
    (dict(y_shape=[1, 5]), r"tensor 'y': output must be \[1, 4\] \(batch x units\), not \[1, 5\]"),
    (dict(x_shape=[1, 2, 4]), r"tensor 'x': input must be 2-D, not \[1, 2, 4\]"),
    (dict(in_dtype="int16"), r"tensor 'x': dtype int16 is not supported here \(supported: int8, float32\)"),
    (dict(b_units=3), r"tensor 'bias': bias must be \[4\] \(one per unit\), not \[3\]"),
    (dict(b_scale=0.5), r"tensor 'bias': bias scale must be activation state scale x time weights scale"),
    (dict(rank_option=0), r"rank option is 0; it must be at least 1"),
    (dict(rank_option=3), r"tensor 'feature': 4 filters do not split into units of rank 3"),
    (dict(inputs=[0, 1, 2, 3]), r"needs 5 inputs \(input, feature weights, time weights, bias, activation "
                                r"state\), has 4"),
])
def test_refused_with_a_clear_error(tmp_path, over, message):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: operator 0 \(SVDF\): " + message):
        compile_bytes(tmp_path, svdf_model(**over))


def run_host(host, inputs_list, reset_after=None):
    outs = []
    for n, inputs in enumerate(inputs_list):
        if n == reset_after:
            host.reset()
        for i, x in enumerate(inputs):
            host.set_input(i, x)
        host.run()
        outs.append(host.get_output(0))
    return outs


def generated(tmp_path, data, name):
    model = compile_bytes(tmp_path, data, name)
    emit(model, tmp_path / name)
    return HostModel(tmp_path / name, name)


def svdf_model_f32(state_dtype="float32", activation=0):
    """x[1, 8] -> SVDF (rank 1, memory 5) -> y[1, 4], all float32 but the state's dtype."""
    rng = np.random.default_rng(1)
    mb = ModelBuilder()
    x = mb.input("x", "float32", [1, 8])
    f = mb.const("feature", rng.standard_normal((4, 8)).astype(np.float32))
    t = mb.const("time", rng.standard_normal((4, 5)).astype(np.float32))
    b = mb.const("bias", rng.standard_normal(4).astype(np.float32))
    s = mb.tensor("state", state_dtype, [1, 20], variable=True)
    y = mb.tensor("y", "float32", [1, 4])
    mb.op("SVDF", [x, f, t, b, s], [y], "SVDFOptions", rank=1, fused_activation_function=activation)
    mb.output(y)
    return mb.build()


@pytest.mark.parametrize("over,message", [
    (dict(state_dtype="int16"), r"tensor 'state': dtype int16 is not supported here \(supported: float32\)"),
    (dict(activation=6), r"fused activation 6 is not supported \(supported: NONE, RELU, RELU_N1_TO_1, RELU6, TANH, "
                         r"SIGN_BIT\)"),
])
def test_float32_refused_with_a_clear_error(tmp_path, over, message):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: operator 0 \(SVDF\): " + message):
        compile_bytes(tmp_path, svdf_model_f32(**over))


@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_no_bias_is_a_zero_bias(tmp_path, dtype):
    """TFLM's Prepare crashes on an omitted bias (int8 and float32 alike), and its
    Eval starts from zeros then: so the model without bias must give what the
    same model with an all-zero bias gives, and that one must match TFLM."""
    def build(**kw):
        return rank2_batch2_model(**kw) if dtype == "int8" else variant_of(lambda: rank2_batch2_model(**kw),
                                                                            "float32")()
    zero = tmp_path / "zero.tflite"
    zero.write_bytes(build(zero_bias=True))
    with generated(tmp_path, zero.read_bytes(), "zero") as host:
        run = lambda xs: run_host(host, [xs])  # noqa: E731
        assert not compare_with_tflm(zero, run, host.inputs, calls=20, reset_between=False)
        host.reset()
        rng = np.random.default_rng(0)
        inputs = [random_inputs(host.inputs, rng) for _ in range(20)]
        expected = run_host(host, inputs)
    with generated(tmp_path, build(bias=False), "nobias") as host:
        got = run_host(host, inputs)
    assert all(np.array_equal(e, g) for e, g in zip(expected, got))
    assert len({e.tobytes() for e in expected}) > 10  # the outputs do move


def test_reset_restores_the_initial_state(tmp_path):
    """Reset in the middle of a sequence, on both sides: outputs still match TFLM."""
    path = tmp_path / "r.tflite"
    path.write_bytes(rank2_batch2_model())
    rng = np.random.default_rng(5)
    interp = tflm_interpreter(path)
    with generated(tmp_path, path.read_bytes(), "r") as host:
        inputs = [random_inputs(host.inputs, rng) for _ in range(16)]
        got = run_host(host, inputs, reset_after=9)
    for n, (x,) in enumerate(inputs):
        if n == 9:
            interp.reset()
        interp.set_input(x, 0)
        interp.invoke()
        assert np.array_equal(interp.get_output(0), got[n]), f"call {n}"


def test_state_data_in_the_file_is_ignored_like_tflm(tmp_path):
    """TFLM starts a variable tensor from zero even if the file holds data for it."""
    data = np.random.default_rng(2).integers(-20000, 20000, size=(1, 20)).astype(np.int16)
    path = tmp_path / "d.tflite"
    path.write_bytes(svdf_model(s_data=data))
    with generated(tmp_path, path.read_bytes(), "d") as host:
        run = lambda xs: run_host(host, [xs])  # noqa: E731
        assert not compare_with_tflm(path, run, host.inputs, calls=8, reset_between=False)


def requantize(x, multiplier, shift):
    """TFLM's MultiplyByQuantizedMultiplier of every value of an integer array."""
    return np.array([multiply_by_quantized_multiplier(int(v), multiplier, shift) for v in np.ravel(x)],
                    np.int64).reshape(np.shape(x))


def test_state_scale_is_rounded_as_tflm_does(tmp_path):
    """Reads TFLM's own state after each call and recomputes it from the lowering's
    multiplier: input * feature / state scale rounds (in double) to a multiplier
    that differs from the float-arithmetic one here, which TFLM's state gives away."""
    from tflite_micro.python.tflite_micro import runtime
    in_s, f_s, st_s = np.float32(0.08245026), np.float32(0.016350875), np.float32(0.0017883138)
    rng = np.random.default_rng(5)
    filters, inputs = 256, 64
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, inputs], scale=in_s, zero_point=0)
    weights = random_int8(rng, (filters, inputs))
    f = mb.const("f", weights, scale=f_s)
    t = mb.const("t", np.ones((filters, 1), np.int16), scale=np.float32(0.001))
    b = mb.const("b", np.zeros(filters, np.int32), scale=np.float32(st_s * np.float32(0.001)))
    s = mb.tensor("state", "int16", [1, filters], scale=st_s, variable=True)
    y = mb.tensor("y", "int8", [1, filters], scale=np.float32(1.0), zero_point=0)
    mb.op("SVDF", [x, f, t, b, s], [y], "SVDFOptions", rank=1)
    mb.output(y)
    model = compile_bytes(tmp_path, mb.build(), "scales")
    params = next(a for a in model.calls[0][1][0].args if isinstance(a, ParamStruct)).fields
    m, shift = params["multiplier_1"], params["shift_1"]
    float_m, float_shift = quantize_multiplier(float(np.float32(in_s) * f_s / st_s))
    assert (m, shift) != (float_m, float_shift)

    interp = runtime.Interpreter.from_file(str(tmp_path / "scales.tflite"),
                                           intrepreter_config=runtime.InterpreterConfig.kPreserveAllTensors)
    mismatches = float_mismatches = 0
    for _ in range(300):
        xv = rng.integers(-128, 128, size=(1, inputs)).astype(np.int8)
        interp.set_input(xv, 0)
        interp.invoke()
        state = np.asarray(interp.GetTensor(s, 0)["tensor_data"]).reshape(-1)
        dots = weights.astype(np.int64) @ xv.reshape(-1).astype(np.int64)
        mismatches += int(np.count_nonzero(np.clip(requantize(dots, m, shift), -32768, 32767) != state))
        float_mismatches += int(np.count_nonzero(
            np.clip(requantize(dots, float_m, float_shift), -32768, 32767) != state))
    assert mismatches == 0
    assert float_mismatches > 0  # the test can tell the two roundings apart
