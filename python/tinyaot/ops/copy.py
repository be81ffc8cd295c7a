"""Operators that copy bytes: reshape-like ones that cannot be views (see passes/views.py),
and SHAPE and BROADCAST_ARGS, whose values are known at build time."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, TensorRef
from tinyaot.ops.strided_copy import constant_ints


def lower_copy(ctx):
    src, dst = ctx.input(0), ctx.output()
    ctx.expect(src.nbytes == dst.nbytes,
               f"output has {dst.nbytes} bytes but input has {src.nbytes}", dst.index)
    ctx.expect(src.dtype == dst.dtype, f"changes dtype {src.dtype} to {dst.dtype}", dst.index)
    return [KernelCall("tinyaot_copy", [TensorRef(dst.index), TensorRef(src.index), dst.nbytes])]


def _constant_output(ctx, out, values, what, dtypes=("int32",)):
    """The call that writes `values`, known at build time, into the integer output."""
    ctx.expect_dtype(out, *dtypes)
    ctx.expect(out.shape == (len(values),), f"output shape {list(out.shape)} does not hold {what}", out.index)
    return [KernelCall("tinyaot_copy", [TensorRef(out.index), ParamArray(out.ctype, np.array(values, out.dtype)),
                                        out.nbytes])]


def lower_shape(ctx):
    """SHAPE: shapes are static here, so the output is a build-time constant, copied in."""
    src = ctx.input(0)
    return _constant_output(ctx, ctx.output(), list(src.shape), f"the input's rank {len(src.shape)}")


def lower_broadcast_args(ctx):
    """BROADCAST_ARGS: the shape two constant shapes broadcast to, a build-time constant too."""
    shapes = [constant_ints(ctx, ctx.input(k), ("int32", "int64")) for k in (0, 1)]
    for t in (ctx.input(1), ctx.output()):  # TFLM's Prepare requires one dtype for all three
        ctx.expect(t.dtype == ctx.input(0).dtype, f"dtype {t.dtype} differs from input 0's {ctx.input(0).dtype}",
                   t.index)
    rank = max(map(len, shapes))
    padded = [[1] * (rank - len(s)) + s for s in shapes]
    ctx.expect(all(a == b or 1 in (a, b) for a, b in zip(*padded)), f"shapes {shapes[0]} and {shapes[1]} do not "
               "broadcast (each dimension must match or be 1)", ctx.op.inputs[1])
    result = [b if a == 1 else a for a, b in zip(*padded)]
    return _constant_output(ctx, ctx.output(), result, f"{len(result)} dimensions", ("int32", "int64"))


OPS = {"SHAPE": lower_shape, "BROADCAST_ARGS": lower_broadcast_args}
