"""The bool operators and CAST on the values random inputs miss, against TFLM: float32 NaN,
infinities, -0.0 and equal values; int8 values of two scales that stand for the same real
value (TFLM's rescaled comparison decides), the int8 and int32 extremes; CAST of the
integer extremes (narrowing wraps) and of float32 values at the ends of the int8 range (beyond
it the conversion is undefined in C and C++: TFLM's vectorised host build saturates); int32 DIV where
C++ is undefined (no oracle); int16 GREATER, whose TFLM result is undefined, against a Python
reference of TFLM's int8 arithmetic."""

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import tflm_interpreter
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.quant import multiply_by_quantized_multiplier, quantize_multiplier

NAN, INF = np.float32("nan"), np.float32("inf")


def _edge_inputs(name):
    """Inputs of catalog model `name` full of edge values (in model input order)."""
    if name == "compare_logic":
        f = np.array([NAN, INF, -INF, 0.0, -0.0, 1.5, -1.5, 3.0e38, -3.0e38, 1e-45, 2.0, NAN] * 2,
                     np.float32).reshape(2, 3, 4)
        g = np.array([[NAN], [-0.0], [1.5]], np.float32)
        # QA (0.05, -3) and QB (0.09, 5): a8 = 6 and b8 = 10 both stand for 0.45
        a8 = np.array([6, -128, 127, -3, 24, 42, -21, 6, 60, 87, -128, 127] * 2, np.int8).reshape(2, 3, 4)
        b8 = np.array([10, -128, 127, 15], np.int8)
        c8 = np.array([10, -128, 127, 15, 10, 5, 127, -128] * 3, np.int8).reshape(2, 3, 4)
        i = np.array([[-2**31, 2**31 - 1, 0, -1], [-2**31, 0, 2**31 - 1, -1], [5, 2**31 - 1, -2**31, 7]], np.int32)
        m = np.array([True, False, True, False])
        x16 = np.array([[-32768, 32767, 0, -1]] * 3, np.int16)
        return [f, g, a8, b8, c8, i, m, x16]
    assert name == "cast_pairs"
    return [np.array([-128, 127, 0, -1, 1, -128, 127, 64, -65, 100], np.int8).reshape(2, 5),
            np.array([-32768, 32767, 0, -1, 128, -129, 255, 256, -32768, 32767], np.int16).reshape(2, 5),
            np.array([-2**31, 2**31 - 1, 0, -1, 65535, 65536, -32769, 255, 128, -129], np.int32).reshape(2, 5),
            np.array([-128.9, 127.9, -0.0, 0.0, 0.99999994, -0.99999994, 1e-45, -127.5, 126.99, 100.5],
                     np.float32).reshape(2, 5),
            np.array([True, False, True, True, False, False, True, False, True, False]).reshape(2, 5)]


def outputs_of_both(tflm, host, inputs):
    """(TFLM's outputs, the host model's) of one call of the same inputs through both."""
    for k, x in enumerate(inputs):
        tflm.set_input(x, k)
        host.set_input(k, x)
    tflm.invoke()
    host.run()
    return ([tflm.get_output(k) for k in range(len(host.outputs))],
            [host.get_output(k) for k in range(len(host.outputs))])


def run_both(tflm, host, inputs, what=""):
    """One call of the same inputs through TFLM and the host model, whose outputs must be
    TFLM's bit for bit (dtype included); TFLM's outputs."""
    expected, outputs = outputs_of_both(tflm, host, inputs)
    for k, (e, got) in enumerate(zip(expected, outputs)):
        assert got.dtype == e.dtype and got.tobytes() == e.tobytes(), \
            f"{what}output {k}: {got.reshape(-1)} != TFLM's {e.reshape(-1)}"
    return expected


@pytest.mark.parametrize("name", ["compare_logic", "cast_pairs"])
def test_edge_values_match_tflm(name, own_model, tmp_path):
    path = own_model(name)
    emit(compile_model(path, Options(name)), tmp_path / name)
    with HostModel(tmp_path / name, name) as host:
        run_both(tflm_interpreter(path), host, _edge_inputs(name))


def test_int8_comparison_rescales_before_comparing(own_model):
    """The edge inputs make a8 = 6 (QA) and b8 = 10 (QB) equal in real value: TFLM's EQUAL
    must say so for them (so the test above compares a decided case, not two zeros)."""
    tflm = tflm_interpreter(own_model("compare_logic"))
    for k, x in enumerate(_edge_inputs("compare_logic")):
        tflm.set_input(x, k)
    tflm.invoke()
    assert tflm.get_output(6)[0, 0, 0] and not tflm.get_output(6).all()


def test_every_int8_rsqrt_and_int16_abs_extreme_match_tflm(own_model, tmp_path):
    """rsqrt_abs_integer over all 256 int8 values (16 calls of 16), with the int16 ABS inputs
    at their extremes (-32768: clamped to 32767 when quantized, kept when not)."""
    name = "rsqrt_abs_integer"
    path = own_model(name)
    emit(compile_model(path, Options(name)), tmp_path / name)
    tflm = tflm_interpreter(path)
    values = np.arange(-128, 128).astype(np.int8).reshape(16, 2, 8)
    extremes = np.array([[-32768, 32767, -32767, 0, -1, 1, 12345, -23456]] * 2, np.int16)
    with HostModel(tmp_path / name, name) as host:
        for call in range(16):
            run_both(tflm, host, [values[call], values[15 - call], extremes, extremes], f"call {call} ")


def test_int8_l2_normalization_edges_match_tflm(own_model, tmp_path):
    """l2norm_int8 on rows at the zero point (a zero sum), one step from it (a sum of 1),
    at the int8 extremes (the largest sums) and in between."""
    name = "l2norm_int8"
    path = own_model(name)
    emit(compile_model(path, Options(name)), tmp_path / name)
    rows = np.array([[-3] * 10, [-3] * 9 + [-2], [-128, 127] * 5], np.int8)
    single = np.array([[5], [-128], [6], [127]], np.int8)
    wide = np.resize(np.array([-128, 127, 0, 1, -1], np.int8), (1, 2, 3, 40))
    with HostModel(tmp_path / name, name) as host:
        run_both(tflm_interpreter(path), host, [rows, single, wide])


def test_int8_log_softmax_edges_match_tflm(own_model, tmp_path):
    """log_softmax_int8 on rows of equal values, of the int8 extremes (differences of 255,
    past diff_min) and of one value apart from the rest."""
    name = "log_softmax_int8"
    path = own_model(name)
    emit(compile_model(path, Options(name)), tmp_path / name)
    inputs = [np.array([[7] * 10, [-128] * 9 + [127], [127] * 9 + [-128]], np.int8),
              np.array([[-128, 127, 0], [5, 5, 5], [127, 126, -128], [-128, -128, -127]], np.int8),
              np.resize(np.array([-128, 127, 0, 1, -1, 64], np.int8), (2, 2, 6))]
    with HostModel(tmp_path / name, name) as host:
        outputs = run_both(tflm_interpreter(path), host, inputs)
    assert len(set(np.concatenate([o.reshape(-1) for o in outputs]).tolist())) > 5  # not one saturated value


def test_int32_div_where_cpp_is_undefined(tmp_path):
    """int32 DIV's two cases C++ leaves undefined (TFLM on x86 traps, so no oracle): INT32_MIN / -1
    wraps to INT32_MIN, a divisor 0 computed at run time gives 0; the others truncate toward zero."""
    from test_errors_elementwise import _int32_div
    path = tmp_path / "m.tflite"
    path.write_bytes(_int32_div())
    emit(compile_model(path, Options("m")), tmp_path / "out")
    with HostModel(tmp_path / "out", "m") as host:
        host.set_input(0, np.array([-2**31, 5, -7, 9], np.int32))
        host.set_input(1, np.array([-1, 0, 2, -2], np.int32))
        host.run()
        assert host.get_output(0).tolist() == [-2**31, 0, -3, -4]


# int16 GREATER: inputs a and b alike, c of another scale and zero point ([4], broadcast),
# d of a scale at which the rescaling keeps every int16 step ([3, 1], broadcast the other way)
GT16_QUANT = {"a": (0.001, 0), "b": (0.001, 0), "c": (0.003, -7), "d": (0.25, 32767)}
GT16_SHAPES = {"a": [2, 3, 4], "b": [2, 3, 4], "c": [4], "d": [3, 1]}
GT16_PAIRS = [("a", "b"), ("a", "c"), ("d", "a")]


def _greater_int16_model():
    mb = ModelBuilder()
    t = {n: mb.input(n, "int16", GT16_SHAPES[n], scale=s, zero_point=z) for n, (s, z) in GT16_QUANT.items()}
    for x, y in GT16_PAIRS:
        mb.op("GREATER", [t[x], t[y]], [mb.output(mb.tensor(f"{x}_gt_{y}", "bool", [2, 3, 4]))])
    return mb.build()


def _greater_int16_reference(x, y, qx, qy):
    """TFLM's int8 GREATER arithmetic on int16 values: (v - zero point) * 2^8, times the
    scale as a multiplier below one, then compared."""
    def scaled(v, scale, zero_point):
        m, shift = quantize_multiplier(scale)
        return np.vectorize(lambda u: multiply_by_quantized_multiplier((int(u) - zero_point) * 256, m, shift))(v)
    return scaled(x, *qx) > scaled(y, *qy)


def test_int16_greater_compares_rescaled_values(tmp_path):
    """Every output against the reference, over the int16 extremes, values one step apart
    (at scale 0.001 they rescale alike: 999 > 1000 and 1000 > 999 are both false), equal real
    values at two scales (a 3 and c -6), and random values. TFLM is no oracle here: its Prepare
    fills the rescaling parameters for int8 only, so its int16 GREATER reads whatever its
    persistent buffer held (false everywhere in a fresh process, whose arena is fresh zeroed
    memory; after other models in the same process, 0 > 32767 came out true)."""
    path = tmp_path / "gt16.tflite"
    path.write_bytes(_greater_int16_model())
    emit(compile_model(path, Options("gt16")), tmp_path / "gt16")
    edges = np.array([-32768, 32767, 0, -1, 1, 999, 1000, 3, -32767, 32766, 12345, -23456], np.int16)
    calls = [{"a": np.resize(edges, (2, 3, 4)), "b": np.resize(np.roll(edges, 1), (2, 3, 4)),
              "c": np.array([0, -32768, 32767, -6], np.int16), "d": np.array([[-32768], [32767], [32766]], np.int16)}]
    rng = np.random.default_rng(16)
    calls += [{n: rng.integers(-32768, 32768, GT16_SHAPES[n]).astype(np.int16) for n in GT16_QUANT} for _ in range(4)]
    seen = set()
    with HostModel(tmp_path / "gt16", "gt16") as host:
        for call, inputs in enumerate(calls):
            for k, n in enumerate(GT16_QUANT):
                host.set_input(k, inputs[n])
            host.run()
            outputs = [host.get_output(k) for k in range(len(GT16_PAIRS))]
            for k, (x, y) in enumerate(GT16_PAIRS):
                expected = _greater_int16_reference(inputs[x], inputs[y], GT16_QUANT[x], GT16_QUANT[y])
                assert outputs[k].dtype == np.bool_ and (outputs[k] == expected).all(), \
                    f"call {call}, {x} > {y}: {outputs[k].reshape(-1)} != {expected.reshape(-1)}"
                seen.update(expected.reshape(-1).tolist())
            if call == 0:
                first = outputs
    assert seen == {False, True}
    # the cases the inputs were chosen for: a 1000 > b 999 lost at scale 0.001 (both rescale to
    # 256), a 3 and c -6 the same real value 0.003 (not greater), the extremes ordered
    assert not first[0][0, 1, 2] and first[0][0, 0, 1]
    assert not first[1][0, 1, 3] and first[1][0, 0, 1]
