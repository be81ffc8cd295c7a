"""SELECT_V2 (float32, int8, int16, the dtypes TFLM's select.cc takes): condition ? x : y
with the three inputs broadcast to the output (kernels/tinyaot_select.h). TFLM copies
the stored values without rescaling, so x, y and the output must share one quantization."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.elementwise import MAX_DIMS, merge_dims


def _broadcast_strides(ctx, tensors, out_shape):
    """Per tensor, how far it moves per step in each output dimension (0 where broadcast)."""
    rank = len(out_shape)
    strides = []
    for t in tensors:
        ctx.expect(len(t.shape) <= rank, f"shape {list(t.shape)} has more dimensions than the output's "
                   f"{list(out_shape)}", t.index)
        ext = (1,) * (rank - len(t.shape)) + tuple(t.shape)
        s, step = [0] * rank, 1
        for d in reversed(range(rank)):
            ctx.expect(ext[d] in (1, out_shape[d]), f"shape {list(t.shape)} does not broadcast to the output's "
                       f"{list(out_shape)}", t.index)
            s[d] = step if ext[d] != 1 else 0
            step *= ext[d]
        strides.append(s)
    return strides


def lower_select_v2(ctx):
    ctx.expect(len(ctx.op.inputs) == 3, f"expects 3 inputs (condition, x, y), has {len(ctx.op.inputs)}")
    cond, x, y, out = ctx.input(0), ctx.input(1), ctx.input(2), ctx.output()
    ctx.expect_dtype(cond, "bool")
    ctx.expect_dtype(out, "float32", "int8", "int16")
    for t in (x, y):
        ctx.expect(t.dtype == out.dtype, f"dtype {t.dtype} differs from the output's {out.dtype}", t.index)
        if out.dtype != "float32":
            ctx.expect_quantized(out)
            ctx.expect_same_quantization(t, out, "input", "SELECT_V2 copies stored values without rescaling (as TFLM)")
    shape = tuple(out.shape)
    ctx.expect(len(shape) == max(len(t.shape) for t in (cond, x, y)) and len(shape) <= MAX_DIMS,
               f"output shape {list(shape)} is not the inputs' broadcast shape", out.index)
    dims, strides = merge_dims(list(shape), _broadcast_strides(ctx, (cond, x, y), shape))
    params = ParamStruct("struct tinyaot_select_params", {
        "size": out.num_elements, "rank": len(dims), "element_size": out.itemsize})
    walk = [ParamArray("int32_t", np.array(d, np.int32)) for d in (dims, *strides)]
    return [KernelCall("tinyaot_select", [params, *walk, TensorRef(cond.index), TensorRef(x.index),
                                          TensorRef(y.index), TensorRef(out.index)])]


OPS = {"SELECT_V2": lower_select_v2}
