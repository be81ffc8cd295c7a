"""BROADCAST_TO, FILL and ZEROS_LIKE: outputs made of repeated values, each a strided
copy (ops/strided_copy.py) that steps 0 through what repeats, as TFLM's
reference_ops::BroadcastTo and Fill and its zeros_like.cc write them. Shapes and dims
must be constants (shapes are static here); FILL's value may be computed at run time.
Values are moved, not rescaled: a quantized output has its source's quantization."""

import numpy as np

from tinyaot.ops.base import ParamArray
from tinyaot.ops.strided_copy import constant_ints, contiguous_strides, expect_moved_values, strided_copy

BROADCAST_TO_MAX_DIMS = 5  # TFLM's broadcast_to.cc kMaxDims


def _expect_output_shape(ctx, out, shape, what):
    ctx.expect(list(out.shape) == list(shape), f"output shape {list(out.shape)} differs from {what} {list(shape)}",
               out.index)


def lower_broadcast_to(ctx):
    inp, shape_t, out = ctx.input(0), ctx.input(1), ctx.output()
    # TFLM's BroadcastTo copies bytes of any dtype
    expect_moved_values(ctx, inp, [out], ("int8", "uint8", "int16", "int32", "uint32", "int64", "float32", "bool"))
    shape = constant_ints(ctx, shape_t, ("int32", "int64"))
    _expect_output_shape(ctx, out, shape, "the shape input")
    ctx.expect(len(shape) <= BROADCAST_TO_MAX_DIMS and len(inp.shape) <= len(shape),
               f"broadcasts rank {len(inp.shape)} to rank {len(shape)} (at most {BROADCAST_TO_MAX_DIMS}, not down)",
               out.index)
    padded = [1] * (len(shape) - len(inp.shape)) + list(inp.shape)
    ctx.expect(all(d == s or d == 1 for d, s in zip(padded, shape)),
               f"input shape {list(inp.shape)} does not broadcast to {shape}", inp.index)
    strides = [0 if d == 1 else s for d, s in zip(padded, contiguous_strides(padded))]
    return strided_copy(ctx, inp, out, shape, strides, 0)


def lower_fill(ctx):
    dims_t, value, out = ctx.input(0), ctx.input(1), ctx.output()
    expect_moved_values(ctx, value, [out], ("int8", "int32", "float32"))
    ctx.expect(value.shape == (), f"value has shape {list(value.shape)}, not a scalar's [] (as TFLM takes it)",
               value.index)
    _expect_output_shape(ctx, out, constant_ints(ctx, dims_t, ("int8", "int16", "int32", "int64")), "dims")
    return strided_copy(ctx, value, out, out.shape, [0] * len(out.shape), 0)


def lower_zeros_like(ctx):
    inp, out = ctx.input(0), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "int32", "int64", "float32"))
    _expect_output_shape(ctx, out, inp.shape, "the input's")
    zero = ParamArray(inp.ctype, np.zeros(1, inp.dtype))  # the stored value 0, as TFLM (not the zero point)
    return strided_copy(ctx, zero, out, out.shape, [0] * len(out.shape), 0)


OPS = {"BROADCAST_TO": lower_broadcast_to, "FILL": lower_fill, "ZEROS_LIKE": lower_zeros_like}
