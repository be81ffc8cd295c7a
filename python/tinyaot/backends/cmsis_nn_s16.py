"""The CMSIS-NN backend's 16x8 lowerings (int16 activations, int8 weights): CONV_2D
on arm_convolve_s16, which TFLM's CMSIS-NN glue reaches through
arm_convolve_wrapper_s16 (v7's wrapper calls it for every shape),
FULLY_CONNECTED on arm_fully_connected_s16 (per-tensor weights, an int64 bias
or none: what TFLM's glue accepts; no scratch), DEPTHWISE_CONV_2D on
arm_depthwise_conv_s16 on DSP cores (TFLM's glue calls it directly, not the
wrapper: no scratch, an int64 sum; without DSP tinyaot's kernel is the faster,
DEPTHWISE_ON_SCALAR) and SOFTMAX on arm_softmax_s16 with TFLM's two tables.
ADD, MUL and pooling (arm_elementwise_add_s16, _mul_s16, arm_avgpool_s16,
arm_max_pool_s16) share the int8 lowerings of cmsis_nn.py;
elementwise_unsupported() says where they cannot.

CMSIS-NN is bit-exact with TFLM's reference kernels only where its arithmetic's
shortcuts cannot show: with an int64 bias (or none) it adds the first 512
products of each output in int32 and truncates the 64-bit rescale to int32 one
bit before rounding. The lowering takes a layer only where the constant weights,
bias and multipliers prove neither matters; elsewhere the portable kernel stays,
saying why.
"""

import numpy as np

from tinyaot.backends import cmsis_nn_overlap
from tinyaot.backends.cmsis_nn_call import HEADER, call, conv_too_wide
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef, optional_ref
from tinyaot.quant import per_channel_multipliers

OPERATORS = ("CONV_2D", "FULLY_CONNECTED", "DEPTHWISE_CONV_2D", "SOFTMAX")
# The 16x8 operators cmsis_nn.py lowers as their int8 forms, on the _s16 kernels.
SHARED_WITH_INT8 = ("ADD", "MUL", "AVERAGE_POOL_2D", "MAX_POOL_2D")
ON_MVE = "16x8 on Helium: CMSIS-NN's MVE kernels are not checked against TFLM here"
# On cores without DSP arm_depthwise_conv_s16 (its 64-bit sum and window bounds at every tap) is
# several times slower than tinyaot's kernel: `tinyaot profile` on qemu_cortex_m3, instructions a
# multiply-accumulate. DSP cores keep CMSIS-NN's (the host tests' path to it).
DEPTHWISE_ON_SCALAR = ("tinyaot_depthwise_conv2d_s16 is faster than arm_depthwise_conv_s16 on a core without DSP "
                       "(instructions a multiply-accumulate on a Cortex-M3: ds_cnn_kws_16x8's 3x3 over 64 channels "
                       "9.4 against 35.4, cmsis_nn_s16_kinds_16x8's two 11.1 and 12.4 against 35.3 and 42.3)")


def lower(ctx, arch, portable_calls):
    """(calls, None), or (portable_calls, why they stay)."""
    if arch == "mve":
        return portable_calls, ON_MVE
    if ctx.op.type == "FULLY_CONNECTED":
        return _lower_fully_connected(ctx, portable_calls)
    if ctx.op.type == "SOFTMAX":
        return _lower_softmax(ctx, portable_calls)
    if conv_too_wide(ctx):
        return portable_calls, conv_too_wide(ctx)
    if ctx.op.type == "DEPTHWISE_CONV_2D":
        if arch == "scalar":
            return portable_calls, DEPTHWISE_ON_SCALAR
        return _lower_depthwise(ctx, portable_calls)
    (portable,) = portable_calls
    f = portable.args[0].fields
    if f["filters_per_group"] != f["output_ch"]:
        return portable_calls, "grouped 16x8 convolution: arm_convolve_s16 takes one group"
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    multipliers, shifts = np.resize(multipliers, out.shape[3]), np.resize(shifts, out.shape[3])
    int32_bias = f["mode"] == "TINYAOT_S16_BIAS32"
    if not int32_bias:
        why = _int64_shortcuts_show(_weight_sums(weights, 0), bias, multipliers, shifts, f["sum32"])
        if why:
            return portable_calls, why
    params = ParamStruct("struct tinyaot_cmsis_conv_params", {
        "input_n": f["batches"], "input_h": f["input_h"], "input_w": f["input_w"], "input_c": f["input_ch"],
        "filter_h": f["filter_h"], "filter_w": f["filter_w"],
        "output_h": f["output_h"], "output_w": f["output_w"], "output_c": f["output_ch"],
        **{k: f[k] for k in ("stride_h", "stride_w", "pad_h", "pad_w", "dilation_h", "dilation_w")},
        "input_offset": 0, "output_offset": 0, "act_min": f["act_min"], "act_max": f["act_max"], "ch_mult": 1,
    })
    # arm_convolve_s16_get_buffer_size off MVE: two im2col columns of int16.
    scratch = 2 * f["input_ch"] * f["filter_w"] * f["filter_h"] * 2
    tables = [ParamArray("int32_t", multipliers), ParamArray("int32_t", shifts)]
    tensors = [TensorRef(inp.index), TensorRef(weights.index), optional_ref(bias), TensorRef(out.index)]
    # The im2col pixel pairs of arm_convolve_s8: the same read and write order.
    overlaps = cmsis_nn_overlap.convolution("arm_convolve_s16", inp, out, params.fields)
    return call("tinyaot_cmsis_conv_s16", params, tables, tensors, scratch, [int(int32_bias)],
                         overlaps), None


def _lower_fully_connected(ctx, portable_calls):
    (portable,) = portable_calls
    f = portable.args[0].fields
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    if weights.quant.per_channel:
        return portable_calls, "per-channel 16x8 weights: arm_fully_connected_s16 takes one multiplier"
    if f["mode"] == "TINYAOT_S16_BIAS32":
        return portable_calls, "int32 bias: arm_fully_connected_s16 reads an int64 one"
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    why = _int64_shortcuts_show(_weight_sums(weights, 0), bias, np.resize(multipliers, f["output_depth"]),
                                np.resize(shifts, f["output_depth"]), f["sum32"])
    if why:
        return portable_calls, why
    params = ParamStruct("struct tinyaot_cmsis_fc_params", {
        "batches": f["batches"], "accum_depth": f["accum_depth"], "output_depth": f["output_depth"],
        "input_offset": 0, "filter_offset": 0, "output_offset": 0, "act_min": f["act_min"], "act_max": f["act_max"],
        "per_channel": 0,
    })
    return [KernelCall("tinyaot_cmsis_fully_connected_s16", [
        params, int(multipliers[0]), int(shifts[0]), TensorRef(inp.index), TensorRef(weights.index),
        optional_ref(bias), TensorRef(out.index)], header=HEADER)], None


def _lower_depthwise(ctx, portable_calls):
    (portable,) = portable_calls
    f = portable.args[0].fields
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    multipliers, shifts = np.resize(multipliers, out.shape[3]), np.resize(shifts, out.shape[3])
    # arm_depthwise_conv_s16 sums in int64 (no int32 partial sums): only the rescale's shortcut can show.
    why = _requantize_shortcut_shows(_weight_sums(weights, 3), bias, multipliers, shifts)
    if why:
        return portable_calls, why
    params = ParamStruct("struct tinyaot_cmsis_conv_params", {
        "input_n": f["batches"], "input_h": f["input_h"], "input_w": f["input_w"], "input_c": f["input_ch"],
        "filter_h": f["filter_h"], "filter_w": f["filter_w"],
        "output_h": f["output_h"], "output_w": f["output_w"], "output_c": out.shape[3],
        **{k: f[k] for k in ("stride_h", "stride_w", "pad_h", "pad_w", "dilation_h", "dilation_w")},
        "input_offset": 0, "output_offset": 0, "act_min": f["act_min"], "act_max": f["act_max"],
        "ch_mult": f["depth_multiplier"],
    })
    kernel = "arm_depthwise_conv_s16"
    return [KernelCall("tinyaot_cmsis_depthwise_conv_s16", [
        params, ParamArray("int32_t", multipliers), ParamArray("int32_t", shifts), TensorRef(inp.index),
        TensorRef(weights.index), optional_ref(bias), TensorRef(out.index)], header=HEADER,
        overlaps=cmsis_nn_overlap.depthwise(kernel, inp, out, params.fields))], None


def _lower_softmax(ctx, portable_calls):
    """arm_softmax_s16 is TFLM's SoftmaxInt16 but for two shortcuts: it shifts the normalised sum of
    exps in int32 (TFLM: int64) and does not clamp the output to 32767. Both show only for sums
    of exps the row's depth cannot reach below 9 values (checked here on every such sum)."""
    (portable,) = portable_calls
    params, exp_lut, reciprocal_lut = portable.args[:3]
    depth = params.fields["depth"]
    why = _softmax_shortcuts_show(depth, np.asarray(exp_lut.values), np.asarray(reciprocal_lut.values))
    if why:
        return portable_calls, why
    cmsis = ParamStruct("struct tinyaot_cmsis_softmax_s16_params", dict(params.fields))
    return [KernelCall("tinyaot_cmsis_softmax_s16", [cmsis, exp_lut, reciprocal_lut, *portable.args[3:]],
                       header=HEADER)], None


def _softmax_shortcuts_show(depth, exp_lut, reciprocal_lut):
    """Why arm_softmax_s16 could differ from TFLM on a row of `depth` values, or None: every sum of
    exps a row can reach (the row maximum's exp is the table's last value, every other exp at
    least its smallest), each with the largest exp it can hold."""
    largest = int(exp_lut.max())
    low, high = int(exp_lut[-1]) + (depth - 1) * int(exp_lut.min()), depth * largest
    # The int32 shift overflows at the top of a headroom's sums first: those tops decide it, and
    # where none overflows (high < 2^18 - 1) every sum is checked.
    tops = np.array([min(2**k - 1, high) for k in range(1, 33) if 2**(k - 1) <= high and 2**k - 1 >= low], np.int64)
    if np.any(_normalised(tops) + (1 << 13) > 2**31 - 1):
        return (f"{depth} values a row: arm_softmax_s16 shifts their sum of exps in int32 where TFLM "
                "shifts in int64 (at most 8 values keep it in range)")
    sums = np.arange(low, high + 1, dtype=np.int64)
    headroom = 31 - np.floor(np.log2(sums)).astype(np.int64)  # leading zeros of a uint32
    normalised = _normalised(sums)
    x = ((normalised + (1 << 13)) >> 14) - 98304
    index, offset = 256 + (x >> 7), x & 0x7F
    slope = (reciprocal_lut[index + 1].astype(np.int64) - reciprocal_lut[index]).astype(np.int16)
    reciprocal = (reciprocal_lut[index] + ((slope.astype(np.int64) * offset + 64) >> 7)).astype(np.int16)
    result = (((np.minimum(sums, largest) * reciprocal) >> (30 - headroom)) + 1) >> 1
    if np.any(result > 32767):
        return (f"{depth} value{'s' if depth > 1 else ''} a row: arm_softmax_s16 does not clamp its output "
                "to 32767, which such a row can pass (a single value: 32769, written as -32767)")
    return None


def _normalised(sums):
    """Each sum shifted up to bit 30, as arm_softmax_s16 and TFLM normalise it."""
    return sums << (30 - np.floor(np.log2(sums)).astype(np.int64))


def elementwise_unsupported(ctx):
    """Why a 16x8 ADD or MUL cannot take arm_elementwise_add_s16 / _mul_s16, or None: both ignore the
    offsets TFLM's glue passes them, so a nonzero zero point (TFLM's reference ADD takes one) would
    give TFLM + CMSIS-NN's result, not TFLM's."""
    if ctx.op.type not in ("ADD", "MUL"):
        return None
    nonzero = [t.name for t in (ctx.input(0), ctx.input(1), ctx.output()) if t.zero_point != 0]
    if nonzero:
        return (f"int16 zero point of {nonzero[0]} is not 0: arm_elementwise_{ctx.op.type.lower()}_s16 ignores "
                "offsets (TFLM + CMSIS-NN differs from TFLM's reference there)")
    return None


def _weight_sums(weights, out_axis):
    """Per output channel, the sum of |weight| (out_axis: the output channels' axis)."""
    w = np.abs(np.moveaxis(np.asarray(weights.data, np.int64), out_axis, 0))
    return w.reshape(w.shape[0], -1).sum(axis=1)


def _int64_shortcuts_show(weight_sums, bias, multipliers, shifts, sum32):
    """Why arm_nn_mat_mult_kernel_s16's int32 partial sums or arm_nn_requantize_s64's early
    truncation could differ from TFLM's int64 arithmetic on this layer, or None."""
    if not sum32:
        return "int64 sums that may leave int32: CMSIS-NN adds each output's first 512 products in int32"
    return _requantize_shortcut_shows(weight_sums, bias, multipliers, shifts)


def _requantize_shortcut_shows(weight_sums, bias, multipliers, shifts):
    """Why arm_nn_requantize_s64's early truncation to int32 could differ from TFLM's int64 rescale, or None."""
    w = weight_sums * 32768
    b = np.zeros_like(w) if bias is None else np.abs(np.asarray(bias.data, np.int64).reshape(-1))
    m = np.asarray(multipliers, np.int64)
    reduced = np.where(m < 0x7FFF0000, (m + (1 << 15)) >> 16, 0x7FFF)
    # arm_nn_requantize_s64 keeps (x * reduced) >> (14 - shift) in int32, then rounds.
    if np.any(14 - np.asarray(shifts) < 0):
        return "rescaled sums that may leave int32 before CMSIS-NN's last rounding shift (arm_nn_requantize_s64)"
    kept = ((w + b) * reduced) >> (14 - np.asarray(shifts, np.int64))
    if np.any(kept > 2**31 - 1):
        return "rescaled sums that may leave int32 before CMSIS-NN's last rounding shift (arm_nn_requantize_s64)"
    return None
