"""CUMSUM and ADD_N, int8 and float32 (as TFLM): sums of int8 values the way TFLM's
cumsum.cc and add_n.cc Prepare set them up (kernels/tinyaot_cumsum.h, tinyaot_add_n.h):
each input scaled by exactly 0.5 after a left shift of 20 (input_scale / (2 input_scale)),
the sum by 2 input_scale / (2^20 output_scale), both through QuantizeMultiplier."""

import numpy as np

from tinyaot.ops.activation import _expect_same_shape
from tinyaot.ops.base import KernelCall, ParamStruct, TensorList, TensorRef
from tinyaot.ops.strided_copy import constant_ints
from tinyaot.quant import requantize_multiplier

LEFT_SHIFT = 20  # cumsum.cc's kCumSumIntegerShift, add_n.cc's kAddNIntegerShift


def _int8_sum_fields(ctx, inputs, out):
    """The int8 kernels' offsets and output rescaling; every input quantized as the first."""
    for t in (*inputs, out):
        ctx.expect_quantized(t)
    for t in inputs[1:]:
        ctx.expect_same_quantization(t, inputs[0], "first input", f"{ctx.op.type} takes inputs quantized alike (TFLM)")
    multiplier, shift = requantize_multiplier(2 * float(inputs[0].scale) / ((1 << LEFT_SHIFT) * float(out.scale)))
    return {"input_offset": -inputs[0].zero_point, "output_multiplier": multiplier, "output_shift": shift,
            "output_offset": out.zero_point}


_FLOAT_FIELDS = {"input_offset": 0, "output_multiplier": 0, "output_shift": 0, "output_offset": 0}


def lower_cumsum(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, axis), has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "float32")
    ctx.expect_dtype(out, inp.dtype)
    _expect_same_shape(ctx, inp, out)
    rank = len(inp.shape)
    ctx.expect(rank >= 1, "a scalar input is not supported (TFLM needs rank 1 or more)", inp.index)
    axes = constant_ints(ctx, ctx.input(1))
    ctx.expect(len(axes) == 1 and -rank <= axes[0] < rank, f"axis {axes} is not one axis of rank {rank}",
               ctx.op.inputs[1])
    axis = axes[0] % rank
    fields = {"before": int(np.prod(inp.shape[:axis], dtype=np.int64)), "depth": inp.shape[axis],
              "after": int(np.prod(inp.shape[axis + 1:], dtype=np.int64)),
              "exclusive": int(bool(ctx.op.options.get("exclusive", False))),
              "reverse": int(bool(ctx.op.options.get("reverse", False))),
              "float32": int(inp.dtype == "float32"),
              **(_FLOAT_FIELDS if inp.dtype == "float32" else _int8_sum_fields(ctx, [inp], out))}
    params = ParamStruct("struct tinyaot_cumsum_params", fields)
    return [KernelCall("tinyaot_cumsum", [params, TensorRef(inp.index), TensorRef(out.index)])]


def lower_add_n(ctx):
    inputs, out = [ctx.input(k) for k in range(len(ctx.op.inputs))], ctx.output()
    ctx.expect(len(inputs) >= 2, f"has {len(inputs)} inputs (TFLM takes 2 or more)")
    ctx.expect_dtype(inputs[0], "int8", "float32")
    for t in (*inputs[1:], out):
        ctx.expect_dtype(t, inputs[0].dtype)
        _expect_same_shape(ctx, inputs[0], t)
    fields = {"size": out.num_elements, "count": len(inputs), "float32": int(out.dtype == "float32"),
              **(_FLOAT_FIELDS if out.dtype == "float32" else _int8_sum_fields(ctx, inputs, out))}
    params = ParamStruct("struct tinyaot_add_n_params", fields)
    return [KernelCall("tinyaot_add_n", [params, TensorList(tuple(t.index for t in inputs), "void"),
                                         TensorRef(out.index)])]


OPS = {"CUMSUM": lower_cumsum, "ADD_N": lower_add_n}
