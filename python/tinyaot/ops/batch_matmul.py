"""BATCH_MATMUL (int8, int16, float32), as TFLM's batch_matmul.cc computes it: lhs
[..., A, B] x rhs [..., B, C] (adj_x / adj_y transpose the last two dimensions),
the leading dimensions broadcast; int8 and int16: one output rescale (GetQuantized-
ConvolutionMultipler: the scales multiplied in float32; int16: zero points 0, int64
sums, the 64-bit rescale); float32: each sum from 0.0f in depth order, as
reference_ops::BatchMatMul<float>."""

import itertools

import numpy as np

from tinyaot.ops import s16
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import contiguous_strides
from tinyaot.quant import requantize_multiplier

MAX_RANK = 5  # TFLM's BatchMatMulPrepare
S16_MAX_DEPTH = 1 << 17  # int16: products up to 2^30, their sum below 2^47


def lower_batch_matmul(ctx):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (lhs, rhs), has {len(ctx.op.inputs)}")
    lhs, rhs, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(lhs, "int8", "int16", "float32")
    for t in (lhs, rhs, out):
        ctx.expect_dtype(t, lhs.dtype)
        if lhs.dtype != "float32":
            ctx.expect_quantized(t)
    if lhs.dtype == "int16":  # BatchMatMulPrepare requires zero points 0
        s16.expect_symmetric_int16(ctx, lhs, rhs, out)
    offsets, geometry = _geometry(ctx, lhs, rhs, out)
    if lhs.dtype == "float32":
        return [KernelCall("tinyaot_batch_matmul_f32", [
            ParamStruct("struct tinyaot_batch_matmul_params", {  # the shape fields; no quantization
                **geometry, "lhs_offset": 0, "rhs_offset": 0, "output_offset": 0, "multiplier": 0, "shift": 0}),
            ParamArray("int32_t", np.array(offsets, np.int32)), TensorRef(lhs.index), TensorRef(rhs.index),
            TensorRef(out.index)])]
    f32 = np.float32
    rescale = float(f32(lhs.scale) * f32(rhs.scale)) / float(out.scale)
    multiplier, shift = requantize_multiplier(rescale)
    if lhs.dtype == "int16":
        # TFLM's 64-bit rescale (MultiplyByQuantizedMultiplier) is defined for |sum| < 2^47 and shifts below 8.
        ctx.expect(geometry["depth"] < S16_MAX_DEPTH, f"depth {geometry['depth']} x 2^30 per product can pass the "
                                                      "+-2^47 that TFLM's 64-bit rescale is defined for", lhs.index)
        ctx.expect(shift < 8, f"lhs scale x rhs scale / output scale {rescale:g} is 128 or more, beyond TFLM's "
                              "64-bit rescale (shifts below 8)", out.index)
    params = ParamStruct("struct tinyaot_batch_matmul_params", {
        **geometry,
        "lhs_offset": -lhs.zero_point,
        "rhs_offset": -rhs.zero_point,
        "output_offset": out.zero_point,
        "multiplier": multiplier,
        "shift": shift,
    })
    kernel = "tinyaot_batch_matmul_s8" if lhs.dtype == "int8" else "tinyaot_batch_matmul_s16"
    return [KernelCall(kernel, [params, ParamArray("int32_t", np.array(offsets, np.int32)), TensorRef(lhs.index),
                                TensorRef(rhs.index), TensorRef(out.index)])]


def _geometry(ctx, lhs, rhs, out):
    """(per output matrix the offsets of its lhs and rhs matrices, the sizes and strides)."""
    for t in (lhs, rhs):
        ctx.expect(2 <= len(t.shape) <= MAX_RANK, f"rank {len(t.shape)} is outside 2..{MAX_RANK}", t.index)
    rank = max(len(lhs.shape), len(rhs.shape))
    ls = [1] * (rank - len(lhs.shape)) + list(lhs.shape)
    rs = [1] * (rank - len(rhs.shape)) + list(rhs.shape)
    adj_x, adj_y = bool(ctx.op.options.get("adj_x", False)), bool(ctx.op.options.get("adj_y", False))
    rows, depth = (ls[-1], ls[-2]) if adj_x else (ls[-2], ls[-1])
    rhs_depth, cols = (rs[-1], rs[-2]) if adj_y else (rs[-2], rs[-1])
    ctx.expect(depth == rhs_depth, f"lhs {list(lhs.shape)} and rhs {list(rhs.shape)} do not multiply "
                                   f"(adj_x {adj_x}, adj_y {adj_y})", rhs.index)
    batch = []
    for d in range(rank - 2):
        ctx.expect(ls[d] == rs[d] or 1 in (ls[d], rs[d]),
                   f"batch dimensions of {list(lhs.shape)} and {list(rhs.shape)} do not broadcast", rhs.index)
        batch.append(max(ls[d], rs[d]))
    expected = batch + [rows, cols]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)

    lst, rst = contiguous_strides(ls), contiguous_strides(rs)
    offsets = []
    for index in itertools.product(*(range(n) for n in batch)):
        offsets.append(sum(i * lst[d] for d, i in enumerate(index) if ls[d] != 1))
        offsets.append(sum(i * rst[d] for d, i in enumerate(index) if rs[d] != 1))
    return offsets, {
        "batches": len(offsets) // 2,
        "rows": rows,
        "cols": cols,
        "depth": depth,
        "lhs_row_stride": 1 if adj_x else depth,
        "lhs_depth_stride": rows if adj_x else 1,
        "rhs_depth_stride": 1 if adj_y else cols,
        "rhs_col_stride": depth if adj_y else 1,
    }


OPS = {"BATCH_MATMUL": lower_batch_matmul}
