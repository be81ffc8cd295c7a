"""CUMSUM, int8 and float32 (as TFLM), along a constant axis (kernels/tinyaot_cumsum.h).

int8 follows TFLM's cumsum.cc Prepare: the input scaled by exactly 0.5 after a left
shift of 20 (input_scale / (2 input_scale)), the output by 2 input_scale / (2^20
output_scale), both through QuantizeMultiplier."""

import numpy as np

from tinyaot.ops.activation import _expect_same_shape
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints
from tinyaot.quant import requantize_multiplier

LEFT_SHIFT = 20  # cumsum.cc's kCumSumIntegerShift


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
              "input_offset": 0, "output_multiplier": 0, "output_shift": 0, "output_offset": 0}
    if inp.dtype == "int8":
        for t in (inp, out):
            ctx.expect_quantized(t)
        twice_input_scale = 2 * float(inp.scale)
        multiplier, shift = requantize_multiplier(twice_input_scale / ((1 << LEFT_SHIFT) * float(out.scale)))
        fields.update(input_offset=-inp.zero_point, output_multiplier=multiplier, output_shift=shift,
                      output_offset=out.zero_point)
    params = ParamStruct("struct tinyaot_cumsum_params", fields)
    return [KernelCall("tinyaot_cumsum", [params, TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"CUMSUM": lower_cumsum}
