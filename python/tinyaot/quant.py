"""Quantization arithmetic done at compile time, exactly as TFLM does it.

Every function mirrors a TFLM/TFLite helper of the same purpose; a different
rounding here is a different answer on the target.
"""

import math

import numpy as np

from tinyaot.errors import TinyAotError

INT_RANGES = {
    "int8": (-128, 127),
    "uint8": (0, 255),
    "int16": (-32768, 32767),
    "int32": (-(2**31), 2**31 - 1),
}

# TFLite ActivationFunctionType values
ACT_NONE, ACT_RELU, ACT_RELU_N1_TO_1, ACT_RELU6 = 0, 1, 2, 3
ACTIVATION_NAMES = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}


def tf_round(x):
    """std::round: halves away from zero (Python's round() goes to even)."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def quantize_multiplier(real_multiplier):
    """tflite::QuantizeMultiplier: real = q * 2^(shift - 31), q in [2^30, 2^31)."""
    real_multiplier = float(real_multiplier)
    if real_multiplier == 0.0:
        return 0, 0
    mantissa, shift = math.frexp(real_multiplier)
    q = tf_round(mantissa * (1 << 31))
    if q == (1 << 31):
        q //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return int(q), int(shift)


def multiply_by_quantized_multiplier(x, multiplier, shift):
    """TFLM's MultiplyByQuantizedMultiplier of an int, exactly: x * 2^max(shift, 0), the
    doubling high multiply (rounded, saturated), then a rounding right shift by -shift."""
    ab = (x << max(shift, 0)) * multiplier
    if ab == (-(2**31)) * (-(2**31)):  # SaturatingRoundingDoublingHighMul's one overflow
        return 2**31 - 1
    nudged = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    high = nudged >> 31 if nudged >= 0 else -((-nudged) >> 31)  # division truncating toward 0
    exponent = max(-shift, 0)
    mask = (1 << exponent) - 1
    return (high >> exponent) + ((high & mask) > (mask >> 1) + (high < 0))


def requantize_multiplier(real_multiplier):
    """quantize_multiplier for tinyaot_requantize(), which shifts int32 values left
    by a positive shift: a factor of 2^30 or more cannot be right."""
    multiplier, shift = quantize_multiplier(real_multiplier)
    if shift > 30:
        raise TinyAotError(f"rescaling by {float(real_multiplier):g} (from the tensors' scales) is too large: "
                           "above 2^30, the 32-bit arithmetic overflows")
    return multiplier, shift


def quantize_value(x, scale, zero_point):
    """The integer that a real value maps to, computed in float32 like TFLM."""
    return zero_point + int(tf_round(float(np.float32(x) / np.float32(scale))))


def float_activation_range(activation, op_error):
    """tflite::CalculateActivationRange for float32: (min, max) as Python floats."""
    fmax = float(np.finfo(np.float32).max)
    ranges = {ACT_NONE: (-fmax, fmax), ACT_RELU: (0.0, fmax), ACT_RELU6: (0.0, 6.0), ACT_RELU_N1_TO_1: (-1.0, 1.0)}
    if activation not in ranges:
        raise op_error(f"fused activation {ACTIVATION_NAMES.get(activation, activation)} is not supported")
    return ranges[activation]


def activation_range(activation, output, op_error):
    """tflite::CalculateActivationRangeQuantized for an integer output tensor."""
    qmin, qmax = INT_RANGES[output.dtype]
    scale, zp = output.scale, output.zero_point
    if activation == ACT_NONE:
        return qmin, qmax
    if activation == ACT_RELU:
        return max(qmin, quantize_value(0.0, scale, zp)), qmax
    if activation == ACT_RELU6:
        return max(qmin, quantize_value(0.0, scale, zp)), min(qmax, quantize_value(6.0, scale, zp))
    if activation == ACT_RELU_N1_TO_1:
        return max(qmin, quantize_value(-1.0, scale, zp)), min(qmax, quantize_value(1.0, scale, zp))
    raise op_error(f"fused activation {ACTIVATION_NAMES.get(activation, activation)} is not supported")


def per_channel_multipliers(input_scale, filter_scales, output_scale):
    """tflite::PopulateConvolutionQuantizationParams: one (multiplier, shift) per channel.

    TFLM computes input_scale * filter_scale / output_scale in double from the
    float32 scales.
    """
    mults, shifts = [], []
    for fs in np.asarray(filter_scales, dtype=np.float32):
        m, s = requantize_multiplier(float(input_scale) * float(fs) / float(output_scale))
        mults.append(m)
        shifts.append(s)
    return np.array(mults, dtype=np.int32), np.array(shifts, dtype=np.int32)


def fold_input_offset(bias, weights, input_offset, channel_axis, filter_offset=0):
    """bias + input_offset * sum(weights + filter_offset) per output channel, as int32.

    sum((w + fo) * (x + io)) = sum((w + fo) * x) + io * sum(w + fo), so with this
    table the kernel's inner loop leaves the input offset out. Integer addition is
    exact modulo 2^32, so the wrapped table gives TFLM's accumulator bit for bit.
    """
    w = np.moveaxis(np.asarray(weights, dtype=np.int64), channel_axis, 0)
    sums = (w + filter_offset).reshape(w.shape[0], -1).sum(axis=1)
    folded = sums * input_offset
    if bias is not None:
        folded += np.asarray(bias, dtype=np.int64).reshape(-1)
    return wrap_int32(folded).astype(np.int32)


def wrap_int32(v):
    """v modulo 2^32 as a signed int32 value (what int32 arithmetic on the target gives)."""
    return (v + 2**31) % 2**32 - 2**31
