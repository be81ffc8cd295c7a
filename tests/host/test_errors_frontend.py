"""Bad model files end in one clear error that names the problem, never a traceback; int4
filters (unpacked by the frontend) match TFLM and are refused where TFLM does not read them."""

import subprocess
import sys

import numpy as np
import pytest
import tflite

from conftest import ROOT
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.frontend.tflite_reader import parse_tflite
from tinyaot.modelbuilder import ModelBuilder, pack_int4, random_int8
from tinyaot.testing.compile import compile_bytes
from tinyaot.testing.models_conv import VALID, conv, depthwise


def fc_model(**overrides):
    """x[1,8] -> FULLY_CONNECTED -> y[1,4]; overrides tweak one piece."""
    rng = np.random.default_rng(0)
    mb = ModelBuilder()
    x = mb.input("x", overrides.get("in_dtype", "int8"), [1, 8], scale=0.1, zero_point=0)
    w = mb.tensor("w", "int8", overrides.get("w_shape", [4, 8]), scale=0.01, data=random_int8(rng, (4, 8)),
                  data_location=overrides.get("w_location"))
    y = mb.tensor("y", "int8", [1, 4], scale=0.1, zero_point=0)
    mb.op(overrides.get("op", "FULLY_CONNECTED"), [x, w, -1], [y], "FullyConnectedOptions")
    mb.output(y)
    return mb.build()


def test_truncated_file(tmp_path):
    data = fc_model()
    with pytest.raises(TinyAotError, match=r"bad\.tflite: malformed or truncated TFLite flatbuffer"):
        compile_bytes(tmp_path, data[: len(data) // 2])


def test_not_a_tflite_file(tmp_path):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: not a TFLite model \(no 'TFL3' file identifier\)"):
        compile_bytes(tmp_path, b"\x7fELF" + bytes(100))


def test_missing_file(tmp_path):
    with pytest.raises(TinyAotError, match=r"nope\.tflite: cannot read model: No such file"):
        compile_model(tmp_path / "nope.tflite", Options("x"))


def test_unsupported_operator_named_with_index(tmp_path):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: operator 0 \(SEGMENT_SUM\): operator is not supported "
                                           r"\(supported: .*FULLY_CONNECTED"):
        compile_bytes(tmp_path, fc_model(op="SEGMENT_SUM"))


def test_unsupported_dtype_names_tensor():
    mb = ModelBuilder()
    mb.output(mb.input("half", "int16", [1, 2]))
    model = mb.build()
    # ModelBuilder cannot write FLOAT16, so patch the tensor's type field (INT16=7 -> FLOAT16=1).
    tensor = tflite.Model.GetRootAsModel(model, 0).Subgraphs(0).Tensors(0)
    patched = bytearray(model)
    patched[tensor._tab.Pos + tensor._tab.Offset(6)] = 1
    with pytest.raises(TinyAotError, match=r"half\.tflite: tensor 'half': unsupported dtype FLOAT16"):
        parse_tflite(bytes(patched), "half.tflite")


def test_data_that_does_not_match_shape(tmp_path):
    with pytest.raises(TinyAotError, match=r"tensor 'w': holds 32 bytes of data, but shape \[4, 9\] of int8 needs 36"):
        compile_bytes(tmp_path, fc_model(w_shape=[4, 9]))


def test_buffer_offset_out_of_range(tmp_path):
    with pytest.raises(TinyAotError, match=r"tensor 'w': buffer 1 lies at bytes 1000000\.\.1000032, past the end"):
        compile_bytes(tmp_path, fc_model(w_location=(1_000_000, 32)))


def test_buffer_stored_by_offset_is_refused_by_name(tmp_path):
    """TFLM reads only a buffer's data field: a tensor whose bytes sit after the flatbuffer
    would run without its contents there, so there is no result to be exact with."""
    data = fc_model(w_location=(0, 32))
    with pytest.raises(TinyAotError, match=r"tensor 'w': buffer 1 lies at bytes 0\.\.32, outside the flatbuffer's "
                                           r"data field \(the >2 GB layout\), which TFLM does not read"):
        compile_bytes(tmp_path, data)


def test_bad_model_name():
    with pytest.raises(TinyAotError, match=r"model name 'My-Model' must be a lower-case C identifier"):
        compile_model("unused.tflite", Options("My-Model"))


@pytest.mark.parametrize("seed", range(3))
def test_random_corruption_never_crashes(seed):
    """Flipped bytes and cut files give TinyAotError or a valid graph, nothing else."""
    data = fc_model()
    rng = np.random.default_rng(seed)
    for _ in range(300):
        damaged = bytearray(data[: rng.integers(8, len(data) + 1)])
        for _ in range(rng.integers(0, 8)):
            damaged[rng.integers(0, len(damaged))] = rng.integers(0, 256)
        try:
            parse_tflite(bytes(damaged), "fuzz.tflite")
        except TinyAotError as e:
            assert str(e).startswith("fuzz.tflite")


def test_cli_prints_one_line_not_a_traceback(tmp_path):
    path = tmp_path / "bad.tflite"
    path.write_bytes(fc_model(op="SEGMENT_SUM"))
    result = subprocess.run([sys.executable, "-m", "tinyaot", "compile", str(path), "--name", "m",
                             "--out", str(tmp_path / "out")], capture_output=True, text=True,
                            env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1
    assert result.stderr.startswith("tinyaot: error: ")
    assert "operator 0 (SEGMENT_SUM): operator is not supported" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_zero_point_outside_dtype_range():
    mb = ModelBuilder()
    mb.output(mb.input("x", "int8", [1, 2], scale=0.1, zero_point=200))
    with pytest.raises(TinyAotError, match=r"tensor 'x': zero point 200 is outside the int8 range \[-128, 127\]"):
        parse_tflite(mb.build(), "zp.tflite")


def two_fc_model(first_out_is_input=False, read_before_write=False, dangling_output=False):
    """x -> FC -> h -> FC -> y, with one piece of dataflow broken on request."""
    rng = np.random.default_rng(1)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4], scale=0.1)
    h = mb.tensor("h", "int8", [1, 4], scale=0.1)
    y = mb.output(mb.tensor("y", "int8", [1, 4], scale=0.1))
    w = mb.const("w", random_int8(rng, (4, 4)), scale=0.01)
    ops = [([x, w, -1], [x if first_out_is_input else h]), ([h, w, -1], [y])]
    if read_before_write:
        ops.reverse()
    for ins, outs in ops:
        mb.op("FULLY_CONNECTED", ins, outs, "FullyConnectedOptions")
    if dangling_output:
        mb.output(mb.tensor("never", "int8", [1, 4], scale=0.1))
    return mb.build()


@pytest.mark.parametrize("broken,message", [
    (dict(first_out_is_input=True),
     r"operator 0 \(FULLY_CONNECTED\): tensor 'x': writes a tensor that is a model input"),
    (dict(read_before_write=True),
     r"operator 0 \(FULLY_CONNECTED\): tensor 'h': reads a tensor that no earlier operator writes"),
    (dict(dangling_output=True), r"tensor 'never': a model output is not computed by any operator"),
])
def test_dataflow_errors(broken, message):
    with pytest.raises(TinyAotError, match=r"flow\.tflite: " + message):
        parse_tflite(two_fc_model(**broken), "flow.tflite")


def gap_model():
    """An int32 model with operators tinyaot does not have (SEGMENT_SUM, RANK: TFLite builtins
    that TFLM lacks too) or has in other dtypes only (SOFTMAX): RESHAPE -> SOFTMAX -> SEGMENT_SUM -> RANK -> SOFTMAX -> SEGMENT_SUM."""
    mb = ModelBuilder()
    x = mb.input("x", "int32", [1, 8])
    h = [mb.tensor(f"h{i}", "int32", [2, 4]) for i in range(6)]
    mb.op("RESHAPE", [x, mb.const("shape", np.array([2, 4], np.int32))], [h[0]], "ReshapeOptions", new_shape=[2, 4])
    mb.op("SOFTMAX", [h[0]], [h[1]], "SoftmaxOptions", beta=1.0)
    mb.op("SEGMENT_SUM", [h[1]], [h[2]])
    mb.op("RANK", [h[2]], [h[3]])
    mb.op("SOFTMAX", [h[3]], [h[4]], "SoftmaxOptions", beta=1.0)
    mb.op("SEGMENT_SUM", [h[4]], [h[5]])
    mb.output(h[5])
    return mb.build()


def test_every_gap_listed_at_once_with_counts(tmp_path):
    with pytest.raises(TinyAotError) as info:
        compile_bytes(tmp_path, gap_model())
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'bad.tflite'}: 5 of 6 operators are not supported: "
                              "operators RANK x1, SEGMENT_SUM x2; "
                              "int32 tensors: 4 (at SOFTMAX x2, which take float32/int16/int8) "
                              "(supported operators: ")
    assert "\n" not in message


def test_inspect_lists_every_gap(tmp_path):
    path = tmp_path / "gaps.tflite"
    path.write_bytes(gap_model())
    result = subprocess.run([sys.executable, "-m", "tinyaot", "inspect", str(path)], capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1
    assert "operators RANK x1, SEGMENT_SUM x2; int32 tensors: 4 (at SOFTMAX x2" in result.stderr
    assert result.stderr.count("\n") == 1


def test_reshape_that_changes_dtype_is_refused_not_viewed(tmp_path):
    """A RESHAPE from uint8 to int8 cannot share storage as a view (the C would not
    compile); it is refused by the copy's dtype check, naming the tensor."""
    rng = np.random.default_rng(0)
    mb = ModelBuilder()
    x = mb.input("x", "uint8", [2, 4], scale=0.1, zero_point=128)
    r = mb.tensor("r", "int8", [1, 8], scale=0.1, zero_point=0)
    mb.op("RESHAPE", [x, mb.const("shape", np.array([1, 8], np.int32))], [r], "ReshapeOptions", new_shape=[1, 8])
    w = mb.tensor("w", "int8", [4, 8], scale=0.01, data=random_int8(rng, (4, 8)))
    y = mb.tensor("y", "int8", [1, 4], scale=0.1, zero_point=0)
    mb.op("FULLY_CONNECTED", [r, w, -1], [y], "FullyConnectedOptions")
    mb.output(y)
    with pytest.raises(TinyAotError, match=r"operator 0 \(RESHAPE\): tensor 'r': changes dtype uint8 to int8"):
        compile_bytes(tmp_path, mb.build())


def test_float32_weights_that_are_not_finite(tmp_path):
    mb = ModelBuilder()
    x = mb.input("x", "float32", [1, 4])
    w = mb.const("w", np.array([[1, np.nan, 2, 3], [0, 0, 0, np.inf]], np.float32))
    y = mb.output(mb.tensor("y", "float32", [1, 2]))
    mb.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    with pytest.raises(TinyAotError, match=r"m.tflite: tensor 'w': float32 constant holds 2 values that are NaN or "
                                           r"infinite$"):
        compile_bytes(tmp_path, mb.build(), "m")


def lstm_like_model(reader_of_bad="BIDIRECTIONAL_SEQUENCE_LSTM", second=None):
    """An operator keeping an intermediate of shape [0], as TFLite's int8 LSTMs carry
    (`input_to_input_intermediate`; accepted for UNIDIRECTIONAL_SEQUENCE_LSTM only), then
    optionally a second operator."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 3, 4], scale=0.1, zero_point=0)
    gate = mb.tensor("input_to_input_intermediate", "int16", [0], scale=0.001, zero_point=0)
    y = mb.tensor("y", "int8", [1, 3, 4], scale=0.1, zero_point=0)
    mb.op(reader_of_bad, [x], [y], intermediates=[gate])
    if second:
        z = mb.tensor("z", "int8", [1, 3, 4], scale=0.1, zero_point=0)
        mb.op(second, [y], [z])
        y = z
    mb.output(y)
    return mb.build()


def test_missing_operator_reported_before_a_tensor_only_it_uses(tmp_path):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: operator 0 \(BIDIRECTIONAL_SEQUENCE_LSTM\): operator is "
                                           r"not supported \(supported: "):
        compile_bytes(tmp_path, lstm_like_model())
    with pytest.raises(TinyAotError, match=r"bad\.tflite: 2 of 2 operators are not supported: operators "
                                           r"BIDIRECTIONAL_SEQUENCE_LSTM x1, SEGMENT_SUM x1 \(supported operators: "):
        compile_bytes(tmp_path, lstm_like_model(second="SEGMENT_SUM"))


def test_a_bad_tensor_of_a_supported_operator_is_still_named(tmp_path):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: tensor 'input_to_input_intermediate': shape \[0\] has no "
                                           r"elements \(a zero dimension\)"):
        compile_bytes(tmp_path, lstm_like_model(reader_of_bad="RELU"))


def _as_int4(mb, t):
    """Stores constant t (values in [-8, 7]) as int4, two values a byte."""
    data = mb.constant_data(t)
    mb.tensors[t]["dtype"] = "int4"
    mb.buffers[mb.tensors[t]["buffer"]] = pack_int4(data)


def int4_filters_model():
    """CONV_2D (per-channel, 81 weights: an odd count, the last byte half used) into
    DEPTHWISE_CONV_2D (27), and a FULLY_CONNECTED of a second input, every filter int4 with
    -8 and 7 among its values."""
    rng = np.random.default_rng(4)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 5, 5, 3], scale=0.05, zero_point=-2)
    h, hq = conv(mb, rng, x, (0.05, -2), [1, 5, 5, 3], (3, 3), w_max=7)
    y, _ = depthwise(mb, rng, h, hq, [1, 3, 3, 3], (3, 3), padding=VALID, w_max=7, out_zp=4)
    v = mb.input("v", "int8", [2, 7], scale=0.1, zero_point=3)
    w = mb.const("fc_w", rng.integers(-8, 8, (4, 7)).astype(np.int8), scale=0.04)
    z = mb.tensor("z", "int8", [2, 4], scale=0.3, zero_point=-5)
    mb.op("FULLY_CONNECTED", [v, w, -1], [z], "FullyConnectedOptions")
    for op in mb.operators:
        data = mb.constant_data(op["inputs"][1]).copy()
        data.reshape(-1)[:2] = (-8, 7)  # the int4 extremes in every filter
        mb.set_constant_data(op["inputs"][1], data)
        _as_int4(mb, op["inputs"][1])
    mb.output(y)
    mb.output(z)
    return mb.build()


def test_int4_filters_match_tflm(tmp_path):
    """TFLM unpacks int4 filters to int8 before its int8 kernels run; tinyaot unpacks them at
    build time (the int8 kernels then run as for any int8 filter): bit-exact over 5 calls."""
    from test_models_host import check_against_tflm
    path = tmp_path / "int4.tflite"
    path.write_bytes(int4_filters_model())
    graph = parse_tflite(path.read_bytes(), "int4.tflite")
    filters = [graph.tensors[op.inputs[1]] for op in graph.operators]
    assert [f.dtype for f in filters] == ["int8"] * 3 and all(f.data.min() == -8 and f.data.max() == 7 for f in filters)
    check_against_tflm(path, "int4", tmp_path / "out", calls=5)


def _int4_elsewhere(constant=True):
    """An int4 tensor as ADD's second input (constant), or as a model input."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [4], scale=0.1, zero_point=0)
    if constant:
        k = mb.const("k", np.array([-8, 7, 0, 1], np.int8), scale=0.1)
        _as_int4(mb, k)
    else:
        k = mb.input("k", "int4", [4], scale=0.1, zero_point=0)
    mb.op("ADD", [x, k], [mb.output(mb.tensor("y", "int8", [4], scale=0.2))], "AddOptions")
    return mb.build()


@pytest.mark.parametrize("constant,message", [
    (True, r"operator 0 \(ADD\): tensor 'k': int4 is read only as the filter of CONV_2D, DEPTHWISE_CONV_2D, "
           r"FULLY_CONNECTED with an int8 input \(as TFLM\)"),
    (False, r"tensor 'k': int4 is supported for constant filters only \(as TFLM\)"),
])
def test_int4_where_tflm_does_not_read_it(tmp_path, constant, message):
    with pytest.raises(TinyAotError, match=r"bad\.tflite: " + message) as info:
        compile_bytes(tmp_path, _int4_elsewhere(constant))
    assert "\n" not in str(info.value)
