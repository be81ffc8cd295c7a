"""int8 DIV against TFLM under ASan/UBSan: every pair of int8 values (one call of 256 x 256),
same shapes and broadcast either way, with fused activations and rescale shifts from -3 to 6.
TFLM's DivElementwise is undefined C++ where the divisor is 0 after its offset or its
rounding shift reaches 32: those values are left out of the comparison (worked out here in
Python) and checked against the result kernels/tinyaot_arith_div_s8.h defines instead. (A
dividend of -1 overflows TFLM's x * (1 << 31), undefined too, but its build wraps that to the
-2^31 the kernel takes: those values stay compared.)"""

import numpy as np

from sanitized import run_sanitized
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.quant import quantize_multiplier

QA, QB, QC = dict(scale=0.05, zero_point=-3), dict(scale=0.02, zero_point=5), dict(scale=0.1, zero_point=0)
# (dividend, divisor, output quantization, fused activation): rescale shifts 3, 1, 6 and -3
DIVS = [("a", "b", dict(scale=0.5, zero_point=2), 0),
        ("a", "c", dict(scale=0.3, zero_point=-10), 1),          # broadcast divisor, RELU
        ("b", "a", dict(scale=0.01, zero_point=0), 2),           # RELU_N1_TO_1
        ("c", "a", dict(scale=20.0, zero_point=0), 0)]           # broadcast dividend
QUANT = {"a": QA, "b": QB, "c": QC}
SHAPES = {"a": [256, 256], "b": [256, 256], "c": [256, 1]}


def div_model():
    mb = ModelBuilder()
    inputs = {name: mb.input(name, "int8", SHAPES[name], **QUANT[name]) for name in "abc"}
    for k, (x, y, q, act) in enumerate(DIVS):
        out = mb.tensor(f"y{k}", "int8", [256, 256], **q)
        mb.op("DIV", [inputs[x], inputs[y]], [out], "DivOptions", fused_activation_function=act)
        mb.output(out)
    return mb.build()


def activation_range(act, q):
    """CalculateActivationRangeQuantized for an int8 output."""
    lo, hi = {1: (0.0, None), 2: (-1.0, 1.0)}.get(act, (None, None))
    quantize = lambda v: q["zero_point"] + int(round(v / q["scale"]))  # noqa: E731 (exact for these values)
    return (-128 if lo is None else max(-128, quantize(lo)), 127 if hi is None else min(127, quantize(hi)))


def leading_sign_bits(v):
    return 31 - (v if v >= 0 else ~v).bit_length()


def undefined_in_tflm(x, y, output_shift):
    """Per offset pair: does TFLM's DivElementwise divide by 0 (GetReciprocal of 0) or shift by 32
    or more (RoundingDivideByPOT by recip_shift + headroom - output_shift)?"""
    if y == 0:
        return True
    if y < 0:
        x, y = -x, -y
    return (y.bit_length() - 1) + leading_sign_bits(x) - output_shift > 31


def documented_result(x, y, zero_point, act_min, act_max):
    """What the kernel defines for those pairs: x / 0 the clamp's end of x's sign (0 / 0 the
    zero point), a quotient rounded away by a shift of 32 or more the zero point."""
    value = (act_max if x > 0 else act_min if x < 0 else zero_point) if y == 0 else zero_point
    return min(act_max, max(act_min, value))


def check_div_int8(tmp):
    from pathlib import Path

    from tinyaot.codegen.emit import emit
    from tinyaot.compiler import Options, compile_model
    from tinyaot.host.model import HostModel
    from tinyaot.host.oracle import tflm_interpreter

    path = Path(tmp) / "div8.tflite"
    path.write_bytes(div_model())
    emit(compile_model(path, Options("div8")), Path(tmp) / "out")
    values = np.arange(-128, 128, dtype=np.int8)
    data = {"a": np.tile(values, (256, 1)), "b": np.tile(values[:, None], (1, 256)), "c": values[:, None]}
    tflm = tflm_interpreter(path)
    with HostModel(Path(tmp) / "out", "div8", sanitize=True) as host:
        for k, name in enumerate("abc"):
            tflm.set_input(data[name], k)
            host.set_input(k, data[name])
        tflm.invoke()
        host.run()
        for k, (x_name, y_name, q, act) in enumerate(DIVS):
            got, expected = host.get_output(k), tflm.get_output(k)
            xs = np.broadcast_to(data[x_name], got.shape).astype(np.int64) - QUANT[x_name]["zero_point"]
            ys = np.broadcast_to(data[y_name], got.shape).astype(np.int64) - QUANT[y_name]["zero_point"]
            real = float(np.float32(QUANT[x_name]["scale"])) / (float(np.float32(QUANT[y_name]["scale"]))
                                                                  * float(np.float32(q["scale"])))
            shift = quantize_multiplier(float(real))[1]
            act_min, act_max = activation_range(act, q)
            undefined = np.vectorize(lambda x, y: undefined_in_tflm(int(x), int(y), shift))(xs, ys)
            assert 0 < undefined.sum() and (~undefined).sum() > 10000, f"output {k}: {undefined.sum()} undefined pairs"
            diff = np.flatnonzero((got != expected) & ~undefined)
            assert diff.size == 0, f"output {k}: {diff.size} values differ from TFLM, the first at {diff[0]}: " \
                                   f"{got.flat[diff[0]]} != {expected.flat[diff[0]]}"
            documented = np.vectorize(lambda x, y: documented_result(int(x), int(y), q["zero_point"], act_min,
                                                                     act_max))(xs[undefined], ys[undefined])
            assert got[undefined].tolist() == documented.tolist(), f"output {k}: undefined pairs"
            assert len(np.unique(got[~undefined])) > 20, f"output {k}: few distinct values"  # not all clamped


def test_int8_div_matches_tflm_where_defined(tmp_path):
    run_sanitized("test_div_int8", "check_div_int8", [dict(tmp=str(tmp_path))])
