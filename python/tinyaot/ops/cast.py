"""CAST between the dtypes TFLM's cast.cc takes: from int8, int16, int32, uint32, float32 or
bool to int8, int16, int32, uint32 or float32 (TFLM casts to no bool, and neither from nor to
int64). Values convert as C converts them (kernels/tinyaot_cast.h); quantization is ignored,
as TFLM ignores it."""

from tinyaot.ir import DTYPES
from tinyaot.ops.activation import _expect_same_shape
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef


def lower_cast(ctx):
    ctx.expect(len(ctx.op.inputs) == 1, f"expects 1 input, has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, "int8", "int16", "int32", "uint32", "float32", "bool")
    ctx.expect_dtype(out, "int8", "int16", "int32", "uint32", "float32")
    _expect_same_shape(ctx, inp, out)
    params = ParamStruct("struct tinyaot_cast_params", {
        "size": inp.num_elements, "input_dtype": DTYPES[inp.dtype][2], "output_dtype": DTYPES[out.dtype][2]})
    return [KernelCall("tinyaot_cast", [params, TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"CAST": lower_cast}
