"""16x8 activations: int16 LOGISTIC and TANH (TFLM's reference_integer_ops for
int16, kernel tinyaot_logistic_s16.h).

The constants are computed as TFLM's Prepare does (logistic_common.cc,
tanh.cc): the input is rescaled to the sigmoid table's steps of 1/(3*4096)
(TANH: 1/(3*2048), as tanh(x) = 2 sigmoid(2x) - 1), exactly by 3 where its scale
is the power of two that makes that a plain multiply, else by a 15-bit
multiplier and a rounding right shift.
"""

from tinyaot.ops import overlap, s16
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.lut import f32, logf, round_f32, sigmoid_table

INPUT_INTEGER_BITS = 3
OUTPUT_FRACTIONAL_BITS = 15
MAX_INPUT_MULTIPLIER = 32767  # TFLM's DCHECK: the multiply stays in 32 bits


def checked_log2(x):
    """tflite::CheckedLog2 (float32, the C library's logf): (log2 rounded, whether x is
    within 0.1% of that power of two)."""
    log2 = logf(x) * (f32(1.0) / logf(f32(2.0)))
    rounded = round_f32(log2)
    return int(rounded), bool(abs(log2 - rounded) < f32(1e-3))


def _input_rescale(scale, tanh):
    """(multiplier, right shift) as TFLM's Prepare and Eval compute them."""
    log2, power_of_two = checked_log2(scale)
    shift = (15 - INPUT_INTEGER_BITS) + log2
    # Scale 2^-12 (TANH also 2^-11): the table's steps are the input's x 3 (x 6).
    if power_of_two and shift in ((0, 1) if tanh else (0,)):
        return 3 << shift, 0
    multiplier, shift = float(scale) * 4096.0 * 3.0, 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    return multiplier, shift


def logistic_or_tanh(ctx, inp, out, tanh):
    s16.expect_symmetric_int16(ctx, inp, out)
    log2, power_of_two = checked_log2(out.scale)
    ctx.expect(power_of_two and log2 == -OUTPUT_FRACTIONAL_BITS,
               f"int16 output must have scale 1/32768, not {out.scale:g}", out.index)
    multiplier, shift = _input_rescale(inp.scale, tanh)
    ctx.expect(multiplier <= MAX_INPUT_MULTIPLIER,
               f"input scale {inp.scale:g} is too large: TFLM's int16 {ctx.op.type} takes up to "
               f"{(MAX_INPUT_MULTIPLIER + 1) / 12288:.4g} (its input multiplier {int(multiplier)} would pass 32767)",
               inp.index)
    # Below that TFLM's multiplier truncates to 0, which its kernel reads as the power-of-two case.
    ctx.expect(int(multiplier) > 0, f"input scale {inp.scale:g} is too small for TFLM's int16 {ctx.op.type} "
                                    "(its input multiplier truncates to 0)", inp.index)
    params = ParamStruct("struct tinyaot_logistic_s16_params", {
        "size": inp.num_elements, "tanh": int(tanh), "input_multiplier": int(multiplier), "input_shift": shift})
    return [KernelCall("tinyaot_logistic_s16", [params, ParamArray("uint16_t", sigmoid_table()),
                                                TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]
