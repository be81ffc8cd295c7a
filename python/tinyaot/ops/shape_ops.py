"""CONCATENATION, PACK, PAD/PADV2 (int8, int16, float32) and MIRROR_PAD (int8, float32, as TFLM):
operators that only move values around.

TFLM copies bytes for both (reference_ops::Concatenation, reference_ops::Pad);
no value is rescaled. For int8 CONCATENATION, TFLM's Prepare rejects inputs
whose scale or zero point differs from the output's, so we do too rather than
invent a rescaling TFLM does not have.
"""

import numpy as np

from tinyaot.ops import overlap
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints, expect_moved_values
from tinyaot.quant import INT_RANGES

MAX_CONCAT_INPUTS = 10  # TFLM's kMaxInputNum
MAX_CONCAT_DIMS = 6  # RuntimeShape::kMaxSmallSize
MAX_PAD_DIMS = 5  # reference_ops::PadKernelMaxDimensionCount()
PAD_DTYPES = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "float32": "float"}  # -> pad value's C type
MIRROR_PAD_MAX_DIMS = 6  # kernels/tinyaot_mirror_pad.h
MIRROR_REFLECT = 0  # tflite.MirrorPadMode.REFLECT (SYMMETRIC is 1)


def _same_quantization(ctx, t, out, what):
    ctx.expect_same_quantization(t, out, what, "TFLM's int8 kernel does not rescale, so it requires them equal")


def lower_concatenation(ctx):
    out = ctx.output()
    inputs = [ctx.input(k) for k in range(len(ctx.op.inputs))]
    ctx.expect(1 <= len(inputs) <= MAX_CONCAT_INPUTS,
               f"has {len(inputs)} inputs (1 to {MAX_CONCAT_INPUTS} are supported, as in TFLM)")
    ctx.expect(ctx.op.options.get("fused_activation_function", 0) == 0,
               "a fused activation is not supported (TFLM requires NONE)")
    ctx.expect_dtype(out, "int8", "int16", "int32", "int64", "float32", "bool")
    rank = len(out.shape)
    ctx.expect(1 <= rank <= MAX_CONCAT_DIMS, f"output rank {rank} is not supported (1 to {MAX_CONCAT_DIMS})",
               out.index)
    axis = int(ctx.op.options.get("axis", 0))
    ctx.expect(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    axis = axis + rank if axis < 0 else axis
    total = 0
    for k, t in enumerate(inputs):
        ctx.expect_dtype(t, out.dtype)
        if t.quant is not None or out.quant is not None:
            ctx.expect_quantized(out)
            _same_quantization(ctx, t, out, f"input {k}")
        ctx.expect(len(t.shape) == rank and all(t.shape[d] == out.shape[d] for d in range(rank) if d != axis),
                   f"input {k} shape {list(t.shape)} does not match output shape {list(out.shape)} "
                   f"outside axis {axis}", t.index)
        total += t.shape[axis]
    ctx.expect(total == out.shape[axis],
               f"inputs add up to {total} along axis {axis}, but the output has {out.shape[axis]}", out.index)

    return _side_by_side(inputs, [t.shape[axis] for t in inputs], out, axis)


def _side_by_side(inputs, lengths, out, axis):
    """Calls that place inputs one after another along the output's axis,
    input k taking lengths[k] places there."""
    # Every input is a [outer, length * inner] block; its rows go side by side in the output.
    outer = int(np.prod(out.shape[:axis], dtype=np.int64))
    inner = int(np.prod(out.shape[axis + 1:], dtype=np.int64)) * out.itemsize
    row = out.shape[axis] * inner
    calls, offset = [], 0
    for t, length in zip(inputs, lengths):
        width = length * inner
        if width and outer:
            calls.append(KernelCall("tinyaot_concat", [ParamStruct("struct tinyaot_concat_params", {
                "rows": outer,
                "row_bytes": width,
                "output_row_bytes": row,
                "output_offset": offset,
            }), TensorRef(t.index), TensorRef(out.index)]))
        offset += width
    return calls


def lower_pack(ctx):
    """PACK: reference_ops::Pack copies each input to its place along a new axis,
    a concatenation of the inputs with a dimension of 1 added there."""
    out = ctx.output()
    inputs = [ctx.input(k) for k in range(len(ctx.op.inputs))]
    ctx.expect(len(inputs) >= 1 and len(inputs) == ctx.op.options.get("values_count", len(inputs)),
               f"has {len(inputs)} inputs but values_count {ctx.op.options.get('values_count')}")
    for t in inputs:
        expect_moved_values(ctx, t, [out], ("int8", "int16", "int32", "int64", "float32"))
    shape = list(inputs[0].shape)
    rank = len(shape) + 1
    axis = int(ctx.op.options.get("axis", 0))
    ctx.expect(-rank <= axis < rank, f"axis {axis} is out of range for output rank {rank}")
    axis = axis + rank if axis < 0 else axis
    for k, t in enumerate(inputs):
        ctx.expect(list(t.shape) == shape, f"input {k} shape {list(t.shape)} differs from input 0's {shape}",
                   t.index)
    expected = shape[:axis] + [len(inputs)] + shape[axis:]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    return _side_by_side(inputs, [1] * len(inputs), out, axis)


def lower_pad(ctx):
    n_in = len(ctx.op.inputs)
    ctx.expect(n_in in (2, 3), f"has {n_in} inputs (expects input, paddings and an optional pad value)")
    inp, paddings, out = ctx.input(0), ctx.input(1), ctx.output()
    value = ctx.input(2, optional=True) if n_in > 2 else None
    ctx.expect(inp.num_elements > 0, f"empty input shape {list(inp.shape)} is not supported", inp.index)
    ctx.expect_dtype(inp, *PAD_DTYPES)
    ctx.expect_dtype(out, inp.dtype)
    quantized = inp.dtype in ("int8", "int16")  # TFLM's int32 PAD ignores quantization: the values are copied
    if quantized:
        ctx.expect_quantized(out)
    rank = len(inp.shape)
    ctx.expect(rank <= MAX_PAD_DIMS, f"input rank {rank} is above {MAX_PAD_DIMS} (TFLM's limit)", inp.index)
    ctx.expect(len(out.shape) == rank, f"output rank {len(out.shape)} differs from input rank {rank}",
               out.index)
    ctx.expect_dtype(paddings, "int32")
    ctx.expect_constant(paddings)
    ctx.expect(paddings.num_elements == 2 * rank,
               f"paddings must hold {rank} (before, after) pairs, has shape {list(paddings.shape)}",
               paddings.index)
    pads = np.asarray(paddings.data, np.int64).reshape(rank, 2)
    ctx.expect(not np.any(pads < 0), f"negative paddings {pads.tolist()} are not supported", paddings.index)
    expected = [int(inp.shape[d] + pads[d, 0] + pads[d, 1]) for d in range(rank)]
    ctx.expect(list(out.shape) == expected,
               f"output shape {list(out.shape)} is not input shape {list(inp.shape)} padded by "
               f"{pads.tolist()}, {expected}", out.index)
    if value is None:
        # TFLM pads int8 with the output zero point (the quantized 0.0), int16, int32 and float32 with a plain 0.
        pad_value = out.zero_point if out.dtype == "int8" else 0
        low, high = INT_RANGES.get(out.dtype, (pad_value, pad_value))
        ctx.expect(low <= pad_value <= high, f"output zero point is outside {out.dtype}", out.index)
    else:
        ctx.expect_dtype(value, out.dtype)
        ctx.expect_constant(value)
        ctx.expect(value.num_elements == 1, "the pad value must be a single value", value.index)
        if quantized:
            _same_quantization(ctx, value, out, "pad value")
        pad_value = value.data.reshape(-1)[0]
        ctx.expect(np.isfinite(pad_value), f"pad value {pad_value} is not finite", value.index)

    # Merge each unpadded dimension into the one before it: fewer, longer rows to copy.
    in_dims = [int(d) for d in inp.shape] or [1]
    out_dims = list(expected) or [1]
    left = [int(p) for p in pads[:, 0]] or [0]
    d = len(in_dims) - 1
    while d >= 1:
        if out_dims[d] == in_dims[d]:  # no padding here
            in_dims[d - 1:d + 1] = [in_dims[d - 1] * in_dims[d]]
            left[d - 1:d + 1] = [left[d - 1] * out_dims[d]]
            out_dims[d - 1:d + 1] = [out_dims[d - 1] * out_dims[d]]
        d -= 1
    strides, step = [0] * len(out_dims), 1
    for d in reversed(range(len(out_dims))):
        strides[d] = step
        step *= out_dims[d]
    params = ParamStruct("struct tinyaot_pad_params", {
        "rank": len(in_dims),
        "input_size": inp.num_elements,
        "output_size": out.num_elements,
        "first": sum(lo * s for lo, s in zip(left, strides)),
        "value_bytes": out.itemsize,
    })
    last = params.fields["first"] + sum((n - 1) * s for n, s in zip(in_dims, strides))
    return [KernelCall("tinyaot_pad", [
        params, ParamArray("int32_t", np.array(in_dims, np.int32)),
        ParamArray("int32_t", np.array(strides, np.int32)),
        ParamArray(PAD_DTYPES[out.dtype], np.array([pad_value], out.dtype)),
        TensorRef(inp.index), TensorRef(out.index)], overlaps=overlap.forward_copy(inp, out, last))]


def lower_mirror_pad(ctx):
    """TFLM's mirror_pad.cc: REFLECT or SYMMETRIC, constant paddings (int32 or int64)."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, paddings), has {len(ctx.op.inputs)}")
    inp, paddings, out = ctx.input(0), ctx.input(1), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "float32"))
    rank = len(inp.shape)
    ctx.expect(1 <= rank <= MIRROR_PAD_MAX_DIMS, f"input rank {rank} is not 1 to {MIRROR_PAD_MAX_DIMS}", inp.index)
    pads = np.array(constant_ints(ctx, paddings, ("int32", "int64")))
    ctx.expect(len(pads) == 2 * rank and not np.any(pads < 0),
               f"paddings {pads.tolist()} are not {rank} (before, after) pairs of sizes", paddings.index)
    pads = pads.reshape(rank, 2)
    expected = [int(inp.shape[d] + pads[d].sum()) for d in range(rank)]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} is not input shape {list(inp.shape)} "
               f"padded by {pads.tolist()}, {expected}", out.index)
    params = ParamStruct("struct tinyaot_mirror_pad_params", {
        "rank": rank, "size": out.num_elements, "offset": int(ctx.op.options.get("mode", 0) == MIRROR_REFLECT),
        "element_bytes": inp.itemsize})
    dims = np.array([*out.shape, *inp.shape, *pads[:, 0]], np.int32)
    return [KernelCall("tinyaot_mirror_pad", [params, ParamArray("int32_t", dims), TensorRef(inp.index),
                                              TensorRef(out.index)])]


OPS = {"CONCATENATION": lower_concatenation, "PACK": lower_pack, "PAD": lower_pad, "PADV2": lower_pad,
       "MIRROR_PAD": lower_mirror_pad}
