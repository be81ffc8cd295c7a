"""ELU, ABS and RSQRT: int8 through a 256-entry table of results computed here with TFLM's
own arithmetic (tinyaot_lut_s8), float32 value by value (tinyaot_math_f32), int16 ABS
value by value (tinyaot_abs_s16).

ELU's table is the one TFLM's elu.cc PopulateLookupTable computes at Prepare (float32
arithmetic, the C library's expf, TfLiteRound); ABS's holds elementwise.cc's
AbsEvalQuantized of each value (|v - input zero point|, rescaled where the scales differ),
RSQRT's its RsqrtEvalQuantized (GetInvSqrtQuantizedMultiplierExp, ops/inv_sqrt.py). TFLM
fails the run on an int8 RSQRT input below the zero point (a negative value); the table
gives those the output's maximum, as TFLM gives the zero point. Their float32 forms:
reference_ops::Elu (expm1f below 0), std::abs and 1.f / std::sqrt. int16 ABS is TFLM's
too: with quantization (zero points 0) AbsEvalQuantized, without it std::abs cast back
to int16."""

import numpy as np

from tinyaot.ops.activation import _expect_same_shape
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.inv_sqrt import inv_sqrt_multiplier_exp
from tinyaot.ops.lut import expf, round_f32
from tinyaot.quant import multiply_by_quantized_multiplier, quantize_multiplier

f32 = np.float32


def elu_table_s8(input_scale, input_zero_point, output_scale, output_zero_point):
    """table[(uint8_t)v]: ELU of int8 value v, every float32 step as TFLM takes it."""
    inverse_scale = f32(1) / f32(output_scale)
    table = np.zeros(256, np.int8)
    for v in range(-128, 128):
        x = f32(input_scale) * f32(v - input_zero_point)
        y = expf(x) - f32(1) if x < 0 else x
        quantized = int(round_f32(y * inverse_scale) + f32(output_zero_point))  # C's float -> int32 truncates
        table[v & 0xFF] = min(max(quantized, -128), 127)
    return table


def abs_table_s8(input_scale, input_zero_point, output_scale, output_zero_point):
    """table[(uint8_t)v]: AbsEvalQuantized of int8 value v (the scales' ratio taken in float32)."""
    rescale = f32(input_scale) != f32(output_scale)
    multiplier, shift = quantize_multiplier(float(f32(input_scale) / f32(output_scale)))
    table = np.zeros(256, np.int8)
    for v in range(-128, 128):
        value = abs(v - input_zero_point)
        if rescale:
            value = multiply_by_quantized_multiplier(value, multiplier, shift)
        table[v & 0xFF] = min(max(value + output_zero_point, -128), 127)
    return table


def rsqrt_table_s8(input_scale, input_zero_point, output_scale, output_zero_point):
    """table[(uint8_t)v]: RsqrtEvalQuantized of int8 value v (0 and negative values: 127)."""
    k_shift = 20  # TFLM's shift keeping the value an integer
    # SetRsqrtOutputMultiplier: 1 / double(sqrtf(input scale) * output scale)
    multiplier, shift = quantize_multiplier(1.0 / float(np.sqrt(f32(input_scale)) * f32(output_scale)))
    table = np.full(256, 127, np.int8)
    for v in range(input_zero_point + 1, 128):
        inv, inv_shift = inv_sqrt_multiplier_exp(v - input_zero_point)
        data = multiply_by_quantized_multiplier(1, inv, inv_shift + k_shift)
        value = multiply_by_quantized_multiplier(data, multiplier, shift - k_shift) + output_zero_point
        table[v & 0xFF] = min(max(value, -128), 127)
    return table


def _lower_abs_s16(ctx, inp, out):
    quantized = inp.quant is not None
    if quantized:
        for t in (inp, out):
            ctx.expect_quantized(t)
            ctx.expect(t.zero_point == 0, f"zero point {t.zero_point} is not 0 (TFLM's int16 ABS takes 0)", t.index)
    rescale = quantized and f32(inp.scale) != f32(out.scale)
    multiplier, shift = quantize_multiplier(float(f32(inp.scale) / f32(out.scale))) if rescale else (0, 0)
    params = ParamStruct("struct tinyaot_abs_s16_params", {
        "size": inp.num_elements, "quantized": int(quantized), "rescale": int(rescale),
        "multiplier": multiplier, "shift": shift})
    return [KernelCall("tinyaot_abs_s16", [params, TensorRef(inp.index), TensorRef(out.index)])]


def _lower(ctx, kind, table_s8, int16=False):
    ctx.expect(len(ctx.op.inputs) == 1, f"expects 1 input, has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "float32", *(("int16",) if int16 else ()))
    ctx.expect_dtype(out, inp.dtype)
    _expect_same_shape(ctx, inp, out)
    if inp.dtype == "int16":
        return _lower_abs_s16(ctx, inp, out)
    if inp.dtype == "float32":
        params = ParamStruct("struct tinyaot_math_f32_params", {"size": inp.num_elements, "kind": kind})
        return [KernelCall("tinyaot_math_f32", [params, TensorRef(inp.index), TensorRef(out.index)])]
    for t in (inp, out):
        ctx.expect_quantized(t)
    table = table_s8(inp.scale, inp.zero_point, out.scale, out.zero_point)
    params = ParamStruct("struct tinyaot_lut_s8_params", {"size": inp.num_elements})
    return [KernelCall("tinyaot_lut_s8", [params, ParamArray("int8_t", table), TensorRef(inp.index),
                                          TensorRef(out.index)])]


OPS = {
    "ELU": lambda ctx: _lower(ctx, "TINYAOT_MATH_ELU", elu_table_s8),
    "ABS": lambda ctx: _lower(ctx, "TINYAOT_MATH_ABS", abs_table_s8, int16=True),
    "RSQRT": lambda ctx: _lower(ctx, "TINYAOT_MATH_RSQRT", rsqrt_table_s8),
}
