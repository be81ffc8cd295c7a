"""TFLM's int16 lookup tables (LUTPopulate<int16_t>), computed here at compile time.

TFLM fills them at Prepare in float32 arithmetic, calling std::exp on floats;
this repeats every float32 operation in order (numpy float32 scalars round as
C floats do) and calls the C library's expf, so the table is TFLM's on the
same C library. The kernels then read it from flash.
"""

import ctypes
import ctypes.util

import numpy as np

from tinyaot.quant import tf_round

f32 = np.float32
LUT_STEPS = 512


def _libm_expf():
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.expf.restype = ctypes.c_float
    libm.expf.argtypes = [ctypes.c_float]
    return lambda x: f32(libm.expf(float(x)))


expf = _libm_expf()


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
