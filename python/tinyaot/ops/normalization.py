"""L2_NORMALIZATION and LOG_SOFTMAX over the last axis, float32 (kernels/tinyaot_row_norm_f32.h);
int8 L2_NORMALIZATION as TFLM's reference_integer_ops::L2Normalization (kernels/
tinyaot_l2norm_s8.h: its output is at TFLM's fixed 1/128 scale, which TFLM does not check
against the output tensor either); int8 LOG_SOFTMAX as TFLM's LogSoftmaxQuantized
(kernels/tinyaot_log_softmax_s8.h, output at TFLM's required scale 16/256, zero point 127),
its scaling worked out here as TFLM's Prepare does."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.activation import calculate_input_radius, preprocess_softmax_scaling
from tinyaot.ops.math_f32 import unary, unary_float32
from tinyaot.quant import quantize_multiplier


def _lower_l2norm_s8(ctx):
    ctx.expect(len(ctx.op.inputs) == 1, f"expects 1 input, has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(out, "int8")
    ctx.expect(tuple(inp.shape) == tuple(out.shape) and 1 <= len(inp.shape) <= 4,
               f"input shape {list(inp.shape)} and output shape {list(out.shape)} should be one shape of 1 to 4 "
               "dimensions (TFLM takes up to 4)", out.index)
    ctx.expect_quantized(inp)
    ctx.expect(ctx.op.options.get("fused_activation_function", 0) == 0,
               "a fused activation is not supported (TFLM takes none)")
    params = ParamStruct("struct tinyaot_l2norm_s8_params", {
        "rows": int(np.prod(inp.shape[:-1], dtype=np.int64)), "depth": inp.shape[-1],
        "input_zero_point": inp.zero_point})
    return [KernelCall("tinyaot_l2norm_s8", [params, TensorRef(inp.index), TensorRef(out.index)])]


def _lower_log_softmax_s8(ctx):
    inp, out = unary(ctx, "int8")
    ctx.expect(len(inp.shape) >= 1, "a scalar input is not supported", inp.index)
    ctx.expect_quantized(inp)
    ctx.expect_quantized(out)
    ctx.expect(float(out.scale) == 16.0 / 256 and out.zero_point == 127,
               f"output quantization (scale {out.scale!s}, zero point {out.zero_point}) is not TFLM's "
               "(scale 0.0625, zero point 127)", out.index)
    scaling = preprocess_softmax_scaling(1.0, inp.scale, 5)
    ctx.expect(scaling is not None, f"input scale {inp.scale!s} is too small (TFLM's scaling needs a multiplier "
               "above 1)", inp.index)
    multiplier, left_shift = scaling
    # PreprocessLogSoftmaxScalingExp: the reverse scaling, a multiplier below one
    divisor, divisor_shift = quantize_multiplier((1 << (31 - left_shift)) / float(multiplier))
    params = ParamStruct("struct tinyaot_log_softmax_s8_params", {
        "rows": int(np.prod(inp.shape[:-1], dtype=np.int64)), "depth": inp.shape[-1],
        "input_multiplier": multiplier, "input_left_shift": left_shift,
        "reverse_scaling_divisor": divisor, "reverse_scaling_left_shift": divisor_shift,
        "diff_min": -calculate_input_radius(5, left_shift)})
    return [KernelCall("tinyaot_log_softmax_s8", [params, TensorRef(inp.index), TensorRef(out.index)])]


def _lower(ctx, log_softmax):
    if ctx.op.inputs and ctx.input(0).dtype == "int8":
        return _lower_log_softmax_s8(ctx) if log_softmax else _lower_l2norm_s8(ctx)
    inp, out = unary_float32(ctx)
    ctx.expect(len(inp.shape) >= 1, "a scalar input is not supported", inp.index)
    if not log_softmax:  # TFLM reads no fused activation but refuses one (l2norm.cc)
        ctx.expect(ctx.op.options.get("fused_activation_function", 0) == 0,
                   "a fused activation is not supported (TFLM takes none)")
    params = ParamStruct("struct tinyaot_row_norm_f32_params", {
        "rows": int(np.prod(inp.shape[:-1], dtype=np.int64)), "depth": inp.shape[-1],
        "log_softmax": int(log_softmax)})
    return [KernelCall("tinyaot_row_norm_f32", [params, TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"L2_NORMALIZATION": lambda ctx: _lower(ctx, log_softmax=False),
       "LOG_SOFTMAX": lambda ctx: _lower(ctx, log_softmax=True)}
