"""float32 lowerings of layers whose int8 lowering lives in its own module
(kept apart so the int8 code and its backends stay as they are): the int8
lowering hands a float32 operator to the function here."""

from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.quant import float_activation_range


def lower_fully_connected_f32(ctx):
    """TFLM's float reference FullyConnected: weights [output depth, accum depth]."""
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    for t in (inp, weights, out):
        ctx.expect_dtype(t, "float32")
    ctx.expect_constant(weights)
    ctx.expect(ctx.op.options.get("weights_format", 0) == 0, "shuffled weights format is not supported")
    ctx.expect(len(weights.shape) == 2, f"weights must be 2-D, not {list(weights.shape)}", weights.index)
    output_depth, accum_depth = weights.shape
    ctx.expect(accum_depth >= 1 and inp.num_elements % accum_depth == 0,
               f"{inp.num_elements} input values do not split into rows of {accum_depth}", inp.index)
    batches = inp.num_elements // accum_depth
    ctx.expect(len(out.shape) >= 1 and out.shape[-1] == output_depth,
               f"output shape {list(out.shape)} must end in the {output_depth} output channels", out.index)
    ctx.expect(out.num_elements == batches * output_depth,
               f"output has {out.num_elements} values, expected {batches} x {output_depth}", out.index)
    if bias is not None:
        ctx.expect_dtype(bias, "float32")
        ctx.expect(bias.num_elements == output_depth, f"bias must have {output_depth} values", bias.index)
    act_min, act_max = float_activation_range(ctx.op.options.get("fused_activation_function", 0),
                                              lambda message: ctx.error(message))
    params = ParamStruct("struct tinyaot_fully_connected_f32_params", {
        "batches": batches, "accum_depth": accum_depth, "output_depth": output_depth,
        "act_min": act_min, "act_max": act_max})
    return [KernelCall("tinyaot_fully_connected_f32", [
        params, TensorRef(inp.index), TensorRef(weights.index),
        TensorRef(bias.index) if bias is not None else "NULL", TensorRef(out.index)])]
