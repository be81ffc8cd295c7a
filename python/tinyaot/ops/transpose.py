"""TRANSPOSE, SPACE_TO_DEPTH and DEPTH_TO_SPACE: values rearranged, none changed.

Each is one strided copy (ops/strided_copy.py): the output is walked in
order and each of its dimensions steps through the input as TFLM's
reference_ops::Transpose, SpaceToDepth and DepthToSpace place the values.
"""

from tinyaot.ops.strided_copy import constant_ints, contiguous_strides, expect_moved_values, strided_copy

MAX_TRANSPOSE_DIMS = 5  # TFLM's TransposePrepare


def lower_transpose(ctx):
    inp, out = ctx.input(0), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "int16", "float32"))
    rank = len(inp.shape)
    ctx.expect(1 <= rank <= MAX_TRANSPOSE_DIMS, f"input rank {rank} is outside 1..{MAX_TRANSPOSE_DIMS}", inp.index)
    perm = constant_ints(ctx, ctx.input(1))
    ctx.expect(sorted(perm) == list(range(rank)), f"perm {perm} is not a permutation of 0..{rank - 1} (TFLM takes no negative entries)",
               ctx.op.inputs[1])
    shape = [inp.shape[p] for p in perm]
    ctx.expect(list(out.shape) == shape, f"output shape {list(out.shape)} should be {shape}", out.index)
    in_strides = contiguous_strides(inp.shape)
    return strided_copy(ctx, inp, out, shape, [in_strides[p] for p in perm], 0)


def _block(ctx, inp, out):
    """Checks shared by SPACE_TO_DEPTH and DEPTH_TO_SPACE; returns the block size."""
    expect_moved_values(ctx, inp, [out], ("int8", "float32"))
    ctx.expect(len(inp.shape) == 4, f"input must be 4-D (NHWC), is {list(inp.shape)}", inp.index)
    block = int(ctx.op.options.get("block_size", 0))
    ctx.expect(block >= 1, f"block size {block} must be at least 1")
    return block


def lower_space_to_depth(ctx):
    inp, out = ctx.input(0), ctx.output()
    b = _block(ctx, inp, out)
    n, h, w, c = inp.shape
    ctx.expect(h % b == 0 and w % b == 0, f"height {h} and width {w} must be multiples of block size {b}",
               inp.index)
    expected = [n, h // b, w // b, b * b * c]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    # Output depth is (row in block, column in block, channel).
    sn, sh, sw, _ = contiguous_strides(inp.shape)
    return strided_copy(ctx, inp, out, [n, h // b, w // b, b, b, c], [sn, b * sh, b * sw, sh, sw, 1], 0)


def lower_depth_to_space(ctx):
    inp, out = ctx.input(0), ctx.output()
    b = _block(ctx, inp, out)
    n, h, w, c = inp.shape
    ctx.expect(c % (b * b) == 0, f"depth {c} must be a multiple of block size {b} squared", inp.index)
    depth = c // (b * b)
    expected = [n, h * b, w * b, depth]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    # Output row is (input row, row in block), column (input column, column in block).
    sn, sh, sw, _ = contiguous_strides(inp.shape)
    return strided_copy(ctx, inp, out, [n, h, b, w, b, depth], [sn, sh, b * depth, sw, depth, 1], 0)


OPS = {
    "TRANSPOSE": lower_transpose,
    "SPACE_TO_DEPTH": lower_space_to_depth,
    "DEPTH_TO_SPACE": lower_depth_to_space,
}
