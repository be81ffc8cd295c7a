"""L2_NORMALIZATION and LOG_SOFTMAX over the last axis, float32 (kernels/tinyaot_row_norm_f32.h);
TFLM's int8 forms of both are not here yet."""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.math_f32 import unary_float32


def _lower(ctx, log_softmax):
    inp, out = unary_float32(ctx)
    ctx.expect(len(inp.shape) >= 1, "a scalar input is not supported", inp.index)
    if not log_softmax:  # TFLM reads no fused activation but refuses one (l2norm.cc)
        ctx.expect(ctx.op.options.get("fused_activation_function", 0) == 0,
                   "a fused activation is not supported (TFLM takes none)")
    params = ParamStruct("struct tinyaot_row_norm_f32_params", {
        "rows": int(np.prod(inp.shape[:-1], dtype=np.int64)), "depth": inp.shape[-1],
        "log_softmax": int(log_softmax)})
    return [KernelCall("tinyaot_row_norm_f32", [params, TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"L2_NORMALIZATION": lambda ctx: _lower(ctx, log_softmax=False),
       "LOG_SOFTMAX": lambda ctx: _lower(ctx, log_softmax=True)}
