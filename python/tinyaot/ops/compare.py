"""EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS and LESS_EQUAL (kernels/tinyaot_compare.h),
with TFLite's broadcasting and a bool output, in the dtypes TFLM's comparisons.cc takes that
tensors here can hold: float32, int32, int64 and int8 for all six, bool for EQUAL and NOT_EQUAL,
int16 for GREATER.

int8 values are compared after TFLM's rescaling (ComparisonsPrepare): each input's own
scale as a multiplier below one (QuantizeMultiplierSmallerThanOneExp, which aborts on a
scale of 1 or more: refused here). TFLM's int16 GREATER runs the same rescaled comparison but
with parameters its Prepare fills for int8 only (its result is undefined: whatever its buffer
held); int16 gets the parameters Prepare computes for int8, what
TFLM gives once Prepare fills them for int16 too (tensorflow/tflite-micro pull request 3391)."""

import numpy as np

from tinyaot.ir import DTYPES
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.elementwise import broadcast_table, checked_broadcast
from tinyaot.quant import quantize_multiplier

ORDERED = ("float32", "int32", "int64", "int8")
KINDS = {"EQUAL": ORDERED + ("bool",), "NOT_EQUAL": ORDERED + ("bool",), "GREATER": ORDERED + ("int16",),
         "GREATER_EQUAL": ORDERED, "LESS": ORDERED, "LESS_EQUAL": ORDERED}


def binary_bool_walk(ctx, dtypes):
    """(a, b, out, [dims, strides_a, strides_b] as ParamArrays) of a two-input operator with
    broadcasting whose output is bool."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs, has {len(ctx.op.inputs)}")
    a, b, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(a, *dtypes)
    ctx.expect(b.dtype == a.dtype, f"dtype {b.dtype} differs from input 0's {a.dtype}", b.index)
    ctx.expect_dtype(out, "bool")
    shape = checked_broadcast(ctx, a, b, out)
    dims, sa, sb = broadcast_table(a.shape, b.shape, shape)
    return a, b, out, [ParamArray("int32_t", np.array(d, np.int32)) for d in (dims, sa, sb)]


def _scaling(ctx, t):
    """(offset, multiplier, shift) of an int8 (or int16) input, as ComparisonsPrepare sets them for int8."""
    ctx.expect_quantized(t)
    ctx.expect(float(t.scale) < 1.0, f"scale {t.scale!s} is 1 or more (TFLM's comparison takes scales below 1)",
               t.index)
    return -t.zero_point, *quantize_multiplier(float(t.scale))


def _lower(ctx, op_type):
    a, b, out, walk = binary_bool_walk(ctx, KINDS[op_type])
    scaling = [_scaling(ctx, t) if a.dtype in ("int8", "int16") else (0, 0, 0) for t in (a, b)]
    params = ParamStruct("struct tinyaot_compare_params", {
        "size": out.num_elements, "rank": len(walk[0].values), "dtype": DTYPES[a.dtype][2],
        "op": f"TINYAOT_COMPARE_{op_type}",
        **{f"input{k + 1}_{name}": value for k, s in enumerate(scaling)
           for name, value in zip(("offset", "multiplier", "shift"), s)}})
    return [KernelCall("tinyaot_compare", [params, *walk, TensorRef(a.index), TensorRef(b.index),
                                           TensorRef(out.index)])]


OPS = {op_type: (lambda ctx, op_type=op_type: _lower(ctx, op_type)) for op_type in KINDS}
