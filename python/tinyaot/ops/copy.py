"""Reshape-like operators that cannot be views (see passes/views.py) copy bytes."""

from tinyaot.ops.base import KernelCall, TensorRef


def lower_copy(ctx):
    src, dst = ctx.input(0), ctx.output()
    ctx.expect(src.nbytes == dst.nbytes,
               f"output has {dst.nbytes} bytes but input has {src.nbytes}", dst.index)
    ctx.expect(src.dtype == dst.dtype, f"changes dtype {src.dtype} to {dst.dtype}", dst.index)
    return [KernelCall("tinyaot_copy", [TensorRef(dst.index), TensorRef(src.index), dst.nbytes])]
