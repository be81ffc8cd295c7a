"""EXP and RSQRT, float32 only: TFLM's reference kernels (exp.cc, elementwise.cc)
value by value with the C library's expf and sqrtf (kernels/tinyaot_math_f32.h).
TFLM has no int8 EXP; its int8 and int16 RSQRT are not here."""

from tinyaot.ops.activation import _expect_same_shape
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef


def _lower(ctx, kind):
    ctx.expect(len(ctx.op.inputs) == 1, f"expects 1 input, has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "float32")
    ctx.expect_dtype(out, "float32")
    _expect_same_shape(ctx, inp, out)
    params = ParamStruct("struct tinyaot_math_f32_params", {"size": inp.num_elements, "kind": kind})
    return [KernelCall("tinyaot_math_f32", [params, TensorRef(inp.index), TensorRef(out.index)])]


def lower_exp(ctx):
    return _lower(ctx, "TINYAOT_MATH_EXP")


def lower_rsqrt(ctx):
    return _lower(ctx, "TINYAOT_MATH_RSQRT")


OPS = {"EXP": lower_exp, "RSQRT": lower_rsqrt}
