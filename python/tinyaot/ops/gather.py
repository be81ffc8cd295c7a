"""GATHER (int8, float32) with constant indices, following TFLM's gather.cc.

Indices computed at run time are refused: TFLM fails the inference on an
index out of range, and a generated run() has no such error path yet.
"""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints, expect_moved_values


def _product(dims):
    result = 1
    for d in dims:
        result *= int(d)
    return result


def lower_gather(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, indices), has {len(ctx.op.inputs)}")
    inp, coords, out = ctx.input(0), ctx.input(1), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "float32"))
    ctx.expect(coords.is_constant, "indices computed at run time are not supported (only constant indices)",
               coords.index)
    indices = constant_ints(ctx, coords)
    rank, coords_rank = len(inp.shape), len(coords.shape)
    axis = int(ctx.op.options.get("axis", 0))
    axis = axis + rank if axis < 0 else axis
    ctx.expect(0 <= axis < rank, f"axis {ctx.op.options.get('axis', 0)} is out of range for rank {rank}")
    batch_dims = int(ctx.op.options.get("batch_dims", 0))
    batch_dims = batch_dims + coords_rank if batch_dims < 0 else batch_dims
    ctx.expect(0 <= batch_dims <= axis and batch_dims < rank and batch_dims <= coords_rank
               and list(inp.shape[:batch_dims]) == list(coords.shape[:batch_dims]),
               f"batch_dims {ctx.op.options.get('batch_dims', 0)} does not fit input shape {list(inp.shape)}, "
               f"indices shape {list(coords.shape)} and axis {axis}")
    axis_size = inp.shape[axis]
    bad = [i for i in indices if not 0 <= i < axis_size]
    ctx.expect(not bad, f"index {bad[0] if bad else 0} is outside 0..{axis_size - 1}", coords.index)
    expected = list(inp.shape[:axis]) + list(coords.shape[batch_dims:]) + list(inp.shape[axis + 1:])
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    batch, outer = _product(inp.shape[:batch_dims]), _product(inp.shape[batch_dims:axis])
    inner, coord_size = _product(inp.shape[axis + 1:]), _product(coords.shape[batch_dims:])
    row_bytes = inner * inp.itemsize
    offsets = [((b * outer + o) * axis_size + indices[b * coord_size + c]) * row_bytes
               for b in range(batch) for o in range(outer) for c in range(coord_size)]
    if not offsets or not row_bytes:
        return []
    params = ParamStruct("struct tinyaot_gather_params", {"rows": len(offsets), "row_bytes": row_bytes})
    return [KernelCall("tinyaot_gather", [params, ParamArray("int32_t", np.array(offsets, np.int32)),
                                          TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"GATHER": lower_gather}
