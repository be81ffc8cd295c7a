"""GATHER, GATHER_ND and EMBEDDING_LOOKUP (int8, float32), following TFLM's
gather.cc, gather_nd.cc and embedding_lookup.cc.

Constant indices are checked here and become a table of row offsets. Indices
computed at run time (int32, as TFLM takes) are checked by the kernel as TFLM
checks them: one out of range makes run() return TINYAOT_ERROR_INDEX_OUT_OF_RANGE,
where TFLM's Invoke() fails.
"""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints, expect_moved_values


def _product(dims):
    result = 1
    for d in dims:
        result *= int(d)
    return result


def _gathered(ctx, first):
    """(input, indices tensor, output, indices as ints) of GATHER and GATHER_ND, checked."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs ({first}, indices), has {len(ctx.op.inputs)}")
    inp, coords, out = ctx.input(0), ctx.input(1), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "float32"))
    return inp, coords, out, _indices(ctx, coords)


def _indices(ctx, coords):
    """The constant indices as ints, or None for indices read at run time (int32 only)."""
    if coords.is_constant:
        return constant_ints(ctx, coords)
    ctx.expect(coords.dtype == "int32", f"indices computed at run time must be int32 (as TFLM's kernel), not "
               f"{coords.dtype}", coords.index)
    return None


def _indexed_call(coords, source, out, counts, **fields):
    """tinyaot_gather_indexed over indices read at run time (see the kernel for the fields)."""
    if not fields["row_bytes"] or not out.num_elements:
        return []
    params = ParamStruct("struct tinyaot_gather_indexed_params", {
        "batches": 1, "outer": 1, "block": 0, "span": 1, **fields})
    return [KernelCall("tinyaot_gather_indexed", [params, ParamArray("int32_t", np.array(counts, np.int32)), source,
                                                  TensorRef(coords.index), TensorRef(out.index)],
                       checked=True)]


def lower_gather(ctx):
    inp, coords, out, indices = _gathered(ctx, "input")
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
    expected = list(inp.shape[:axis]) + list(coords.shape[batch_dims:]) + list(inp.shape[axis + 1:])
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    batch, outer = _product(inp.shape[:batch_dims]), _product(inp.shape[batch_dims:axis])
    inner, coord_size = _product(inp.shape[axis + 1:]), _product(coords.shape[batch_dims:])
    row_bytes = inner * inp.itemsize
    if indices is None:
        return _indexed_call(coords, TensorRef(inp.index), out, [1], batches=batch, outer=outer, tuples=coord_size,
                             depth=1, block=axis_size, limit=axis_size, unit_bytes=row_bytes, row_bytes=row_bytes)
    bad = [i for i in indices if not 0 <= i < axis_size]
    ctx.expect(not bad, f"index {bad[0] if bad else 0} is outside 0..{axis_size - 1}", coords.index)
    offsets = [((b * outer + o) * axis_size + indices[b * coord_size + c]) * row_bytes
               for b in range(batch) for o in range(outer) for c in range(coord_size)]
    return _gather_call(offsets, row_bytes, TensorRef(inp.index), out)


def _gather_call(offsets, row_bytes, source, out):
    """Output rows of row_bytes bytes copied from `source` (a TensorRef, or a ParamArray of
    values made here) at each byte offset."""
    if not offsets or not row_bytes:
        return []
    params = ParamStruct("struct tinyaot_gather_params", {"rows": len(offsets), "row_bytes": row_bytes})
    return [KernelCall("tinyaot_gather", [params, ParamArray("int32_t", np.array(offsets, np.int32)), source,
                                          TensorRef(out.index)])]


def lower_gather_nd(ctx):
    inp, coords, out, indices = _gathered(ctx, "params")
    ctx.expect(len(inp.shape) >= 1 and len(coords.shape) >= 1, "params and indices must be at least vectors")
    depth = coords.shape[-1]
    ctx.expect(depth <= min(len(inp.shape), 5), f"index depth {depth} is above the params' rank "
               f"{len(inp.shape)} or TFLM's 5", coords.index)
    expected = list(coords.shape[:-1]) + list(inp.shape[depth:])
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    slice_size = _product(inp.shape[depth:])
    counts = [_product(inp.shape[d + 1:]) for d in range(depth)]
    if indices is None:
        return _indexed_call(coords, TensorRef(inp.index), out, counts, tuples=_product(coords.shape[:-1]),
                             depth=depth, span=slice_size, limit=inp.num_elements, unit_bytes=inp.itemsize,
                             row_bytes=slice_size * inp.itemsize)
    offsets = []
    for s in range(len(indices) // depth if depth else 0):
        start = sum(indices[s * depth + d] * counts[d] for d in range(depth))
        # TFLM checks the flat position only (an index past its own dimension may pass)
        ctx.expect(0 <= start and start + slice_size <= inp.num_elements,
                   f"index {indices[s * depth:(s + 1) * depth]} is outside params shape {list(inp.shape)}",
                   coords.index)
        offsets.append(start * inp.itemsize)
    return _gather_call(offsets, slice_size * inp.itemsize, TensorRef(inp.index), out)


def lower_embedding_lookup(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (ids, values), has {len(ctx.op.inputs)}")
    ids, values, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect(len(ids.shape) == 1, f"ids of shape {list(ids.shape)} should be a vector", ids.index)
    rows = _indices(ctx, ids)
    ctx.expect(len(values.shape) >= 2, f"values of shape {list(values.shape)} need 2 or more dimensions",
               values.index)
    expected = [ids.shape[0]] + list(values.shape[1:])
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    bad = [r for r in rows or () if not 0 <= r < values.shape[0]]
    ctx.expect(not bad, f"id {bad[0] if bad else 0} is outside 0..{values.shape[0] - 1}", ids.index)
    columns = values.num_elements // values.shape[0]
    if values.dtype == "int8" and out.dtype == "float32":
        ctx.expect_quantized(values)
        ctx.expect(values.zero_point == 0, f"zero point {values.zero_point} is not 0 (TFLM's hybrid lookup "
                   "takes 0)", values.index)
        ctx.expect(values.is_constant, "int8 values computed at run time are not supported in the hybrid form "
                   "(float32 output)", values.index)
        ctx.expect(rows is not None, "ids computed at run time are not supported in the hybrid form (float32 "
                   "output): its rows are dequantized at build time", ids.index)
        # TFLM's Dequantize: static_cast<float>(scale * (value - 0)), the scale a float
        table = (np.float32(values.scale) * values.data.reshape(values.shape[0], -1).astype(np.float32))
        table = table[rows].reshape(-1)
        return _gather_call([0], table.size * 4, ParamArray("float", table), out)
    expect_moved_values(ctx, values, [out], ("int8", "float32"))
    row_bytes = columns * values.itemsize
    if rows is None:
        return _indexed_call(ids, TensorRef(values.index), out, [1], tuples=ids.shape[0], depth=1,
                             limit=values.shape[0], unit_bytes=row_bytes, row_bytes=row_bytes)
    return _gather_call([r * row_bytes for r in rows], row_bytes, TensorRef(values.index), out)


OPS = {"GATHER": lower_gather, "GATHER_ND": lower_gather_nd, "EMBEDDING_LOOKUP": lower_embedding_lookup}
