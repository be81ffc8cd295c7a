"""Operators that copy bytes: reshape-like ones that cannot be views (see passes/views.py),
and SHAPE, whose value is known at build time."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, TensorRef


def lower_copy(ctx):
    src, dst = ctx.input(0), ctx.output()
    ctx.expect(src.nbytes == dst.nbytes,
               f"output has {dst.nbytes} bytes but input has {src.nbytes}", dst.index)
    ctx.expect(src.dtype == dst.dtype, f"changes dtype {src.dtype} to {dst.dtype}", dst.index)
    return [KernelCall("tinyaot_copy", [TensorRef(dst.index), TensorRef(src.index), dst.nbytes])]


def lower_shape(ctx):
    """SHAPE: shapes are static here, so the output is a build-time constant, copied in."""
    src, dst = ctx.input(0), ctx.output()
    ctx.expect_dtype(dst, "int32")
    ctx.expect(dst.shape == (len(src.shape),),
               f"output shape {list(dst.shape)} does not hold the input's rank {len(src.shape)}", dst.index)
    dims = ParamArray("int32_t", np.array(src.shape, np.int32))
    return [KernelCall("tinyaot_copy", [TensorRef(dst.index), dims, dst.nbytes])]


OPS = {"SHAPE": lower_shape}
