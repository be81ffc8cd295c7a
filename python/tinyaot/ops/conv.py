"""CONV_2D and DEPTHWISE_CONV_2D: int8 activations, int8 weights (per-channel or
per-tensor), optional int32 bias; 16x8: int16 activations, int8 weights, int64 or
int32 bias (ops/s16.py); or float32 throughout (ops/float32.py).

Everything TFLM's Prepare works out (padding, per-channel multipliers, the
activation range) is computed here, the way TFLM computes it, and passed to the
kernel as constants.
"""

from dataclasses import replace

import numpy as np

from tinyaot.ops import conv_dsp, conv_mve, depthwise_dsp, depthwise_mve, float32, overlap, s16
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, ScratchRef, TensorRef, optional_ref
from tinyaot.quant import fold_input_offset, per_channel_multipliers, wrap_int32

PADDING_SAME, PADDING_VALID = 0, 1
PADDING_NAMES = {PADDING_SAME: "SAME", PADDING_VALID: "VALID"}


def out_size(padding, image, taps, stride, dilation):
    """tflite::ComputeOutSize (GetWindowedOutputSize in TensorFlow)."""
    effective = (taps - 1) * dilation + 1
    if padding == PADDING_SAME:
        return (image + stride - 1) // stride
    return (image + stride - effective) // stride


def padding_before(image, taps, stride, dilation, out):
    """tflite::ComputePaddingWithOffset: the top/left padding (any odd extra goes bottom/right)."""
    effective = (taps - 1) * dilation + 1
    return max((out - 1) * stride + effective - image, 0) // 2


# Far beyond any real model, and small enough that window arithmetic stays in int32.
GEOMETRY_LIMIT = 1 << 16


def window_geometry(ctx, inp, out, filter_h, filter_w, dilation=True):
    """Checks stride, dilation, padding and the output's spatial size against TFLM's
    formulas; returns a dict of the kernel fields they determine."""
    opts = ctx.op.options
    padding = opts.get("padding", PADDING_SAME)
    ctx.expect(padding in PADDING_NAMES, f"padding {padding} is not supported (supported: SAME, VALID)")
    stride_h, stride_w = opts.get("stride_h", 1), opts.get("stride_w", 1)
    ctx.expect(stride_h >= 1 and stride_w >= 1, f"strides must be at least 1, not {stride_h}x{stride_w}")
    dil_h, dil_w = (opts.get("dilation_h_factor", 1), opts.get("dilation_w_factor", 1)) if dilation else (1, 1)
    ctx.expect(dil_h >= 1 and dil_w >= 1, f"dilation factors must be at least 1, not {dil_h}x{dil_w}")
    ctx.expect(filter_h >= 1 and filter_w >= 1, f"filter size {filter_h}x{filter_w} is empty")
    extent = max((filter_h - 1) * dil_h + 1, (filter_w - 1) * dil_w + 1)
    ctx.expect(max(stride_h, stride_w, extent) <= GEOMETRY_LIMIT,
               f"stride {stride_h}x{stride_w} or dilated filter extent {extent} is above {GEOMETRY_LIMIT}: "
               "the kernels index with 32-bit arithmetic")
    _, in_h, in_w, _ = inp.shape
    out_h = out_size(padding, in_h, filter_h, stride_h, dil_h)
    out_w = out_size(padding, in_w, filter_w, stride_w, dil_w)
    ctx.expect(out_h >= 1 and out_w >= 1,
               f"a {filter_h}x{filter_w} filter (dilation {dil_h}x{dil_w}) with {PADDING_NAMES[padding]} padding "
               f"does not fit the {in_h}x{in_w} input", inp.index)
    ctx.expect(tuple(out.shape[1:3]) == (out_h, out_w),
               f"output is {out.shape[1]}x{out.shape[2]}, but {PADDING_NAMES[padding]} padding with stride "
               f"{stride_h}x{stride_w} on a {in_h}x{in_w} input gives {out_h}x{out_w}", out.index)
    fields = {
        "filter_h": filter_h, "filter_w": filter_w,
        "output_h": out_h, "output_w": out_w,
        "stride_h": stride_h, "stride_w": stride_w,
    }
    if dilation:
        fields.update(dilation_h=dil_h, dilation_w=dil_w)
    fields.update(pad_h=padding_before(in_h, filter_h, stride_h, dil_h, out_h),
                  pad_w=padding_before(in_w, filter_w, stride_w, dil_w, out_w))
    return fields


def expect_rank4(ctx, *tensors):
    for t in tensors:
        ctx.expect(len(t.shape) == 4, f"must be 4-D (NHWC), not {list(t.shape)}", t.index)


def expect_output_scale(ctx, out):
    """Requantization and activation ranges divide by the output scale."""
    ctx.expect(out.scale > 0, f"output scale must be positive, not {float(out.scale):g}", out.index)


def _check_filter(ctx, weights, channels, axis):
    """Weights: constant int8, symmetric, one scale or one per output channel on `axis`."""
    ctx.expect_dtype(weights, "int8")
    ctx.expect_constant(weights)
    ctx.expect_quantized(weights, per_channel_ok=True)
    q = weights.quant
    if q.per_channel:
        ctx.expect(q.axis == axis and len(q.scale) == channels,
                   f"per-channel quantization must have one scale per output channel on axis {axis} "
                   f"({channels}), not {len(q.scale)} on axis {q.axis}", weights.index)
    # TFLM's int8 kernels never read the filter zero point: int8 weights are symmetric.
    ctx.expect(not q.zero_point.any(),
               f"filter zero point must be 0 (int8 weights are symmetric), not {int(q.zero_point[0])}"
               if len(q.zero_point) == 1 else "filter zero points must all be 0 (int8 weights are symmetric)",
               weights.index)


def _check_bias(ctx, bias, channels, dtype="int32"):
    if bias is None:
        return
    ctx.expect_dtype(bias, dtype)
    ctx.expect_constant(bias)
    ctx.expect(bias.num_elements == channels, f"bias has {bias.num_elements} values, expected {channels}",
               bias.index)


def _quant_fields(ctx, inp, weights, out):
    """Offsets, activation range and multiplier tables, as PopulateConvolutionQuantizationParams."""
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    act_min, act_max = ctx.activation(out)
    fields = {
        "input_offset": -inp.zero_point,
        "output_offset": out.zero_point,
        "act_min": act_min,
        "act_max": act_max,
        "per_channel": int(weights.quant.per_channel),
    }
    return fields, ParamArray("int32_t", multipliers), ParamArray("int32_t", shifts)


def _check_io(ctx):
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    if inp.dtype == "float32":
        ctx.expect_dtype(out, "float32")
    elif inp.dtype == "int16":
        s16.expect_symmetric_int16(ctx, inp, out)
        expect_output_scale(ctx, out)
    else:
        for t in (inp, out):
            ctx.expect_dtype(t, "int8")
            ctx.expect_quantized(t)
        expect_output_scale(ctx, out)
    expect_rank4(ctx, inp, weights, out)
    ctx.expect(out.shape[0] == inp.shape[0],
               f"output batch {out.shape[0]} differs from input batch {inp.shape[0]}", out.index)
    return inp, weights, bias, out


def _conv_call(ctx, kernel, ctype, inp, weights, bias, out, own_fields, fold_axis=None, plain_too=False,
               bias_table=None, instances=(), filter_table=None, header=None, scratch=()):
    """The parameters and call CONV_2D and DEPTHWISE_CONV_2D share: sizes, window
    geometry and quantization around the kernel's `own_fields` (both filter
    layouts keep height and width on axes 1 and 2). With `fold_axis` (the output
    channel axis of the filter) the kernel takes the bias with the input offset
    folded in (see fold_input_offset), never NULL; with `plain_too` followed by
    the plain bias (zeros without one); `bias_table`, `filter_table`: tables of the
    kernel's own making instead (ParamArrays; the filter's TensorRef for the model's own);
    `header`: the kernel's, if not <kernel>.h; `scratch`: the bytes of the kernel's one
    scratch buffer (its last argument), if it takes one."""
    geometry = window_geometry(ctx, inp, out, weights.shape[1], weights.shape[2])
    quant, multipliers, shifts = _quant_fields(ctx, inp, weights, out)
    params = ParamStruct(ctype, {
        "batches": inp.shape[0],
        "input_h": inp.shape[1], "input_w": inp.shape[2], "input_ch": inp.shape[3],
        **own_fields,
        **geometry,
        **quant,
    })
    if bias_table is not None:
        bias_arg = bias_table
    elif fold_axis is not None:
        plain = _plain_bias(bias, out.shape[3])
        folded = fold_input_offset(None if bias is None else bias.data, weights.data, quant["input_offset"],
                                   channel_axis=fold_axis)
        bias_arg = ParamArray("int32_t", np.concatenate([folded, plain]) if plain_too else folded)
    else:
        bias_arg = optional_ref(bias)
    overlaps = (overlap.depthwise(inp, out, geometry, own_fields["depth_multiplier"])
                if "depth_multiplier" in own_fields else overlap.convolution(inp, out, geometry))
    if filter_table is not None:
        filter_arg = filter_table
    elif "groups" in own_fields:  # CONV_2D: filters re-laid out for tinyaot_conv2d_s8
        filter_arg = ParamArray("int8_t", _blocks_of_4(weights.data, own_fields["groups"]), True)
    elif kernel == "tinyaot_depthwise_mult_s8":
        filter_arg = ParamArray("uint8_t", depthwise_mult_filter(weights.data, own_fields["depth_multiplier"]), True)
    else:
        filter_arg = TensorRef(weights.index)
    return [KernelCall(kernel, [
        params, multipliers, shifts, TensorRef(inp.index), filter_arg, bias_arg, TensorRef(out.index),
        *([ScratchRef(0, "int8_t")] if scratch else []),
    ], overlaps=overlaps, instances=list(instances), header=header, scratch=list(scratch))]


def _conv_1x1_call(ctx, inp, weights, bias, out):
    """A 1x1 filter is a matrix product: its window never leaves the input (no
    padding for any stride), so the input offset folds into the bias."""
    geometry = window_geometry(ctx, inp, out, 1, 1)
    assert geometry["pad_h"] == geometry["pad_w"] == 0
    quant, multipliers, shifts = _quant_fields(ctx, inp, weights, out)
    params = ParamStruct("struct tinyaot_conv2d_1x1_params", {
        "batches": inp.shape[0],
        "input_h": inp.shape[1], "input_w": inp.shape[2], "input_ch": inp.shape[3],
        "output_h": geometry["output_h"], "output_w": geometry["output_w"], "output_ch": out.shape[3],
        "stride_h": geometry["stride_h"], "stride_w": geometry["stride_w"],
        **{k: quant[k] for k in ("output_offset", "act_min", "act_max", "per_channel")},
    })
    depth = inp.shape[3]
    folded_bias = fold_input_offset(None if bias is None else bias.data, weights.data, quant["input_offset"],
                                    channel_axis=0)
    # SMLAD on the model's filter, four pixels at a time, a buffer sized for the depth; an image of
    # fewer pixels would widen one pixel's input several times (mobilenet's last layer: 11.9
    # instructions per multiply-accumulate on the M4 where the portable kernel takes 5.5).
    # On Helium (MVE) cores, VMLADAVA the same way on the four pixels' inputs as bytes.
    # On Helium (MVE) cores, VMLADAVA the same way on the four pixels' inputs as bytes, on
    # conv_mve's tables (the requantization rows hold the multipliers and shifts).
    if ctx.dsp and geometry["output_h"] * geometry["output_w"] >= 4:
        level = "MVE" if ctx.arch == "mve" else "DSP"
        params.fields["dsp_sized"] = f"TINYAOT_CONV2D_1X1_{level}({depth})"
        args = [params, multipliers, shifts, TensorRef(inp.index), TensorRef(weights.index),
                ParamArray("int32_t", folded_bias), TensorRef(out.index)]
        if level == "MVE":
            args[1:3] = ["NULL", "NULL"]
            args[4:6] = [ParamArray("int8_t", conv_mve.filter_pairs(weights.data), True),
                         ParamArray("int32_t", conv_mve.requant_rows(folded_bias, multipliers.values,
                                                                     shifts.values, out.shape[3]))]
        return [KernelCall(f"tinyaot_conv2d_1x1_s8_{level.lower()}", args,
                           overlaps=overlap.pointwise_quads(inp, out, geometry["stride_h"], geometry["stride_w"]),
                           instances=[f"TINYAOT_CONV2D_1X1_{level}_DEPTH({depth})"])]
    # Adjacent pixels' inputs lie input_ch apart at stride 1: a loop for that distance
    # (tinyaot_conv2d_1x1_s8.h) where the depth is worth its code (flash), optimising for speed.
    adjacent = geometry["stride_h"] == geometry["stride_w"] == 1 and depth >= 32 and ctx.optimize == "speed"
    params.fields["adjacent_pair"] = f"TINYAOT_CONV2D_1X1_PAIR({depth})" if adjacent else "NULL"
    return [KernelCall("tinyaot_conv2d_1x1_s8", [
        params, multipliers, shifts, TensorRef(inp.index), ParamArray("int8_t", _blocks_of_4(weights.data), True),
        ParamArray("int32_t", folded_bias), TensorRef(out.index),
    ], overlaps=overlap.pointwise(inp, out, geometry["stride_h"], geometry["stride_w"]),
        instances=[f"TINYAOT_CONV2D_1X1_PAIR_STEP({depth})"] if adjacent else [])]


def _conv_mve_call(ctx, inp, weights, bias, out):
    """On Helium (MVE) cores every CONV_2D without groups but 1x1, one input channel too
    (DS-CNN's first layer): tinyaot_conv2d_s8_mve, four pixels' windows gathered into a
    scratch (conv_mve.conv_scratch); the filter [output_ch][h][w][input_ch] and the
    requantization as conv_mve's tables."""
    out_ch, filter_h, filter_w, in_ch = weights.shape
    quant, multipliers, shifts = _quant_fields(ctx, inp, weights, out)
    folded = fold_input_offset(None if bias is None else bias.data, weights.data, quant["input_offset"],
                               channel_axis=0)
    (call,) = _conv_call(ctx, "tinyaot_conv2d_s8_mve", "struct tinyaot_conv2d_params", inp, weights, bias, out, {
        "filter_ch": in_ch, "groups": 1, "filters_per_group": out_ch, "output_ch": out_ch, "pair4": "NULL",
    }, bias_table=ParamArray("int32_t", conv_mve.requant_rows(folded, multipliers.values, shifts.values, out_ch)),
        filter_table=ParamArray("int8_t", conv_mve.filter_pairs(weights.data), True),
        scratch=[conv_mve.conv_scratch(filter_h * filter_w * in_ch, in_ch)])
    call.args[1:3] = ["NULL", "NULL"]  # in the requantization rows
    return [call]


def _depthwise_one_channel_mve_call(ctx, inp, weights, bias, out):
    """On Helium (MVE) cores a DEPTHWISE_CONV_2D of one input channel (micro_speech's layer) is
    the CONV_2D of its multiplier's filters: [1][h][w][M] transposed to [M][h][w][1]
    (per-channel scales move from axis 3 to 0), on tinyaot_conv2d_s8_mve."""
    data = np.ascontiguousarray(np.transpose(weights.data, (3, 1, 2, 0)))
    as_conv = replace(weights, shape=data.shape, data=data, quant=replace(weights.quant, axis=0))
    return _conv_mve_call(ctx, inp, as_conv, bias, out)


def _blocks_of_4(weights, groups=1):
    """[output_ch][...] filters in tinyaot_conv2d_1x1_s8's and tinyaot_conv2d_s8's order: in
    each group, each block of four filters as [taps and input channels][4] (the four weights
    one input value meets, side by side), the filters left after the blocks as plain rows."""
    w = np.asarray(weights, dtype=np.int8).reshape(weights.shape[0], -1)
    parts = []
    for g in np.split(w, groups):
        blocked = g.shape[0] - g.shape[0] % 4
        parts += [g[:blocked].reshape(blocked // 4, 4, g.shape[1]).transpose(0, 2, 1).reshape(-1),
                  g[blocked:].reshape(-1)]
    return np.concatenate(parts)


def lower_conv(ctx):
    inp, weights, bias, out = _check_io(ctx)
    out_ch, _, _, filter_ch = weights.shape
    in_ch = inp.shape[3]
    ctx.expect(out.shape[3] == out_ch,
               f"output has {out.shape[3]} channels but the filter has {out_ch}", out.index)
    ctx.expect(filter_ch >= 1 and in_ch % filter_ch == 0,
               f"filter depth {filter_ch} does not divide the input's {in_ch} channels", weights.index)
    groups = in_ch // filter_ch
    ctx.expect(out_ch % groups == 0,
               f"{out_ch} filters do not split into {groups} groups (input {in_ch} channels, filter depth "
               f"{filter_ch})", weights.index)
    if inp.dtype == "float32":
        _check_bias(ctx, bias, out_ch, "float32")
        return float32.conv(ctx, inp, weights, bias, out, window_geometry(ctx, inp, out, *weights.shape[1:3]),
                            groups)
    _check_filter(ctx, weights, out_ch, axis=0)
    if inp.dtype == "int16":
        return s16.conv(ctx, inp, weights, bias, out, window_geometry(ctx, inp, out, *weights.shape[1:3]), groups)
    _check_bias(ctx, bias, out_ch)
    if weights.shape[1:3] == (1, 1) and groups == 1:
        return _conv_1x1_call(ctx, inp, weights, bias, out)
    if ctx.arch == "mve" and groups == 1:
        return _conv_mve_call(ctx, inp, weights, bias, out)
    if in_ch == 1 and depthwise_mult_fits(weights):
        return _conv_one_channel_call(ctx, inp, weights, bias, out)
    if ctx.dsp and groups == 1 and conv_dsp.gather_fits(weights):
        return _conv_call(ctx, "tinyaot_conv2d_gather_s8_dsp", "struct tinyaot_conv2d_params", inp, weights, bias,
                          out, {"filter_ch": filter_ch, "groups": 1, "filters_per_group": out_ch, "output_ch": out_ch,
                                "pair4": "NULL"}, fold_axis=0,
                          filter_table=ParamArray("int8_t", conv_dsp.gather_filter(weights.data), True),
                          header="tinyaot_conv2d_gather_s8_dsp.h")
    # The pairs' loop for this distance between a pair's inputs (tinyaot_conv2d_s8.h), the
    # general one for distances below 4; on DSP cores the loop of that level (kernels/dsp/);
    # optimising for size, none: one pixel at a time.
    pixel_step = ctx.op.options.get("stride_w", 1) * in_ch
    level = "_DSP" if ctx.dsp else ""
    pair4, instances = ((pixel_step, [f"TINYAOT_CONV2D_PAIR4{level}_STEP({pixel_step})"]) if pixel_step >= 4
                        else ("any", []))
    if ctx.optimize == "size":
        pair4, instances, level = None, [], ""
    return _conv_call(ctx, "tinyaot_conv2d_s8", "struct tinyaot_conv2d_params", inp, weights, bias, out, {
        "filter_ch": filter_ch, "groups": groups, "filters_per_group": out_ch // groups, "output_ch": out_ch,
        "pair4": "NULL" if pair4 is None else f"TINYAOT_CONV2D_PAIR4{level}({pair4})",
    }, fold_axis=0, plain_too=True, instances=instances,
        header="tinyaot_conv2d_s8_dsp.h" if level else None)


def lower_depthwise(ctx):
    inp, weights, bias, out = _check_io(ctx)
    one, _, _, out_ch = weights.shape
    in_ch = inp.shape[3]
    ctx.expect(one == 1, f"depthwise filter must have shape [1, h, w, channels], not {list(weights.shape)}",
               weights.index)
    ctx.expect(out.shape[3] == out_ch,
               f"output has {out.shape[3]} channels but the filter has {out_ch}", out.index)
    multiplier = ctx.op.options.get("depth_multiplier", 1)
    ctx.expect(multiplier >= 1 and in_ch * multiplier == out_ch,
               f"depth_multiplier {multiplier} does not turn {in_ch} input channels into {out_ch}")
    if inp.dtype == "float32":
        _check_bias(ctx, bias, out_ch, "float32")
        return float32.depthwise(ctx, inp, weights, bias, out,
                                 window_geometry(ctx, inp, out, *weights.shape[1:3]), multiplier)
    _check_filter(ctx, weights, out_ch, axis=3)
    if inp.dtype == "int16":
        return s16.depthwise(ctx, inp, weights, bias, out, window_geometry(ctx, inp, out, *weights.shape[1:3]),
                             multiplier)
    _check_bias(ctx, bias, out_ch)
    if ctx.arch == "mve" and in_ch == 1:
        return _depthwise_one_channel_mve_call(ctx, inp, weights, bias, out)
    if multiplier > 1 and ctx.dsp and depthwise_dsp.mult_fits(inp, weights):
        return _depthwise_mult_dsp_call(ctx, inp, weights, bias, out)
    if multiplier > 1 and depthwise_mult_fits(weights):
        return _conv_call(ctx, "tinyaot_depthwise_mult_s8", "struct tinyaot_depthwise_conv2d_params",
                          inp, weights, bias, out, {"depth_multiplier": multiplier}, fold_axis=3, plain_too=True)
    if ctx.arch == "mve" and depthwise_mve.fits(weights, multiplier):
        return _depthwise_mve_call(ctx, inp, weights, bias, out)
    if ctx.dsp and depthwise_dsp.fits(ctx, weights, inp, multiplier):
        return _conv_call(ctx, "tinyaot_depthwise_conv2d_s8_dsp", "struct tinyaot_depthwise_conv2d_params", inp,
                          weights, bias, out, {"depth_multiplier": 1, "packed_sums": 0}, fold_axis=3,
                          filter_table=ParamArray("int8_t", depthwise_dsp.filter_groups(weights.data), True),
                          header="tinyaot_depthwise_conv2d_s8_dsp.h")
    table, packed_sums = _depthwise_bias(bias, weights.data, -inp.zero_point)
    return _conv_call(ctx, "tinyaot_depthwise_conv2d_s8", "struct tinyaot_depthwise_conv2d_params", inp, weights,
                      bias, out, {"depth_multiplier": multiplier, "packed_sums": packed_sums}, bias_table=table)


def _depthwise_mve_call(ctx, inp, weights, bias, out):
    """Depth multiplier 1 on Helium (MVE) cores: tinyaot_depthwise_conv2d_s8_mve, its filter in
    groups of 16 channels, the folded bias and requantization in one table in its sums' lane
    order, a zero-point row for the taps outside the input; packed_sums says whether it may add
    two taps' products in 16 bits."""
    geometry = window_geometry(ctx, inp, out, weights.shape[1], weights.shape[2])
    quant, multipliers, shifts = _quant_fields(ctx, inp, weights, out)
    channels = inp.shape[3]
    params = ParamStruct("struct tinyaot_depthwise_conv2d_params", {
        "batches": inp.shape[0], "input_h": inp.shape[1], "input_w": inp.shape[2], "input_ch": channels,
        "depth_multiplier": 1, "packed_sums": depthwise_mve.pairs_taps(weights.data), **geometry, **quant,
    })
    folded = fold_input_offset(None if bias is None else bias.data, weights.data, quant["input_offset"],
                               channel_axis=3)
    twin = depthwise_mve.twin_pixels(channels, geometry["stride_w"])
    table = depthwise_mve.requant_table(folded, multipliers.values, shifts.values, channels, twin)
    zero_points = depthwise_mve.zero_point_row(inp.zero_point, channels)
    return [KernelCall("tinyaot_depthwise_conv2d_s8_mve", [
        params, ParamArray("int32_t", table), ParamArray("int8_t", zero_points),
        TensorRef(inp.index), ParamArray("int8_t", depthwise_mve.filter_groups(weights.data, twin), True),
        TensorRef(out.index),
    ], overlaps=overlap.depthwise_vectors(inp, out, geometry, depthwise_mve.LANES))]


def _plain_bias(bias, out_ch):
    """The model's bias as int32 values, zeros where the operator has none."""
    return np.zeros(out_ch, np.int32) if bias is None else np.asarray(bias.data, np.int32).reshape(-1)


def _depthwise_bias(bias, weights, input_offset):
    """tinyaot_depthwise_conv2d_s8's bias table and its packed_sums field: the bias with the
    input offset folded in, then each output channel's weight sum as int16, two to an int32
    word (the even channel in the low half), from which windows cut by the border get the
    plain bias back: half the flash of a second bias table. Where a sum leaves int16 (a
    filter of more than 258 taps), the plain bias alone, every window adding the offset."""
    out_ch = weights.shape[3]
    sums = np.asarray(weights, np.int64).reshape(-1, out_ch).sum(axis=0)
    if sums.min() < -32768 or sums.max() > 32767:
        return ParamArray("int32_t", _plain_bias(bias, out_ch)), 0
    halves = np.concatenate([sums, np.zeros(out_ch % 2, np.int64)]) & 0xFFFF
    words = wrap_int32(halves[0::2] | halves[1::2] << 16)
    folded = fold_input_offset(None if bias is None else bias.data, weights, input_offset, channel_axis=3)
    return ParamArray("int32_t", np.concatenate([folded, words]).astype(np.int32)), 1


def depthwise_mult_fits(weights):
    """tinyaot_depthwise_mult_s8 sums x * (w + 128), up to 255 * 255 a tap, in int32."""
    return weights.shape[1] * weights.shape[2] * 255 * 255 < 2**31


def _conv_one_channel_call(ctx, inp, weights, bias, out):
    """A CONV_2D on a one-channel input is a depthwise convolution whose multiplier is the
    output channel count: its [output_ch][h][w][1] filter, transposed, is the depthwise
    [1][h][w][output_ch] one (per-channel scales move from axis 0 to 3). On
    tinyaot_depthwise_mult_s8, which loads each input value once for up to 8 outputs,
    and declares that kernel's overlap (overlap.depthwise, by _conv_call)."""
    data = np.transpose(weights.data, (3, 1, 2, 0))
    as_depthwise = replace(weights, shape=data.shape, data=data, quant=replace(weights.quant, axis=3))
    if ctx.dsp and depthwise_dsp.mult_fits(inp, as_depthwise):
        return _depthwise_mult_dsp_call(ctx, inp, as_depthwise, bias, out)
    return _conv_call(ctx, "tinyaot_depthwise_mult_s8", "struct tinyaot_depthwise_conv2d_params", inp, as_depthwise,
                      bias, out, {"depth_multiplier": out.shape[3]}, fold_axis=3, plain_too=True)


def _depthwise_mult_dsp_call(ctx, inp, weights, bias, out):
    """A one-channel input on cores with the DSP extension: tinyaot_depthwise_mult_s8_dsp, its
    own filter layout, the input offset folded into the bias; the depthwise overlap (its
    pixels' outputs are written after their whole window is read)."""
    return _conv_call(ctx, "tinyaot_depthwise_mult_s8_dsp", "struct tinyaot_depthwise_conv2d_params", inp, weights,
                      bias, out, {"depth_multiplier": out.shape[3], "packed_sums": 0}, fold_axis=3,
                      filter_table=ParamArray("int8_t", depthwise_dsp.mult_filter(weights.data), True),
                      header="tinyaot_depthwise_mult_s8_dsp.h")


def depthwise_mult_filter(weights, multiplier):
    """A [1][h][w][input_ch * multiplier] depthwise filter in tinyaot_depthwise_mult_s8's
    order: per input channel, its outputs in chunks of 8, then 4, 2, 1 (the multiplier's
    remainder), each chunk as [h][w][chunk], every weight plus 128 (a uint8_t)."""
    w = np.asarray(weights, dtype=np.int16)
    taps = w.reshape(-1, w.shape[3])  # [h * w][output channel]
    chunks = [8] * (multiplier // 8) + [n for n in (4, 2, 1) if multiplier % 8 & n]
    parts = []
    for first in range(0, w.shape[3], multiplier):
        for n in chunks:
            parts.append(taps[:, first:first + n].reshape(-1))
            first += n
    return (np.concatenate(parts) + 128).astype(np.uint8)


OPS = {"CONV_2D": lower_conv, "DEPTHWISE_CONV_2D": lower_depthwise}
