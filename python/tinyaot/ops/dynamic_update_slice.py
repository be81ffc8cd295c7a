"""DYNAMIC_UPDATE_SLICE (float32, int8, int16, int32; start indices int32 or int64),
TFLM's dynamic_update_slice.cc: the
start indices are read at run time and clamped as TFLM clamps them
(kernels/tinyaot_dynamic_update_slice.h). Values move as stored, so the update and the
output must be quantized as the operand."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import contiguous_strides, expect_moved_values

MAX_DIMS = 6


def lower_dynamic_update_slice(ctx):
    ctx.expect(len(ctx.op.inputs) == 3, f"expects 3 inputs (operand, update, start indices), has "
               f"{len(ctx.op.inputs)}")
    operand, update, starts, out = ctx.input(0), ctx.input(1), ctx.input(2), ctx.output()
    expect_moved_values(ctx, operand, [update, out], ("float32", "int8", "int16", "int32"))
    ctx.expect_dtype(starts, "int32", "int64")
    rank = len(operand.shape)
    ctx.expect(1 <= rank <= MAX_DIMS, f"rank {rank} is not supported (1 to {MAX_DIMS})", operand.index)
    ctx.expect(list(starts.shape) == [rank], f"start indices of shape {list(starts.shape)} should be [{rank}]",
               starts.index)
    ctx.expect(len(update.shape) == rank and all(u <= o for u, o in zip(update.shape, operand.shape)),
               f"update shape {list(update.shape)} does not fit in operand shape {list(operand.shape)}", update.index)
    ctx.expect(tuple(out.shape) == tuple(operand.shape),
               f"output shape {list(out.shape)} differs from operand shape {list(operand.shape)}", out.index)
    params = ParamStruct("struct tinyaot_dynamic_update_slice_params", {
        "rank": rank, "element_size": operand.itemsize, "operand_bytes": operand.nbytes,
        "update_rows": update.num_elements // update.shape[-1], "indices_int64": int(starts.dtype == "int64")})
    tables = [ParamArray("int32_t", np.array(v, np.int32))
              for v in (operand.shape, update.shape, contiguous_strides(operand.shape))]
    return [KernelCall("tinyaot_dynamic_update_slice", [params, *tables, TensorRef(operand.index),
                                                        TensorRef(update.index), TensorRef(starts.index),
                                                        TensorRef(out.index)])]


OPS = {"DYNAMIC_UPDATE_SLICE": lower_dynamic_update_slice}
