"""What the operators that only move values share: type checks and the call
that copies a strided part of the input into a contiguous output
(kernels/tinyaot_strided_copy.h). No value is rescaled, so a quantized output
must have the input's scale and zero point, and the copy is right for every
dtype of the element's size."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.elementwise import MAX_DIMS, merge_dims


def expect_moved_values(ctx, inp, outs, dtypes):
    """inp has one of dtypes and every output has its dtype and quantization."""
    ctx.expect_dtype(inp, *dtypes)
    for k, out in enumerate(outs):
        ctx.expect(out.dtype == inp.dtype, f"output dtype {out.dtype} differs from input dtype {inp.dtype}",
                   out.index)
        if inp.quant is not None or out.quant is not None:
            ctx.expect_quantized(out)
            ctx.expect_same_quantization(inp, out, "input", f"{ctx.op.type} moves stored values without rescaling")


def contiguous_strides(shape):
    """Values one step moves in each dimension of a row-major tensor of `shape`."""
    strides, step = [0] * len(shape), 1
    for d in reversed(range(len(shape))):
        strides[d] = step
        step *= int(shape[d])
    return strides


def constant_ints(ctx, tensor, dtypes=("int32",)):
    """The values of a constant integer tensor as Python ints."""
    ctx.expect_dtype(tensor, *dtypes)
    ctx.expect_constant(tensor)
    return [int(v) for v in np.asarray(tensor.data).reshape(-1)]


def strided_copy(ctx, inp, out, shape, strides, start):
    """The call that fills `out`, seen as `shape`, from inp (a tensor, or a ParamArray of values
    made here): output index (i0, i1, ...) takes input value start + i0 * strides[0] +
    i1 * strides[1] + ... (no call if empty)."""
    if out.num_elements == 0:
        return []
    dims, (steps,) = merge_dims([int(d) for d in shape], [[int(s) for s in strides]])
    ctx.expect(len(dims) <= MAX_DIMS, f"the copy walks {len(dims)} dimensions (at most {MAX_DIMS})", out.index)
    params = ParamStruct("struct tinyaot_strided_copy_params", {
        "size": out.num_elements,
        "rank": len(dims),
        "element_bytes": out.itemsize,
        "start": int(start),
    })
    return [KernelCall("tinyaot_strided_copy", [
        params, ParamArray("int32_t", np.array(dims, np.int32)), ParamArray("int32_t", np.array(steps, np.int32)),
        inp if isinstance(inp, ParamArray) else TensorRef(inp.index), TensorRef(out.index)])]


def slice_copy(ctx, inp, out, begin, counts, steps=None):
    """strided_copy of the slice of inp starting at `begin` with counts[d] values
    every steps[d] (default 1) in each input dimension d."""
    in_strides = contiguous_strides(inp.shape)
    steps = steps or [1] * len(counts)
    return strided_copy(ctx, inp, out, counts, [s * k for s, k in zip(in_strides, steps)],
                        sum(b * s for b, s in zip(begin, in_strides)))
