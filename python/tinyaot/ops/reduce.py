"""MEAN and SUM (int8, int16, float32), REDUCE_MAX and REDUCE_MIN (int8, float32), REDUCE_ALL
(bool: TFLM's EvalAllHelper, 1 unless a value is 0).

TFLM (reduce_common.cc) runs every int8 and int16 MEAN and SUM through
reference_ops::QuantizedMeanOrSum -- there is no special 4-D spatial path for
int8 -- so that is what we reproduce: sum the values in int32, subtract
zero point x count, and rescale with input_scale / output_scale (for MEAN folded
with 1/count the way QuantizedMeanOrSum folds it). REDUCE_MAX and REDUCE_MIN
are its ReduceGeneric, which needs the int8 output quantized as the input.
keep_dims only changes the output shape, not the values or their order.
"""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.quant import requantize_multiplier, wrap_int32


def mean_multiplier(input_scale, output_scale, count):
    """QuantizeMultiplier(in/out in double), then QuantizedMeanOrSum's fold of 1/count."""
    multiplier, shift = requantize_multiplier(float(input_scale) / float(output_scale))
    fold = count.bit_length() - 1  # 63 - CountLeadingZeros(count)
    fold = min(fold, 32, 31 + shift)
    return (multiplier << fold) // count, shift - fold


def _reduction(ctx, dtypes):
    """Checks every reduction shares; (input, output, count of values per output, the
    kernel's walk fields, dims, strides)."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, axes), has {len(ctx.op.inputs)}")
    inp, axes, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(inp, *dtypes)
    ctx.expect_dtype(out, inp.dtype)
    if inp.dtype in ("int8", "int16"):
        for t in (inp, out):
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
    return inp, out, count, fields, dims, strides


def _walk_call(kernel, params, dims, strides, inp, out):
    return [KernelCall(kernel, [params, ParamArray("int32_t", dims), ParamArray("int32_t", strides),
                                TensorRef(inp.index), TensorRef(out.index)])]


def _lower_sum_or_mean(ctx, mean):
    inp, out, count, fields, dims, strides = _reduction(ctx, ("int8", "int16", "float32"))
    if inp.dtype == "float32":
        params = ParamStruct("struct tinyaot_reduce_f32_params",
                             {**fields, "kind": "TINYAOT_REDUCE_MEAN" if mean else "TINYAOT_REDUCE_SUM"})
        return _walk_call("tinyaot_reduce_f32", params, dims, strides, inp, out)
    if mean:
        multiplier, shift = mean_multiplier(inp.scale, out.scale, count)
    else:
        multiplier, shift = requantize_multiplier(float(inp.scale) / float(out.scale))
    params = ParamStruct("struct tinyaot_reduce_int_params", {
        **fields,
        "sum_offset": wrap_int32(inp.zero_point * count),
        "multiplier": multiplier,
        "shift": shift,
        "output_offset": out.zero_point,
        "int16": int(inp.dtype == "int16"),
        "kind": "TINYAOT_REDUCE_INT_SUM",
    })
    return _walk_call("tinyaot_reduce_int", params, dims, strides, inp, out)


def _lower_extreme(ctx, largest):
    inp, out, _, fields, dims, strides = _reduction(ctx, ("int8", "float32"))
    if inp.dtype == "float32":
        params = ParamStruct("struct tinyaot_reduce_f32_params",
                             {**fields, "kind": "TINYAOT_REDUCE_MAX" if largest else "TINYAOT_REDUCE_MIN"})
        return _walk_call("tinyaot_reduce_f32", params, dims, strides, inp, out)
    ctx.expect_same_quantization(inp, out, "input", f"{ctx.op.type} picks stored values without rescaling (as TFLM)")
    params = ParamStruct("struct tinyaot_reduce_int_params", {
        **fields, "sum_offset": 0, "multiplier": 0, "shift": 0, "output_offset": 0, "int16": 0,
        "kind": "TINYAOT_REDUCE_INT_MAX" if largest else "TINYAOT_REDUCE_INT_MIN"})
    return _walk_call("tinyaot_reduce_int", params, dims, strides, inp, out)


def _lower_all(ctx):
    inp, out, _, fields, dims, strides = _reduction(ctx, ("bool",))
    params = ParamStruct("struct tinyaot_reduce_int_params", {
        **fields, "sum_offset": 0, "multiplier": 0, "shift": 0, "output_offset": 0, "int16": 0,
        "kind": "TINYAOT_REDUCE_INT_ALL"})
    return _walk_call("tinyaot_reduce_int", params, dims, strides, inp, out)


OPS = {
    "REDUCE_ALL": _lower_all,
    "MEAN": lambda ctx: _lower_sum_or_mean(ctx, mean=True),
    "SUM": lambda ctx: _lower_sum_or_mean(ctx, mean=False),
    "REDUCE_MAX": lambda ctx: _lower_extreme(ctx, largest=True),
    "REDUCE_MIN": lambda ctx: _lower_extreme(ctx, largest=False),
}
