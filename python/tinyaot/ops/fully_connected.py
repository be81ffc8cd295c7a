"""FULLY_CONNECTED: int8 activations and weights with int32 bias; 16x8 (int16
activations, ops/s16.py); or float32."""

import numpy as np

from tinyaot.ops import s16
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef, optional_ref
from tinyaot.quant import float_activation_range
from tinyaot.quant import fold_input_offset, per_channel_multipliers


def _geometry(ctx, inp, weights, out):
    """(batches, output depth, accum depth) of 2-D weights, checked against input and output."""
    ctx.expect(len(weights.shape) == 2, f"weights must be 2-D, not {list(weights.shape)}", weights.index)
    output_depth, accum_depth = weights.shape
    ctx.expect(inp.num_elements % accum_depth == 0,
               f"{inp.num_elements} input values do not split into rows of {accum_depth}", inp.index)
    batches = inp.num_elements // accum_depth
    # TFLM takes the batch count from the output's leading dimensions and its depth from the last.
    ctx.expect(len(out.shape) >= 1 and out.shape[-1] == output_depth,
               f"output shape {list(out.shape)} must end in the {output_depth} output channels", out.index)
    ctx.expect(out.num_elements == batches * output_depth,
               f"output has {out.num_elements} values, expected {batches} x {output_depth}", out.index)
    return batches, output_depth, accum_depth


def lower_f32(ctx):
    """float32: TFLM's float reference FullyConnected (kernels/tinyaot_fully_connected_f32.h)."""
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    for t in (inp, weights, out):
        ctx.expect_dtype(t, "float32")
    ctx.expect_constant(weights)
    ctx.expect(ctx.op.options.get("weights_format", 0) == 0, "shuffled weights format is not supported")
    batches, output_depth, accum_depth = _geometry(ctx, inp, weights, out)
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
        optional_ref(bias), TensorRef(out.index)])]


def lower_s16(ctx):
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    s16.expect_symmetric_int16(ctx, inp, out)
    ctx.expect(ctx.op.options.get("weights_format", 0) == 0, "shuffled weights format is not supported")
    ctx.expect(len(weights.shape) == 2, f"weights must be 2-D, not {list(weights.shape)}", weights.index)
    return s16.fully_connected(ctx, inp, weights, bias, out, *_geometry(ctx, inp, weights, out))


def lower(ctx):
    ctx.expect_dtype(ctx.input(0), "int8", "int16", "float32")
    if ctx.input(0).dtype == "float32":
        return lower_f32(ctx)
    if ctx.input(0).dtype == "int16":
        return lower_s16(ctx)
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    for t in (inp, weights, out):
        ctx.expect_dtype(t, "int8")
    ctx.expect_quantized(inp)
    ctx.expect_quantized(out)
    ctx.expect_quantized(weights, per_channel_ok=True)
    ctx.expect_constant(weights)
    ctx.expect(ctx.op.options.get("weights_format", 0) == 0, "shuffled weights format is not supported")
    batches, output_depth, accum_depth = _geometry(ctx, inp, weights, out)
    if bias is not None:
        ctx.expect_dtype(bias, "int32")
        ctx.expect_constant(bias)
        ctx.expect(bias.num_elements == output_depth, f"bias must have {output_depth} values", bias.index)
    ctx.expect(not np.any(weights.quant.zero_point != weights.quant.zero_point[0]),
               "per-channel weight zero points must all be equal", weights.index)

    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    act_min, act_max = ctx.activation(out)
    params = ParamStruct("struct tinyaot_fully_connected_params", {
        "batches": batches,
        "accum_depth": accum_depth,
        "output_depth": output_depth,
        "input_offset": -inp.zero_point,
        "filter_offset": -weights.zero_point,
        "output_offset": out.zero_point,
        "act_min": act_min,
        "act_max": act_max,
        "per_channel": int(weights.quant.per_channel),
        "rows4": "NULL",
    })
    folded_bias = fold_input_offset(None if bias is None else bias.data, weights.data, -inp.zero_point,
                                    channel_axis=0, filter_offset=-weights.zero_point)
    # Cores with the DSP extension: SMLAD, four outputs at a time, on weights re-laid out for it;
    # Helium (MVE) cores: VMLADAVA, four outputs at a time, on the model's weights.
    dsp = ctx.arch == "dsp"
    # Cores without either: four rows at a time in a loop specialised to the depth (flash:
    # optimising for speed).
    rows4 = ctx.arch == "scalar" and output_depth >= 4 and ctx.optimize == "speed"
    if rows4:
        params.fields["rows4"] = f"TINYAOT_FULLY_CONNECTED_ROWS4({accum_depth})"
    weights_arg = ParamArray("int8_t", dsp_row_blocks(weights.data), True) if dsp else TensorRef(weights.index)
    kernel = {"dsp": "tinyaot_fully_connected_s8_dsp", "mve": "tinyaot_fully_connected_s8_mve"}.get(
        ctx.arch, "tinyaot_fully_connected_s8")
    return [KernelCall(kernel, [
        params, ParamArray("int32_t", multipliers), ParamArray("int32_t", shifts), TensorRef(inp.index), weights_arg,
        ParamArray("int32_t", folded_bias) if np.any(folded_bias) else "NULL", TensorRef(out.index),
    ], instances=[f"TINYAOT_FULLY_CONNECTED_ROWS4_DEPTH({accum_depth})"] if rows4 else [])]


def dsp_row_blocks(weights):
    """[output_depth][accum_depth] weights in tinyaot_fully_connected_s8_dsp's order: each block
    of four rows as [group of four input values][row][4], then its depth % 4 values after the
    groups row by row; the rows after the blocks as plain rows."""
    w = np.asarray(weights, np.int8).reshape(weights.shape[0], -1)
    rows, depth = w.shape
    whole = depth - depth % 4
    parts = []
    for b in range(0, rows - rows % 4, 4):
        block = w[b:b + 4]
        parts += [block[:, :whole].reshape(4, whole // 4, 4).transpose(1, 0, 2).reshape(-1),
                  block[:, whole:].reshape(-1)]
    parts.append(w[rows - rows % 4:].reshape(-1))
    return np.concatenate(parts)


OPS = {"FULLY_CONNECTED": lower}
