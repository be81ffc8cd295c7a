"""tflite::GetInvSqrtQuantizedMultiplierExp in Python, integer for integer: gemmlowp's
fixed-point Newton-Raphson iteration (F3 values, five steps) as TFLM's common.h runs it.
int8 RSQRT's table (lookup.py) is computed from it at compile time."""

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def _wrap(v):
    return (v + 2**31) % 2**32 - 2**31


def srdhm(a, b):
    """gemmlowp's SaturatingRoundingDoublingHighMul."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudged = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    return nudged >> 31 if nudged >= 0 else -((-nudged) >> 31)


def rounding_divide_by_pot(x, exponent):
    mask = (1 << exponent) - 1
    return (x >> exponent) + ((x & mask) > (mask >> 1) + (x < 0))


def saturating_multiply_by_pot(x, exponent):
    """gemmlowp's SaturatingRoundingMultiplyByPOT for exponent > 0 (a saturating left shift)."""
    threshold = (1 << (31 - exponent)) - 1
    return INT32_MAX if x > threshold else INT32_MIN if x < -threshold else x << exponent


def inv_sqrt_multiplier_exp(value, reverse_shift=-1):
    """(multiplier, shift) of 1/sqrt(value), value >= 0 (0 and 1 give INT32_MAX, 0)."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= 1 << 29:
        value //= 4
        shift += 1
    max_left_shift_bits = 32 - value.bit_length() - 1  # CountLeadingZeros - 1
    pairs = max_left_shift_bits // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    x_in = value >> 1  # F3
    half_input = rounding_divide_by_pot(x_in, 1)
    half_three = (1 << 28) + (1 << 27)
    x = 1 << 28  # F3 one
    for _ in range(5):
        x3 = saturating_multiply_by_pot(srdhm(srdhm(x, x), x), 6)  # F9 -> F3
        x = saturating_multiply_by_pot(_wrap(srdhm(half_three, x) - srdhm(half_input, x3)), 3)  # F6 -> F3
    x = srdhm(x, 1518500250)  # times sqrt(2)/2 in F0
    if shift < 0:
        x <<= -shift
        shift = 0
    return x, shift * reverse_shift
