"""ARG_MAX and ARG_MIN: int8 or float32 in, int32 indices out, along one
constant axis, as TFLM's arg_min_max.cc takes them."""

from tinyaot.ir import DTYPES
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints


def _lower(ctx, maximum):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, axis), has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "float32")
    ctx.expect_dtype(out, "int32")
    axis_values = constant_ints(ctx, ctx.input(1))
    ctx.expect(len(axis_values) == 1, "axis must be a single value", ctx.op.inputs[1])
    rank = len(inp.shape)
    axis = axis_values[0]
    ctx.expect(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}", ctx.op.inputs[1])
    axis = axis + rank if axis < 0 else axis
    ctx.expect(inp.shape[axis] >= 1, f"axis {axis} is empty", inp.index)
    expected = [d for i, d in enumerate(inp.shape) if i != axis]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    inner = 1
    for d in inp.shape[axis + 1:]:
        inner *= int(d)
    params = ParamStruct("struct tinyaot_arg_min_max_params", {
        "outer": inp.num_elements // (inp.shape[axis] * inner) if inp.num_elements else 0,
        "axis_size": inp.shape[axis],
        "inner": inner,
        "dtype": DTYPES[inp.dtype][2],
        "maximum": int(maximum),
    })
    return [KernelCall("tinyaot_arg_min_max", [params, TensorRef(inp.index), TensorRef(out.index)])]


def lower_arg_max(ctx):
    return _lower(ctx, maximum=True)


def lower_arg_min(ctx):
    return _lower(ctx, maximum=False)


OPS = {"ARG_MAX": lower_arg_max, "ARG_MIN": lower_arg_min}
