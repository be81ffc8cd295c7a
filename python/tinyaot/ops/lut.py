"""TFLM's int16 lookup tables, computed here at compile time.

LUTPopulate<int16_t> (int16 SOFTMAX): TFLM fills these at Prepare in float32
arithmetic, calling std::exp on floats; this repeats every float32 operation in
order (numpy float32 scalars round as C floats do) and calls the C library's
expf, so the table is TFLM's on the same C library. sigmoid_table_uint16 (int16
LOGISTIC and TANH) is a fixed table in TFLM's source; sigmoid_table() computes
it from its definition. The kernels then read them from flash.
"""

import ctypes
import ctypes.util
import math

import numpy as np

from tinyaot.quant import tf_round

f32 = np.float32
LUT_STEPS = 512


def _libm_f32(name):
    """The C library's float function `name` (expf, logf): float32 in, float32 out."""
    function = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
    function.restype = ctypes.c_float
    function.argtypes = [ctypes.c_float]
    return lambda x: f32(function(float(x)))


expf = _libm_f32("expf")
logf = _libm_f32("logf")


def round_f32(x):
    """TfLiteRound of a float, as a float32 (exact: x is rounded in float64)."""
    return f32(tf_round(float(x)))


def lut_int16(input_scale, input_zero_point, output_scale, output_zero_point, transform):
    """tflite::detail::LUTPopulateInt16<float>: 513 int16 values."""
    input_min = f32(input_scale) * f32(-32768 - input_zero_point)
    input_max = f32(input_scale) * f32(32767 - input_zero_point)
    output_min = f32(output_scale) * f32(-32768 - output_zero_point)
    output_max = f32(output_scale) * f32(32767 - output_zero_point)
    step = (input_max - input_min) / f32(LUT_STEPS)
    half_step = step / f32(2)
    inverse = f32(65536) / (output_max - output_min)

    def clamp(x):
        return int(min(max(x, f32(-32768)), f32(32767)))

    lut = []
    for i in range(LUT_STEPS):
        at = input_min + f32(i) * step
        val, val_mid, val_next = transform(at), transform(at + half_step), transform(
            input_min + f32(i + 1) * step)
        sample = round_f32(val * inverse)
        interpolated = round_f32((val_next * inverse + round_f32(val * inverse)) / f32(2))
        bias = round_f32((interpolated - round_f32(val_mid * inverse)) / f32(2))
        lut.append(clamp(sample - bias))
    lut.append(clamp(round_f32(transform(input_max) * inverse)))
    return np.array(lut, np.int16)


def softmax_luts():
    """The exp table over [-10, 0] and the 1 / (1 + x) table over [0, 1] of TFLM's int16 SOFTMAX."""
    span = f32(65535)  # int16 max - min
    exp_lut = lut_int16(f32(10.0) / span, 32767, f32(2.0) / span, 0, expf)
    reciprocal_lut = lut_int16(f32(1.0) / span, -32768, f32(2.0) / span, 0, lambda x: f32(1.0) / (f32(1.0) + x))
    return exp_lut, reciprocal_lut


SIGMOID_KNOTS = 256


def sigmoid_table():
    """TFLM's sigmoid_table_uint16: 256 knots of 65536 * sigmoid(k / 24), k = 0..255, each lifted
    by half the mean error that linear interpolation makes at the middles of its two segments
    (the first knot has one segment), so the interpolated curve sits closer to the sigmoid; the
    last knot is 65535, the value the kernels saturate to. (Checked against TFLM's kernels on
    every int16 input by tests/host/test_s16_activations.py; no value lies within 0.0039 of a
    rounding tie.)"""
    def f(x):
        return 65536.0 / (1.0 + math.exp(-x / 24.0))

    error = [f(k + 0.5) - (f(k) + f(k + 1)) / 2 for k in range(SIGMOID_KNOTS)]
    lift = [error[0] / 2] + [(error[k - 1] + error[k]) / 4 for k in range(1, SIGMOID_KNOTS - 1)]
    table = [math.floor(f(k) + lift[k] + 0.5) for k in range(SIGMOID_KNOTS - 1)] + [65535]
    return np.array(table, np.uint16)
