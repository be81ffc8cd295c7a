"""Element-wise float32 math (EXP, SIN, COS, LOG, SQRT, SQUARE, NEG, FLOOR, CEIL, ROUND):
TFLM's reference kernels value by value with the same C library calls
(kernels/tinyaot_math_f32.h). TFLM takes float32 only for these (ABS, ELU and RSQRT, which
have integer forms: lookup.py)."""

from tinyaot.ops.activation import _expect_same_shape
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef


def unary(ctx, dtype):
    """(input, output) of an operator of one input of `dtype` and an output of its dtype and shape."""
    ctx.expect(len(ctx.op.inputs) == 1, f"expects 1 input, has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, dtype)
    ctx.expect_dtype(out, dtype)
    _expect_same_shape(ctx, inp, out)
    return inp, out


def unary_float32(ctx):
    return unary(ctx, "float32")


def _lower(ctx, kind):
    inp, out = unary_float32(ctx)
    params = ParamStruct("struct tinyaot_math_f32_params", {"size": inp.num_elements, "kind": kind})
    return [KernelCall("tinyaot_math_f32", [params, TensorRef(inp.index), TensorRef(out.index)])]


KINDS = ("EXP", "SIN", "COS", "LOG", "SQRT", "SQUARE", "NEG", "FLOOR", "CEIL", "ROUND")  # ABS, ELU, RSQRT: lookup.py

OPS = {op_type: (lambda ctx, kind=f"TINYAOT_MATH_{op_type}": _lower(ctx, kind)) for op_type in KINDS}
