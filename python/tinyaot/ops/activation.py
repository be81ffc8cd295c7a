"""SOFTMAX (int8 -> int8/int16, int16 -> int16); LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU, PRELU,
HARD_SWISH (int8); RELU, RELU6, LEAKY_RELU, PRELU (int16); LOGISTIC, TANH (int16, ops/activation_s16.py); SOFTMAX,
LOGISTIC, TANH (float32, ops/float32.py), RELU, RELU6, LEAKY_RELU, HARD_SWISH, PRELU (float32;
PRELU with ops/elementwise.py's float32 kernel).

The constants are computed here the way TFLM's Prepare computes them
(softmax_common.cc, logistic_common.cc, tanh.cc, activations_common.cc,
leaky_relu_common.cc, prelu_common.cc, hard_swish_common.cc), in double from
the float32 scales, so the kernels only do TFLM's Eval arithmetic.
"""

import math

import numpy as np

from tinyaot.ops import activation_s16, float32, overlap, s16
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.lut import softmax_luts
from tinyaot.ops.elementwise import broadcast_table, checked_broadcast
from tinyaot.ops.elementwise import lower_f32 as lower_binary_f32
from tinyaot.quant import INT_RANGES, quantize_multiplier, quantize_value, requantize_multiplier

# TFLM's reference softmax: exp() input in Q5.26; LOGISTIC and TANH: input in Q4.27.
SOFTMAX_SCALED_DIFF_INTEGER_BITS = 5
Q4_INPUT_INTEGER_BITS = 4


def _expect_same_shape(ctx, inp, out):
    ctx.expect(tuple(inp.shape) == tuple(out.shape),
               f"output shape {list(out.shape)} differs from input shape {list(inp.shape)}", out.index)


def calculate_input_radius(input_integer_bits, input_left_shift, total_signed_bits=31):
    """tflite::CalculateInputRadius (the double version; every step is exact)."""
    max_input_rescaled = (1.0 * ((1 << input_integer_bits) - 1) * float(1 << (total_signed_bits - input_integer_bits))
                          / float(1 << input_left_shift))
    return int(math.floor(max_input_rescaled))


def preprocess_softmax_scaling(beta, input_scale, input_integer_bits):
    """tflite::PreprocessSoftmaxScaling (double rounding build): (multiplier, left shift),
    or None where TFLM's QuantizeMultiplierGreaterThanOne check would fail."""
    max_real_multiplier = float((1 << 31) - 1)
    real = min(float(beta) * float(input_scale) * float(1 << (31 - input_integer_bits)), max_real_multiplier)
    if not real > 1.0:
        return None
    return quantize_multiplier(real)


def lower_softmax(ctx):
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    if inp.dtype != "int8":
        ctx.expect(len(inp.shape) >= 1, "input must have at least one dimension", inp.index)
        _expect_same_shape(ctx, inp, out)
        return float32.softmax(ctx, inp, out) if inp.dtype == "float32" else _lower_softmax_s16(ctx, inp, out)
    ctx.expect_dtype(inp, "int8")
    ctx.expect_dtype(out, "int8", "int16")
    ctx.expect_quantized(inp)
    ctx.expect_quantized(out)
    ctx.expect(len(inp.shape) >= 1, "input must have at least one dimension", inp.index)
    _expect_same_shape(ctx, inp, out)
    # The output quantization TFLM requires (CalculateSoftmaxParams).
    if out.dtype == "int8":
        ctx.expect(out.zero_point == -128 and out.scale == np.float32(1.0 / 256),
                   f"int8 output must have scale 1/256 and zero point -128, not {out.scale:g} and {out.zero_point}",
                   out.index)
    else:
        ctx.expect(out.zero_point == -32768 and abs(float(out.scale) - 1.0 / 65536) <= 0.001 / 65536,
                   f"int16 output must have scale 1/65536 and zero point -32768, "
                   f"not {out.scale:g} and {out.zero_point}", out.index)
    beta = np.float32(ctx.op.options.get("beta", 0.0))  # the schema default; TFLM refuses it
    ctx.expect(np.isfinite(beta) and beta > 0, f"beta {beta} must be positive")
    scaling = preprocess_softmax_scaling(beta, inp.scale, SOFTMAX_SCALED_DIFF_INTEGER_BITS)
    ctx.expect(scaling is not None,
               f"beta {beta:g} x input scale {inp.scale:g} is too small (TFLM needs beta * scale * 2^26 > 1)",
               inp.index)
    multiplier, left_shift = scaling
    diff_min = -calculate_input_radius(SOFTMAX_SCALED_DIFF_INTEGER_BITS, left_shift)
    depth = inp.shape[-1]
    # The Q12.19 sum of exps holds up to 4095 values of 1.0 (the row maximum's exp is 1.0).
    ctx.expect(1 <= depth < 4096, f"last dimension {depth} is outside 1..4095", inp.index)
    params = ParamStruct("struct tinyaot_softmax_s8_params", {
        "outer_size": inp.num_elements // depth,
        "depth": depth,
        "input_multiplier": multiplier,
        "input_left_shift": left_shift,
        "diff_min": diff_min,
    })
    outputs = [TensorRef(out.index), "NULL"] if out.dtype == "int8" else ["NULL", TensorRef(out.index)]
    return [KernelCall("tinyaot_softmax_s8", [params, TensorRef(inp.index), *outputs])]


def _lower_softmax_s16(ctx, inp, out):
    """16x8: TFLM's SoftmaxInt16 with the tables its Prepare fills (ops/lut.py)."""
    s16.expect_symmetric_int16(ctx, inp, out)
    ctx.expect(abs(float(out.scale) - 1.0 / 32768) <= 0.001 / 32768,
               f"int16 output must have scale 1/32768 and zero point 0, not {out.scale:g}", out.index)
    beta = np.float32(ctx.op.options.get("beta", 0.0))
    ctx.expect(np.isfinite(beta) and beta > 0, f"beta {beta} must be positive")
    depth = inp.shape[-1]
    ctx.expect(1 <= depth <= 65536, f"last dimension {depth} is outside 1..65536 (the sum of exps is int32)",
               inp.index)
    # CalculateSoftmaxParams: [-65535, 0] of input differences spans [-10, 0].
    multiplier, shift = requantize_multiplier(float(inp.scale) * float(beta) / (10.0 / 65535.0))
    exp_lut, reciprocal_lut = softmax_luts()
    params = ParamStruct("struct tinyaot_softmax_s16_params", {
        "outer_size": inp.num_elements // depth, "depth": depth,
        "input_multiplier": multiplier, "input_shift": shift})
    return [KernelCall("tinyaot_softmax_s16", [params, ParamArray("int16_t", exp_lut),
                                               ParamArray("int16_t", reciprocal_lut), TensorRef(inp.index),
                                               TensorRef(out.index)])]


def _lower_logistic_or_tanh(ctx, tanh):
    """LOGISTIC and TANH share their checks, the Q4.27 input rescale and the kernel."""
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    if inp.dtype == "float32":
        _expect_same_shape(ctx, inp, out)
        return float32.logistic_or_tanh(ctx, inp, out, tanh)
    ctx.expect(out.dtype == inp.dtype, f"output dtype {out.dtype} differs from input dtype {inp.dtype}", out.index)
    if inp.dtype == "int16":
        _expect_same_shape(ctx, inp, out)
        return activation_s16.logistic_or_tanh(ctx, inp, out, tanh)
    ctx.expect_quantized(inp)
    ctx.expect_quantized(out)
    _expect_same_shape(ctx, inp, out)
    if tanh:  # TFLM checks neither and always writes in steps of 1/128 around 0.
        ctx.expect(out.zero_point == 0 and float(out.scale) == 1.0 / 128,
                   f"output must have scale 1/128 and zero point 0, not {out.scale:g} and {out.zero_point}",
                   out.index)
    else:  # TFLM checks only the zero point and always writes in steps of 1/256.
        ctx.expect(out.zero_point == -128, f"output zero point must be -128, not {out.zero_point}", out.index)
    # logistic_common.cc and tanh.cc: frexp of input scale * 2^27, the mantissa rounded to Q31.
    real = float(inp.scale) * float(1 << (31 - Q4_INPUT_INTEGER_BITS))
    mantissa, shift = math.frexp(real)
    multiplier = math.floor(mantissa * (1 << 31) + 0.5)  # TfLiteRound of a positive value
    ctx.expect(multiplier < (1 << 31) and 0 <= shift <= 31,
               f"input scale {inp.scale:g} is outside what TFLM's int8 {ctx.op.type} handles", inp.index)
    params = ParamStruct("struct tinyaot_logistic_s8_params", {
        "size": inp.num_elements,
        "tanh": int(tanh),
        "input_zero_point": inp.zero_point,
        "input_range_radius": calculate_input_radius(Q4_INPUT_INTEGER_BITS, shift),
        "input_multiplier": multiplier,
        "input_shift": shift,
    })
    return [KernelCall("tinyaot_logistic_s8", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]


def lower_logistic(ctx):
    return _lower_logistic_or_tanh(ctx, tanh=False)


def lower_tanh(ctx):
    return _lower_logistic_or_tanh(ctx, tanh=True)


def lower_leaky_relu(ctx):
    alpha = np.float32(ctx.op.options.get("alpha", 0.0))
    ctx.expect(np.isfinite(alpha), f"alpha {alpha} is not finite")
    if ctx.input(0).dtype == "float32":
        return _lower_f32(ctx, "TINYAOT_ACT_LEAKY_RELU", alpha)
    inp, out = _relu_common(ctx, ("int8", "int16"))  # int16: the same arithmetic (zero points too), as TFLM
    ctx.expect_quantized(out)
    # Both factors in double: the tflite-micro build the tests check against does so (the newer
    # TFLM source's leaky_relu_common.cc computes them in float32, which differs on some inputs
    # of most scales: test_s16_activations.py checks every input).
    alpha_real = float(inp.scale) * float(alpha) / float(out.scale)
    identity = requantize_multiplier(float(inp.scale) / float(out.scale))
    # A negative alpha gives a negative multiplier, used as it is: the tflite-micro
    # build the tests check against does so (the newer TFLM source negates the
    # product of |multiplier| instead, which rounds halves the other way).
    alpha_multiplier, alpha_shift = requantize_multiplier(alpha_real)
    params = ParamStruct("struct tinyaot_leaky_relu_params", {
        "size": inp.num_elements,
        "input_zero_point": inp.zero_point,
        "output_zero_point": out.zero_point,
        "identity_multiplier": identity[0],
        "identity_shift": identity[1],
        "alpha_multiplier": alpha_multiplier,
        "alpha_shift": alpha_shift,
    })
    kernel = "tinyaot_leaky_relu_s8" if inp.dtype == "int8" else "tinyaot_leaky_relu_s16"
    return [KernelCall(kernel, [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]


def _relu_common(ctx, dtypes=("int8",)):
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, *dtypes)
    ctx.expect(out.dtype == inp.dtype, f"output dtype {out.dtype} differs from input dtype {inp.dtype}", out.index)
    ctx.expect_quantized(inp)
    _expect_same_shape(ctx, inp, out)
    return inp, out


def _lower_f32(ctx, kind, alpha=0.0):
    """float32 RELU, RELU6 and LEAKY_RELU: one kernel, TFLM's float expressions."""
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(out, "float32")
    _expect_same_shape(ctx, inp, out)
    params = ParamStruct("struct tinyaot_activation_f32_params", {
        "size": inp.num_elements, "kind": kind, "alpha": float(np.float32(alpha))})
    return [KernelCall("tinyaot_activation_f32", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]


def _relu_call(inp, out, fields):
    """RELU and RELU6 (int8, int16): one kernel per type, tinyaot_relu.h's arithmetic."""
    params = ParamStruct("struct tinyaot_relu_params", {"size": inp.num_elements, **fields})
    return [KernelCall(f"tinyaot_relu_{'s8' if inp.dtype == 'int8' else 's16'}",
                       [params, TensorRef(inp.index), TensorRef(out.index)], overlaps=overlap.elementwise(inp, out))]


def lower_relu(ctx):
    if ctx.input(0).dtype == "float32":
        return _lower_f32(ctx, "TINYAOT_ACT_RELU")
    inp, out = _relu_common(ctx, ("int8", "int16"))
    ctx.expect_quantized(out)
    if inp.dtype == "int16":  # TFLM's int16 RELU requires zero points 0 (its RELU6 takes any)
        s16.expect_symmetric_int16(ctx, inp, out, why="TFLM's int16 RELU requires it")
    # In double: the tflite-micro build the tests check against does so (the newer TFLM source's
    # activations_common.cc divides in float, which rounds some ties the other way: the
    # relu_rescale_below_one model tells them apart).
    multiplier, shift = requantize_multiplier(float(inp.scale) / float(out.scale))
    ctx.expect(shift <= 31, f"input scale / output scale {inp.scale / out.scale:g} is too large", out.index)
    low, high = INT_RANGES[inp.dtype]
    return _relu_call(inp, out, {
        "requantize": int(not (multiplier == 1 << 30 and shift == 1)),
        "input_offset": inp.zero_point,
        "output_offset": out.zero_point,
        "multiplier": multiplier,
        "shift": shift,
        "act_min": max(low, out.zero_point),  # zero point + roundf(0 / scale)
        "act_max": high,
    })


def lower_relu6(ctx):
    if ctx.input(0).dtype == "float32":
        return _lower_f32(ctx, "TINYAOT_ACT_RELU6")
    inp, out = _relu_common(ctx, ("int8", "int16"))
    # TFLM's Relu6 clamps in the input's quantization and ignores the output's.
    low, high = INT_RANGES[inp.dtype]
    six = min(high, max(low, quantize_value(6.0, inp.scale, inp.zero_point)))
    return _relu_call(inp, out, {
        "requantize": 0,
        "input_offset": inp.zero_point,
        "output_offset": inp.zero_point,
        "multiplier": 1 << 30,
        "shift": 1,
        "act_min": inp.zero_point,
        "act_max": six,
    })


def _int16_multiplier(multiplier):
    """tflite::DownScaleInt32ToInt16Multiplier: a Q31 multiplier rounded to Q15."""
    return 32767 if multiplier >= (1 << 31) - 1 - (1 << 15) else (multiplier + (1 << 15)) >> 16


def lower_hard_swish(ctx):
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "float32")
    if inp.dtype == "float32":
        return _lower_f32(ctx, "TINYAOT_ACT_HARD_SWISH")
    ctx.expect(out.dtype == inp.dtype, f"output dtype {out.dtype} differs from input dtype {inp.dtype}", out.index)
    ctx.expect_quantized(inp)
    ctx.expect_quantized(out)
    _expect_same_shape(ctx, inp, out)
    # hard_swish_common.cc, in float32 then widened to double.
    f32 = np.float32
    hires_scale = f32(1.0 / 128.0) * f32(inp.scale)
    out_m, out_e = quantize_multiplier(float(hires_scale / f32(out.scale)))
    ctx.expect(out_e <= 0, f"input scale / output scale {inp.scale / out.scale:g} is too large "
                           "(TFLM needs input scale / 128 below the output scale)", out.index)
    relu_m, relu_e = quantize_multiplier(float(hires_scale / f32(3.0 / 32768.0)))
    # TFLM rounds these right shifts in 16-bit arithmetic; shifts of 16 or more (input scales
    # tens of thousands of times below the output scale) are outside what tinyaot reproduces.
    ctx.expect(min(out_e, relu_e) > -16,
               f"input scale {float(inp.scale):g} is too small against the output scale {float(out.scale):g}: "
               f"TFLM's 16-bit rescaling would shift right by {-min(out_e, relu_e)} bits", inp.index)
    params = ParamStruct("struct tinyaot_hard_swish_s8_params", {
        "size": inp.num_elements,
        "input_zero_point": inp.zero_point,
        "output_zero_point": out.zero_point,
        "output_multiplier": _int16_multiplier(out_m),
        "output_exponent": out_e,
        "reluish_multiplier": _int16_multiplier(relu_m),
        "reluish_exponent": relu_e,
    })
    return [KernelCall("tinyaot_hard_swish_s8", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]


def lower_prelu(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, alpha), has {len(ctx.op.inputs)}")
    inp, alpha, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    if inp.dtype == "float32":
        return lower_binary_f32(ctx, "TINYAOT_ARITH_PRELU", max_rank=4,
                                why=": TFLM's BroadcastPrelu4DSlowFloat")
    # int16 (16x8): TFLM reads alpha as int8 and takes any zero points.
    for t, dtype in ((inp, inp.dtype), (alpha, "int8"), (out, inp.dtype)):
        ctx.expect_dtype(t, dtype)
        ctx.expect_quantized(t)
    shape = checked_broadcast(ctx, inp, alpha, out)
    # prelu_common.cc: in double from the float32 scales.
    identity = requantize_multiplier(float(inp.scale) / float(out.scale))
    scaled = requantize_multiplier(float(inp.scale) * float(alpha.scale) / float(out.scale))
    dims, s_in, s_alpha = broadcast_table(inp.shape, alpha.shape, shape)
    params = ParamStruct("struct tinyaot_prelu_params", {
        "size": out.num_elements,
        "int16": int(inp.dtype == "int16"),
        "rank": len(dims),
        "input_offset": -inp.zero_point,
        "alpha_offset": -alpha.zero_point,
        "output_offset": out.zero_point,
        "identity_multiplier": identity[0],
        "identity_shift": identity[1],
        "alpha_multiplier": scaled[0],
        "alpha_shift": scaled[1],
    })
    walk = [ParamArray("int32_t", np.array(d, np.int32)) for d in (dims, s_in, s_alpha)]
    return [KernelCall("tinyaot_prelu",
                       [params, *walk, TensorRef(inp.index), TensorRef(alpha.index), TensorRef(out.index)])]


OPS = {
    "SOFTMAX": lower_softmax,
    "LOGISTIC": lower_logistic,
    "RELU": lower_relu,
    "RELU6": lower_relu6,
    "TANH": lower_tanh,
    "LEAKY_RELU": lower_leaky_relu,
    "PRELU": lower_prelu,
    "HARD_SWISH": lower_hard_swish,
}
