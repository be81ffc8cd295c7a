"""MAXIMUM and MINIMUM: int8, int16, int32, int64 and float32, with TFLite's broadcasting.

TFLM compares the stored values and ignores quantization, which is only right
when both inputs and the output share one scale and zero point (the TFLite
converter makes them so); a model where they differ is refused rather than
computed wrongly.
"""

import numpy as np

from tinyaot.ir import DTYPES
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.elementwise import broadcast_table, checked_broadcast

SUPPORTED = ("int8", "int16", "int32", "int64", "float32")


def _lower(ctx, maximum):
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs, has {len(ctx.op.inputs)}")
    a, b, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(out, *SUPPORTED)
    for t in (a, b):
        ctx.expect(t.dtype == out.dtype, f"dtype {t.dtype} differs from the output's {out.dtype}", t.index)
    if out.dtype in ("int8", "int16"):
        for k, t in enumerate((a, b)):
            ctx.expect_same_quantization(t, out, f"input {k}", "TFLM would compare the stored values as they are")
    shape = checked_broadcast(ctx, a, b, out)
    dims, sa, sb = broadcast_table(a.shape, b.shape, shape)
    params = ParamStruct("struct tinyaot_maximum_minimum_params", {
        "size": out.num_elements,
        "rank": len(dims),
        "dtype": DTYPES[out.dtype][2],
        "maximum": int(maximum),
    })
    walk = [ParamArray("int32_t", np.array(d, np.int32)) for d in (dims, sa, sb)]
    return [KernelCall("tinyaot_maximum_minimum",
                       [params, *walk, TensorRef(a.index), TensorRef(b.index), TensorRef(out.index)])]


def lower_maximum(ctx):
    return _lower(ctx, maximum=True)


def lower_minimum(ctx):
    return _lower(ctx, maximum=False)


OPS = {"MAXIMUM": lower_maximum, "MINIMUM": lower_minimum}
