"""16x8 lowerings (int16 activations, int8 weights) of CONV_2D,
DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV: TFLM's reference integer
kernels for int16, bit for bit (kernels tinyaot_*_s16.h).

TFLM's int16 convolutions add no input or output offset, so activations must
be symmetric (zero point 0); weights are symmetric int8. The bias is int64
(TFLM's usual 16x8 form: an int64 sum and the 64-bit rescale) or, where TFLM
takes it, int32 (an int32 sum and the 32-bit rescale). The int8 modules
dispatch here on the input's dtype and keep the shape checks.
"""

import numpy as np

from tinyaot.ops import overlap
from tinyaot.ops.depthwise_dsp import MAX_CHANNELS as PAIR_MAX_CH  # TINYAOT_PAIR_MAX_CH
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, ScratchRef, TensorRef, optional_ref, window_fields
from tinyaot.quant import per_channel_multipliers

BIAS_MODES = {"int64": "TINYAOT_S16_BIAS64", "int32": "TINYAOT_S16_BIAS32"}
TENSOR_TYPE_INT32 = 2  # TensorType.INT32, as an options table's quantized_bias_type


def expect_symmetric_int16(ctx, *tensors, why="TFLM's 16x8 kernels add no offset"):
    for t in tensors:
        ctx.expect_dtype(t, "int16")
        ctx.expect_quantized(t)
        ctx.expect(t.zero_point == 0, f"int16 zero point must be 0, not {t.zero_point} ({why})", t.index)


def _weights_and_bias(ctx, weights, bias, channels, bias_dtypes):
    """Checks weights (symmetric int8) and bias; returns (mode, sum32) as tinyaot_s16.h defines them."""
    ctx.expect_dtype(weights, "int8")
    ctx.expect_constant(weights)
    ctx.expect_quantized(weights, per_channel_ok=True)
    ctx.expect(not weights.quant.zero_point.any(), "16x8 weights must have zero point 0", weights.index)
    if bias is None:
        # TFLM picks the sum's width from the options' quantized_bias_type then.
        int32 = ctx.op.options.get("quantized_bias_type", 0) == TENSOR_TYPE_INT32 and "int32" in bias_dtypes
        dtype = "int32" if int32 else "int64"
    else:
        ctx.expect_dtype(bias, *bias_dtypes)
        ctx.expect_constant(bias)
        ctx.expect(bias.num_elements == channels, f"bias has {bias.num_elements} values, expected {channels}",
                   bias.index)
        dtype = bias.dtype
    if dtype == "int32":
        return BIAS_MODES[dtype], 1  # TFLM's int32 sum, wrapping
    # The int64 sum stays in int32 when every channel's products do.
    products = _product_bounds(ctx, weights)
    if bias is not None:
        expect_rescale_defined(ctx, weights, bias)
    return BIAS_MODES["int64"], int(max(products) <= 2**31 - 1)  # int16 (TRANSPOSE_CONV): widened to int64


def expect_rescale_defined(ctx, weights, bias):
    """TFLM's 64-bit rescale assumes |sum + bias| < 2^47; beyond 2^48 its product overflows."""
    products = _product_bounds(ctx, weights)
    worst = max(abs(int(b)) + int(products[c]) for c, b in enumerate(np.asarray(bias.data).reshape(-1)))
    ctx.expect(worst < 2**47, f"int64 bias and products reach {worst}, beyond the +-2^47 that TFLM's 64-bit "
               "rescale (MultiplyByQuantizedMultiplier) is defined for", bias.index)


def _product_bounds(ctx, weights):
    """Per output channel, the largest |sum of products| any int16 input reaches: |w| summed x 32768."""
    w = np.abs(np.moveaxis(np.asarray(weights.data, np.int64), 0 if ctx.op.type != "DEPTHWISE_CONV_2D" else 3, 0))
    return w.reshape(w.shape[0], -1).sum(axis=1) * 32768


def _folded_tables(ctx, inp, weights, bias, out, channels):
    """[int32 bias, Q15 multipliers, total shifts] for TINYAOT_S16_FOLDED (tinyaot_s16.h), or None
    where sum + bias may leave int32 or TFLM's rescale would shift by less than one bit."""
    b = np.zeros(channels, np.int64) if bias is None else np.asarray(bias.data, np.int64).reshape(-1)
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    multipliers, shifts = np.resize(multipliers, channels).astype(np.int64), np.resize(shifts, channels)
    # TFLM's MultiplyByQuantizedMultiplier(int64_t, ...): the multiplier rounded to Q15.
    reduced = np.where(multipliers < 0x7FFF0000, (multipliers + (1 << 15)) >> 16, 0x7FFF)
    total_shifts = 15 - shifts
    if np.any(np.abs(b) + _product_bounds(ctx, weights) > 2**31 - 1) or np.any(total_shifts < 1):
        return None
    return [ParamArray("int32_t", b.astype(np.int32)) if bias is not None else "NULL",
            ParamArray("int32_t", reduced.astype(np.int32)), ParamArray("int32_t", total_shifts.astype(np.int32))]


def _folded_mode(folded):
    """TINYAOT_S16_FOLDED_MID where every total shift is 16..32 (the usual scales: the rescale in
    32-bit arithmetic), else TINYAOT_S16_FOLDED."""
    shifts = folded[2].values
    return "TINYAOT_S16_FOLDED_MID" if np.all((shifts >= 16) & (shifts <= 32)) else "TINYAOT_S16_FOLDED"


def _layer_args(ctx, inp, weights, bias, out, channels, mode, sum32, mid=True):
    """(mode, [multipliers, shifts, input, weights, bias]) of a convolution or fully connected call:
    TINYAOT_S16_FOLDED's tables (FOLDED_MID's where the kernel takes it: mid) where they apply,
    else TFLM's multipliers and the bias tensor."""
    folded = _folded_tables(ctx, inp, weights, bias, out, channels) if mode == BIAS_MODES["int64"] and sum32 else None
    if folded:
        return (_folded_mode(folded) if mid else "TINYAOT_S16_FOLDED",
                [folded[1], folded[2], TensorRef(inp.index), TensorRef(weights.index), folded[0]])
    return mode, [*_tables(ctx, inp, weights, out, channels), TensorRef(inp.index), TensorRef(weights.index),
                  optional_ref(bias)]


def _tables(ctx, inp, weights, out, channels):
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    return [ParamArray("int32_t", np.resize(multipliers, channels)), ParamArray("int32_t", np.resize(shifts, channels))]


def conv(ctx, inp, weights, bias, out, geometry, groups):
    mode, sum32 = _weights_and_bias(ctx, weights, bias, out.shape[3], ("int64", "int32"))
    act_min, act_max = ctx.activation(out)
    params = ParamStruct("struct tinyaot_conv2d_s16_params", {
        **window_fields(inp, geometry),
        "filter_ch": weights.shape[3],
        "filters_per_group": out.shape[3] // groups,
        "output_h": geometry["output_h"], "output_w": geometry["output_w"], "output_ch": out.shape[3],
        "act_min": act_min, "act_max": act_max, "mode": mode, "sum32": sum32, "rows": 0, "block": "NULL",
    })
    params.fields["mode"], tables = _layer_args(ctx, inp, weights, bias, out, out.shape[3], mode, sum32)
    instances = []
    # Four filters a step where the sums are 32-bit and a window row is contiguous (flash: optimising
    # for speed); two pixels too, in a loop specialised to the window row, where their outputs fit the
    # kernel's buffer.
    rows = (ctx.optimize == "speed" and groups == 1 and (sum32 or mode == BIAS_MODES["int32"])
            and geometry["dilation_w"] == 1 and out.shape[3] >= 4)
    params.fields["rows"] = int(rows)
    if rows and out.shape[3] <= PAIR_MAX_CH and geometry["output_w"] >= 2:
        shape = (geometry["filter_w"] * inp.shape[3], geometry["stride_w"] * inp.shape[3], weights.data[0].size)
        params.fields["block"] = "TINYAOT_CONV2D_S16_BLOCK({}, {}, {})".format(*shape)
        instances = ["TINYAOT_CONV2D_S16_BLOCK_OF({}, {}, {})".format(*shape)]
    # Four filters at a time read a pixel's window again after writing some of its outputs.
    overlaps = (overlap.convolution(inp, out, geometry) if rows
                else overlap.convolution_per_filter(inp, out, geometry, groups))
    return [KernelCall("tinyaot_conv2d_s16", [params, *tables, TensorRef(out.index)], overlaps=overlaps,
                       instances=instances)]


def depthwise(ctx, inp, weights, bias, out, geometry, multiplier):
    # TFLM's int16 depthwise kernel reads the bias as int64 whatever its type.
    mode, sum32 = _weights_and_bias(ctx, weights, bias, out.shape[3], ("int64",))
    act_min, act_max = ctx.activation(out)
    params = ParamStruct("struct tinyaot_depthwise_conv2d_s16_params", {
        **window_fields(inp, geometry),
        "depth_multiplier": multiplier,
        "output_h": geometry["output_h"], "output_w": geometry["output_w"],
        "act_min": act_min, "act_max": act_max, "mode": mode, "sum32": sum32,
    })
    params.fields["mode"], tables = _layer_args(ctx, inp, weights, bias, out, out.shape[3], mode, sum32)
    return [KernelCall("tinyaot_depthwise_conv2d_s16", [params, *tables, TensorRef(out.index)],
                       overlaps=overlap.depthwise(inp, out, geometry, multiplier))]


def fully_connected(ctx, inp, weights, bias, out, batches, output_depth, accum_depth):
    mode, sum32 = _weights_and_bias(ctx, weights, bias, output_depth, ("int64", "int32"))
    act_min, act_max = ctx.activation(out)
    params = ParamStruct("struct tinyaot_fully_connected_s16_params", {
        "batches": batches, "accum_depth": accum_depth, "output_depth": output_depth,
        "act_min": act_min, "act_max": act_max, "mode": mode, "sum32": sum32,
    })
    # FOLDED_MID's test beside the four sums took registers they need on Armv6-M (256 -> 128:
    # 6.19 -> 6.80 instructions per MAC): the fully connected kernel keeps FOLDED.
    params.fields["mode"], tables = _layer_args(ctx, inp, weights, bias, out, output_depth, mode, sum32,
                                                mid=False)
    return [KernelCall("tinyaot_fully_connected_s16", [params, *tables, TensorRef(out.index)])]


def transpose_conv(ctx, inp, weights, bias, out, geometry):
    """TFLM's int16 TRANSPOSE_CONV reads an int64 bias, or widens an int16 one at Eval (here: once,
    into a constant table); it sums in int64 into a scratch copy of the output, which the gathering
    kernel does not need: it lists the taps reaching one output value in a scratch of its own."""
    _, sum32 = _weights_and_bias(ctx, weights, bias, out.shape[3], ("int64", "int16"))
    act_min, act_max = ctx.activation(out)
    params = ParamStruct("struct tinyaot_transpose_conv_params", {
        **geometry, "input_offset": 0, "output_offset": 0, "act_min": act_min, "act_max": act_max, "per_channel": 1})
    folded = _folded_tables(ctx, inp, weights, bias, out, out.shape[3]) if sum32 else None
    if folded:
        mode, (bias_arg, *tables) = _folded_mode(folded), folded
    else:
        mode, tables = BIAS_MODES["int64"], _tables(ctx, inp, weights, out, out.shape[3])
        if bias is not None and bias.dtype == "int16":
            bias_arg = ParamArray("int64_t", np.asarray(bias.data, np.int64))
        else:
            bias_arg = optional_ref(bias)
    # The tap list's scratch: two int32 for each tap that can reach one output value.
    taps = -(-geometry["filter_h"] // geometry["stride_h"]) * -(-geometry["filter_w"] // geometry["stride_w"])
    return [KernelCall("tinyaot_transpose_conv_s16", [params, sum32, mode, *tables, ScratchRef(0, "int32_t"),
                                                      TensorRef(inp.index), TensorRef(weights.index), bias_arg,
                                                      TensorRef(out.index)], scratch=[8 * taps])]
