"""Element-wise float32 math (EXP, RSQRT, SIN, COS, LOG, SQRT, SQUARE, ABS, NEG, FLOOR,
CEIL, ROUND): TFLM's reference kernels value by value with the same C library calls
(kernels/tinyaot_math_f32.h). TFLM takes float32 only for all but ABS and RSQRT, whose
int8 (and int16 ABS) forms are not here."""

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


KINDS = ("EXP", "RSQRT", "SIN", "COS", "LOG", "SQRT", "SQUARE", "ABS", "NEG", "FLOOR", "CEIL", "ROUND")

OPS = {op_type: (lambda ctx, kind=f"TINYAOT_MATH_{op_type}": _lower(ctx, kind)) for op_type in KINDS}
