"""MEAN, int8, int16 or float32 (ops/float32.py).

TFLM (reduce_common.cc) runs every int8 and int16 MEAN through
reference_ops::QuantizedMeanOrSum -- there is no special 4-D spatial path for
int8 -- so that is what we reproduce: sum the int8 values in int32, subtract
zero point x count, and rescale with input_scale / output_scale folded with
1/count the way QuantizedMeanOrSum folds it. keep_dims only changes the output
shape, not the values or their order.
"""

import numpy as np

from tinyaot.ops import float32
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.quant import requantize_multiplier, wrap_int32


def mean_multiplier(input_scale, output_scale, count):
    """QuantizeMultiplier(in/out in double), then QuantizedMeanOrSum's fold of 1/count."""
    multiplier, shift = requantize_multiplier(float(input_scale) / float(output_scale))
    fold = count.bit_length() - 1  # 63 - CountLeadingZeros(count)
    fold = min(fold, 32, 31 + shift)
    return (multiplier << fold) // count, shift - fold


def lower_mean(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, axes), has {len(ctx.op.inputs)}")
    inp, axes, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    if inp.dtype != "float32":
        for t in (inp, out):
            ctx.expect_dtype(t, inp.dtype)
            ctx.expect_quantized(t)
            ctx.expect(float(t.scale) > 0.0, "quantization scale must be positive", t.index)
    rank = len(inp.shape)
    ctx.expect(rank >= 1, "a scalar input is not supported", inp.index)
    ctx.expect(inp.num_elements > 0, f"empty input shape {list(inp.shape)} is not supported", inp.index)
    ctx.expect_dtype(axes, "int32")
    ctx.expect_constant(axes)

    # reference_ops::ResolveAxis: negative axes count from the end, repeats are ignored.
    reduced = []
    for a in np.asarray(axes.data).reshape(-1).tolist():
        ctx.expect(-rank <= a < rank, f"axis {a} is out of range for input rank {rank}", axes.index)
        a = a + rank if a < 0 else a
        if a not in reduced:
            reduced.append(a)
    keep_dims = bool(ctx.op.options.get("keep_dims", False))
    if keep_dims:
        expected = [1 if d in reduced else inp.shape[d] for d in range(rank)]
    else:
        expected = [inp.shape[d] for d in range(rank) if d not in reduced]
    ctx.expect(list(out.shape) == expected,
               f"output shape {list(out.shape)} should be {expected} (axes {sorted(reduced)}, "
               f"keep_dims {keep_dims})", out.index)
    count = int(np.prod([inp.shape[d] for d in reduced], dtype=np.int64))

    # Input dimensions, merged where neighbours are both kept or both reduced,
    # then split into the kept ones (walked per output) and the reduced ones.
    strides, step = [0] * rank, 1
    for d in reversed(range(rank)):
        strides[d] = step
        step *= inp.shape[d]
    groups = []  # [is_reduced, size, stride]
    for d in range(rank):
        if inp.shape[d] == 1:
            continue
        r = d in reduced
        if groups and groups[-1][0] == r and groups[-1][2] == inp.shape[d] * strides[d]:
            groups[-1][1] *= inp.shape[d]
            groups[-1][2] = strides[d]
        else:
            groups.append([r, inp.shape[d], strides[d]])
    kept = [g for g in groups if not g[0]]
    red = [g for g in groups if g[0]]
    if not groups:
        kept = [[False, 1, 1]]  # a single value: keep the tables non-empty
    fields = {"kept_rank": len(kept), "reduced_rank": len(red), "output_size": out.num_elements,
              "reduced_size": count}
    dims = np.array([g[1] for g in kept + red], np.int32)
    strides = np.array([g[2] for g in kept + red], np.int32)
    if inp.dtype == "float32":
        return float32.mean(ctx, out, (fields, dims, strides))
    multiplier, shift = mean_multiplier(inp.scale, out.scale, count)
    params = ParamStruct("struct tinyaot_mean_int_params", {
        **fields,
        "sum_offset": wrap_int32(inp.zero_point * count),
        "multiplier": multiplier,
        "shift": shift,
        "output_offset": out.zero_point,
        "int16": int(inp.dtype == "int16"),
    })
    return [KernelCall("tinyaot_mean_int", [
        params, ParamArray("int32_t", dims), ParamArray("int32_t", strides),
        TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"MEAN": lower_mean}
