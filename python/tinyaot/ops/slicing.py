"""SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK and REVERSE_V2: parts of the input copied out.

Each output is a strided copy (ops/strided_copy.py) of one part of the
input, as TFLM's reference_ops::Slice, StridedSlice, Split, Unpack and Reverse copy it.
Begin, size, end, strides, axes and split sizes must be constants (TFLM's
STRIDED_SLICE requires it too); the output shapes are checked against them.
The dtypes are those TFLM's kernels take.
"""

from tinyaot.ops.strided_copy import constant_ints, contiguous_strides, expect_moved_values, slice_copy, strided_copy

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def _axis(ctx, axis, rank, tensor=None):
    ctx.expect(-rank <= axis < rank, f"axis {axis} is out of range for rank {rank}", tensor)
    return axis + rank if axis < 0 else axis


def _expect_shape(ctx, out, shape):
    ctx.expect(list(out.shape) == list(shape), f"output shape {list(out.shape)} should be {list(shape)}", out.index)


def lower_slice(ctx):
    inp, out = ctx.input(0), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "uint8", "int16", "int32", "float32", "bool"))
    rank = len(inp.shape)
    begin = constant_ints(ctx, ctx.input(1), ("int32", "int64"))
    size = constant_ints(ctx, ctx.input(2), ("int32", "int64"))
    ctx.expect(len(begin) == rank and len(size) == rank,
               f"begin {begin} and size {size} must have one value per input dimension ({rank})")
    counts = []
    for d in range(rank):
        count = inp.shape[d] - begin[d] if size[d] == -1 else size[d]
        ctx.expect(0 <= begin[d] and count >= 0 and begin[d] + count <= inp.shape[d],
                   f"begin {begin} and size {size} reach outside input shape {list(inp.shape)}", inp.index)
        counts.append(count)
    _expect_shape(ctx, out, counts)
    return slice_copy(ctx, inp, out, begin, counts)


def _start_for_axis(begin, stride, axis_size, masked):
    """tflite::strided_slice::StartForAxis."""
    if axis_size == 0:
        return 0
    start = (INT32_MIN if stride > 0 else INT32_MAX) if masked else begin
    if start < 0:
        start += axis_size
    return min(max(start, 0), axis_size) if stride > 0 else min(max(start, -1), axis_size - 1)


def _stop_for_axis(end, stride, axis_size, masked, start, shrink):
    """tflite::strided_slice::StopForAxis."""
    if axis_size == 0:
        return 0
    if shrink:
        return start + 1
    stop = (INT32_MAX if stride > 0 else INT32_MIN) if masked else end
    if stop < 0:
        stop += axis_size
    return min(max(stop, 0), axis_size) if stride > 0 else min(max(stop, -1), axis_size - 1)


def lower_strided_slice(ctx):
    ctx.expect(len(ctx.op.inputs) == 4, f"expects 4 inputs (input, begin, end, strides), has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "uint8", "int16", "int32", "float32", "bool"))
    rank = len(inp.shape)
    begin, end, strides = (constant_ints(ctx, ctx.input(k)) for k in (1, 2, 3))
    ctx.expect(len(begin) == len(end) == len(strides) == rank,
               f"begin {begin}, end {end} and strides {strides} must have one value per input dimension ({rank})")
    options = ctx.op.options
    # TFLM's micro kernel sets these to 0 and would compute another slice than the model says.
    for mask in ("ellipsis_mask", "new_axis_mask"):
        ctx.expect(options.get(mask, 0) == 0, f"{mask} {options.get(mask)} is not supported (TFLM ignores it)")
    ctx.expect(not options.get("offset", False), "offset is not supported (TFLM ignores it)")
    begin_mask, end_mask = options.get("begin_mask", 0), options.get("end_mask", 0)
    shrink_mask = options.get("shrink_axis_mask", 0)
    starts, counts, kept = [], [], []
    for d in range(rank):
        ctx.expect(strides[d] != 0, f"stride {d} is zero", ctx.op.inputs[3])
        shrink = bool(shrink_mask >> d & 1)
        start = _start_for_axis(begin[d], strides[d], inp.shape[d], begin_mask >> d & 1)
        stop = _stop_for_axis(end[d], strides[d], inp.shape[d], end_mask >> d & 1, start, shrink)
        # TFLM walks start, start + stride, ... while it has not passed stop.
        count = max(0, -((stop - start) // -strides[d]))  # ceil((stop - start) / stride)
        ctx.expect(count == 1 or not shrink,
                   f"axis {d} is shrunk with a negative stride, where TFLM's kernel writes nothing")
        starts.append(start)
        counts.append(count)
        if not shrink:
            kept.append(count)
    _expect_shape(ctx, out, kept)
    return slice_copy(ctx, inp, out, starts, counts, strides)


def _split_along(ctx, inp, outs, axis, sizes):
    """One copy per output: sizes[k] values of inp along axis, one after another."""
    calls, offset = [], 0
    for out, size in zip(outs, sizes):
        shape = list(inp.shape)
        shape[axis] = size
        _expect_shape(ctx, out, shape)
        begin = [0] * len(shape)
        begin[axis] = offset
        calls += slice_copy(ctx, inp, out, begin, shape)
        offset += size
    return calls


def _split_operands(ctx, input_k, axis_k):
    """SPLIT's and SPLIT_V's input, outputs and constant axis (from input axis_k)."""
    inp, outs = ctx.input(input_k), [ctx.output(k) for k in range(len(ctx.op.outputs))]
    expect_moved_values(ctx, inp, outs, ("int8", "int16", "int32", "float32"))
    axis_values = constant_ints(ctx, ctx.input(axis_k))
    ctx.expect(len(axis_values) == 1, "axis must be a single value", ctx.op.inputs[axis_k])
    return inp, outs, _axis(ctx, axis_values[0], len(inp.shape), ctx.op.inputs[axis_k])


def lower_split(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (axis, input), has {len(ctx.op.inputs)}")
    inp, outs, axis = _split_operands(ctx, 1, 0)
    n = len(outs)
    ctx.expect(n == ctx.op.options.get("num_splits", n) and inp.shape[axis] % n == 0,
               f"{inp.shape[axis]} values along axis {axis} do not split into {n} equal parts", inp.index)
    return _split_along(ctx, inp, outs, axis, [inp.shape[axis] // n] * n)


def lower_split_v(ctx):
    ctx.expect(len(ctx.op.inputs) == 3, f"expects 3 inputs (input, size_splits, axis), has {len(ctx.op.inputs)}")
    inp, outs, axis = _split_operands(ctx, 0, 2)
    sizes = constant_ints(ctx, ctx.input(1))
    ctx.expect(len(sizes) == len(outs), f"{len(sizes)} split sizes for {len(outs)} outputs", ctx.op.inputs[1])
    if sizes.count(-1) == 1:  # the one -1 takes what the others leave
        sizes[sizes.index(-1)] = inp.shape[axis] - (sum(sizes) + 1)
    ctx.expect(all(s >= 0 for s in sizes) and sum(sizes) == inp.shape[axis],
               f"split sizes {sizes} do not add up to {inp.shape[axis]} along axis {axis}", ctx.op.inputs[1])
    return _split_along(ctx, inp, outs, axis, sizes)


def lower_unpack(ctx):
    inp, outs = ctx.input(0), [ctx.output(k) for k in range(len(ctx.op.outputs))]
    expect_moved_values(ctx, inp, outs, ("int8", "int16", "int32", "float32"))
    rank = len(inp.shape)
    axis = _axis(ctx, int(ctx.op.options.get("axis", 0)), rank)
    ctx.expect(len(outs) == inp.shape[axis] == ctx.op.options.get("num", len(outs)),
               f"{len(outs)} outputs for {inp.shape[axis]} values along axis {axis}", inp.index)
    calls = []
    for k, out in enumerate(outs):
        _expect_shape(ctx, out, [d for i, d in enumerate(inp.shape) if i != axis])
        begin = [0] * rank
        begin[axis] = k
        counts = list(inp.shape)
        counts[axis] = 1
        calls += slice_copy(ctx, inp, out, begin, counts)
    return calls


def lower_reverse_v2(ctx):
    """The input read backwards along the constant axes, which TFLM requires to be adjacent."""
    inp, out = ctx.input(0), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "uint8", "int16", "int32", "int64", "float32", "bool"))
    rank = len(inp.shape)
    axes = sorted(_axis(ctx, a, rank, ctx.op.inputs[1]) for a in constant_ints(ctx, ctx.input(1)))
    ctx.expect(not axes or axes == list(range(axes[0], axes[0] + len(axes))),
               f"axes {axes} are not adjacent (TFLM reverses adjacent axes only)", ctx.op.inputs[1])
    _expect_shape(ctx, out, inp.shape)
    strides = contiguous_strides(inp.shape)
    start = sum((inp.shape[d] - 1) * strides[d] for d in axes)
    return strided_copy(ctx, inp, out, inp.shape, [-s if d in axes else s for d, s in enumerate(strides)], start)


OPS = {
    "REVERSE_V2": lower_reverse_v2,
    "SLICE": lower_slice,
    "STRIDED_SLICE": lower_strided_slice,
    "SPLIT": lower_split,
    "SPLIT_V": lower_split_v,
    "UNPACK": lower_unpack,
}
