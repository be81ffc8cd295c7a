"""CMSIS-NN backend: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D,
MAX_POOL_2D, SOFTMAX, ADD, MUL, SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM (cmsis_nn_lstm.py) become calls into Arm's CMSIS-NN v7 kernels
(16x8: cmsis_nn_s16.py)
(through tinyaot_cmsis_nn.h) where CMSIS-NN supports their parameters; every
other operator keeps its portable kernel, and so does one whose portable kernel is
exact and faster on the core (FASTER_PORTABLE: a DSP core's same-shape ADD; on cores
without DSP, cmsis_nn_lstm.PORTABLE_ON_SCALAR: the LSTMs), or as fast and much smaller
(PORTABLE_ON_DSP: a DSP core's SOFTMAX).

What TFLM's CMSIS-NN glue works out at Prepare (per-channel multipliers and
shifts, padding, the scratch buffer size) is computed here, once, into flash
tables and compile-time constants. The scratch buffer is planned in the arena
with the size CMSIS-NN's *_get_buffer_size functions return on the target core:
the formulas below follow arm_convolve_get_buffer_sizes_s8.c and
arm_depthwise_conv_get_buffer_sizes_s8.c (tests compare them with CMSIS-NN's own,
their _dsp and _mve variants for those cores). On Helium (MVE) cores the fully
connected kernels want each output's kernel sum (TFLM: arm_vector_sum_s8 at
Prepare): a flash table here.
"""

import numpy as np

from tinyaot.backends import cmsis_nn_lstm, cmsis_nn_overlap, cmsis_nn_s16
from tinyaot.cores import CPU_ARCH
from tinyaot.backends.cmsis_nn_call import HEADER, call, conv_too_wide
from tinyaot.ops import elementwise
from tinyaot.ops.base import KernelCall, LowerContext, ParamArray, ParamStruct, ScratchRef, TensorRef, optional_ref
from tinyaot.ops.conv import window_geometry
from tinyaot.quant import per_channel_multipliers

# Portable kernels (a DSP core's) the backend keeps, bit-exact as CMSIS-NN's and faster: why.
FASTER_PORTABLE = {
    "tinyaot_add_s8_dsp": "tinyaot_add_s8_dsp (a table and SMMLAR, about 15 instructions a value on a Cortex-M4) "
                          "is faster than arm_elementwise_add_s8 (about 80)",
}
# On cores with the DSP extension but no Helium, portable kernels as fast as CMSIS-NN's to within a
# few instructions and much smaller (`tinyaot profile` on mps2_an386; flash: MobileNetV1 0.25's firmware).
PORTABLE_ON_DSP = {
    "tinyaot_softmax_s8": "tinyaot_softmax_s8 is 2.9 KB smaller than arm_softmax_s8 and as fast on a Cortex-M4 "
                          "(12 classes: 5 711 instructions against 6 388; 2 classes: 1 231 against 1 183)",
}

# On cores without the DSP extension (CMSIS-NN's plain C), CONV_2D's portable kernels faster than
# CMSIS-NN's (`tinyaot profile`: ds_cnn_kws and cnn_kws_small on qemu_cortex_m3, conv_1x1_depths and
# a 10x4 convolution of one input channel on qemu_cortex_m0); the 1x1 one with --cmsis-nn-1x1 auto.
# A DEPTHWISE_CONV_2D of one input channel keeps tinyaot_depthwise_mult_s8 as well (micro_speech);
# with more input channels arm_depthwise_conv_s8 stays (not measured against it).
PORTABLE_ON_SCALAR = {
    "tinyaot_conv2d_1x1_s8": "tinyaot_conv2d_1x1_s8 is faster than CMSIS-NN's plain C on a core without DSP "
                             "(instructions a multiply-accumulate: ds_cnn_kws's 64 -> 64 on a Cortex-M3 2.44, "
                             "arm_convolve_s8 3.29; conv_1x1_depths on a Cortex-M0 7.25, arm_convolve_s8 9.15) "
                             "and its output may overlap its input",
    "tinyaot_depthwise_mult_s8": "tinyaot_depthwise_mult_s8 (one input channel) is faster than CMSIS-NN's plain C "
                                 "on a core without DSP (instructions a multiply-accumulate, 10x4 filters: "
                                 "cnn_kws_small's 28 on a Cortex-M3 4.03, arm_convolve_s8 5.25; on a Cortex-M0 "
                                 "7.77 against 10.51); a DEPTHWISE_CONV_2D of one input channel too (micro_speech's "
                                 "10x8, multiplier 8, in bands with its FULLY_CONNECTED: 3.19 instructions a "
                                 "multiply-accumulate on a Cortex-M3, arm_depthwise_conv_s8 4.47)",
}

# On cores without DSP, where arm_convolve_s8's im2col scratch would raise the arena's peak
# (compiler._smaller_plan plans both ways), a convolution whose tinyaot_conv2d_s8 computes pixel pairs
# (optimising for speed, output rows of 2 or more pixels, at most TINYAOT_PAIR_MAX_CH outputs) keeps
# it: not slower there (`tinyaot profile`, instructions a multiply-accumulate, tinyaot_conv2d_s8 against
# arm_convolve_s8 on qemu_cortex_m3 / qemu_cortex_m0; cnn_kws_small's banded step on the M0 9.39 M
# instructions against 9.53 M). A row of one pixel is slower on tinyaot's (magic_wand's 4x1 over 8
# channels: 6.31 against 4.92 on the M3, 11.65 against 11.00 on the M0) and stays on CMSIS-NN's.
PAIR_MAX_CH = 128  # TINYAOT_PAIR_MAX_CH, tinyaot_common.h
PORTABLE_FOR_ARENA_ON_SCALAR = (
    "arm_convolve_s8's scratch would raise the arena, and tinyaot_conv2d_s8 (pixel pairs, no scratch) is not "
    "slower on a core without DSP (instructions a multiply-accumulate, arm_convolve_s8's in brackets: 3x3 over "
    "16, 32 and 64 channels on a Cortex-M3 2.50 (3.35), 2.23 (2.87), 1.98 (2.67), on a Cortex-M0 6.67 (7.56), "
    "5.59 (6.70), 4.43 (6.33); 3x3 stride 2 over 3 channels 4.78 (6.97), 12.43 (13.68); cnn_kws_small's 10x4 "
    "stride 2 over 28 channels 2.23 (2.78) on the M3)")

# On Helium, a residual block's convolutions in bands: CMSIS-NN's calls pay their set-up and the
# window moves at every band of one row (ResNet-8 on mps3_an547: 4.99 M instructions, TFLM + CMSIS-NN
# 4.91 M), tinyaot's MVE convolution is faster per multiply-accumulate as well (`tinyaot profile`:
# 0.35 / 0.26 / 0.18 against arm_convolve_s8's 0.46 / 0.35 / 0.25 on its three block shapes).
PORTABLE_IN_BANDS_ON_MVE = ("in bands on Helium, tinyaot's MVE convolutions are faster than CMSIS-NN's, whose "
                            "set-up repeats at every band (ResNet-8's blocks: 0.35, 0.26, 0.18 instructions a "
                            "multiply-accumulate against 0.46, 0.35, 0.25)")


def lower(ctx, portable_calls, cpu, pointwise_im2col=False, pointwise_auto=False, in_residual_bands=False,
          for_arena=False, lstm_auto=False):
    """(calls, reason): CMSIS-NN calls and None, or the portable calls and why they stay.
    pointwise_im2col: 1x1 convolutions on arm_convolve_s8 too (see conv_kernel); pointwise_auto:
    --cmsis-nn-1x1 auto, which keeps the portable 1x1 kernel on cores without DSP (PORTABLE_ON_SCALAR);
    in_residual_bands: a convolution a residual block runs in bands (PORTABLE_IN_BANDS_ON_MVE);
    for_arena: a convolution --cmsis-nn-conv auto keeps on tinyaot_conv2d_s8 (PORTABLE_FOR_ARENA_ON_SCALAR);
    lstm_auto: --cmsis-nn-lstm auto, which keeps tinyaot's LSTM kernels where they are the faster
    (cmsis_nn_lstm.PORTABLE_ON_SCALAR)."""
    handler = _HANDLERS.get(ctx.op.type)
    if handler is None:
        return portable_calls, "no CMSIS-NN lowering for this operator"
    if in_residual_bands and CPU_ARCH[cpu] == "mve":
        return portable_calls, PORTABLE_IN_BANDS_ON_MVE
    if for_arena and arena_candidate(ctx, portable_calls, cpu):
        return portable_calls, PORTABLE_FOR_ARENA_ON_SCALAR
    if ctx.input(0).dtype == "int16" and ctx.op.type in cmsis_nn_s16.OPERATORS:
        return cmsis_nn_s16.lower(ctx, CPU_ARCH[cpu], portable_calls)
    kept = {**FASTER_PORTABLE, **PORTABLE_ON_DSP} if CPU_ARCH[cpu] == "dsp" else FASTER_PORTABLE
    if CPU_ARCH[cpu] == "scalar" and ctx.op.type == "CONV_2D":
        kept = {**kept, **{k: why for k, why in PORTABLE_ON_SCALAR.items()
                           if pointwise_auto or k != "tinyaot_conv2d_1x1_s8"}}
    if CPU_ARCH[cpu] == "scalar" and ctx.op.type == "DEPTHWISE_CONV_2D" and ctx.input(0).shape[3] == 1:
        kept = {**kept, "tinyaot_depthwise_mult_s8": PORTABLE_ON_SCALAR["tinyaot_depthwise_mult_s8"]}
    reasons = [kept[c.kernel] for c in portable_calls if c.kernel in kept]
    if reasons and CPU_ARCH[cpu] == "mve":
        # On Helium arm_elementwise_add_s8's MVE path is the faster (13.8 instructions a value on
        # mps3_an547, tinyaot_add_s8_dsp 15): its fields are the plain portable lowering's.
        portable_calls, reasons = _HANDLERS_PORTABLE[ctx.op.type](LowerContext(ctx.graph, ctx.op, ctx.optimize)), []
    if reasons:
        return portable_calls, reasons[0]
    if ctx.op.type == "UNIDIRECTIONAL_SEQUENCE_LSTM":
        reason = cmsis_nn_lstm.unsupported(ctx, portable_calls, CPU_ARCH[cpu])
        if reason is None and lstm_auto:
            reason = cmsis_nn_lstm.faster_portable(portable_calls, cpu)
    else:
        reason = _unsupported(ctx, CPU_ARCH[cpu])
    if reason:
        return portable_calls, reason
    if handler is _lower_conv:
        return _lower_conv(ctx, CPU_ARCH[cpu], portable_calls, pointwise_im2col), None
    return handler(ctx, CPU_ARCH[cpu], portable_calls), None


def arena_candidate(ctx, portable_calls, cpu):
    """Whether this operator may keep tinyaot_conv2d_s8 for the arena (PORTABLE_FOR_ARENA_ON_SCALAR)."""
    out = ctx.output()
    return (CPU_ARCH[cpu] == "scalar" and ctx.op.type == "CONV_2D" and ctx.optimize == "speed"
            and [c.kernel for c in portable_calls] == ["tinyaot_conv2d_s8"]
            and out.shape[2] >= 2 and out.shape[3] <= PAIR_MAX_CH)


def _unsupported(ctx, arch):
    """Why CMSIS-NN cannot take this (already validated) operator, or None."""
    inp, out = ctx.input(0), ctx.output()
    int16_output = ctx.op.type == "SOFTMAX" and out.dtype == "int16"  # arm_softmax_s8_s16
    s16 = inp.dtype == out.dtype == "int16" and ctx.op.type in cmsis_nn_s16.SHARED_WITH_INT8
    if s16 and arch == "mve":
        return cmsis_nn_s16.ON_MVE
    if not s16 and (inp.dtype != "int8" or (out.dtype != "int8" and not int16_output)):
        return f"{inp.dtype} to {out.dtype}: CMSIS-NN lowering is int8 only"
    if s16 and cmsis_nn_s16.elementwise_unsupported(ctx):
        return cmsis_nn_s16.elementwise_unsupported(ctx)
    if ctx.op.type in ("ADD", "MUL") and not (ctx.input(1).shape == inp.shape == out.shape):
        # As TFLM's CMSIS-NN glue: CMSIS-NN's elementwise kernels do not broadcast.
        return (f"broadcast of {list(inp.shape)} and {list(ctx.input(1).shape)}: CMSIS-NN's elementwise "
                "kernels take equal shapes only")
    if ctx.op.type in ("CONV_2D", "DEPTHWISE_CONV_2D") and conv_too_wide(ctx):
        return conv_too_wide(ctx)
    if ctx.op.type == "CONV_2D":
        groups = inp.shape[3] // ctx.input(1).shape[3]
        if groups != 1:
            return (f"{groups} groups: kept portable, since CMSIS-NN's buffer size query for its "
                    "convolution wrapper does not account for groups")
    if ctx.op.type == "FULLY_CONNECTED":
        weights = ctx.input(1)
        if weights.quant.per_channel and weights.zero_point != 0:
            return "per-channel weights with a zero point: CMSIS-NN has no such kernel"
    return None


def _dims(n, h, w, c):
    return {"n": n, "h": h, "w": w, "c": c}


def _conv_common(ctx, weights_hw):
    """Geometry, activation and per-channel requantization shared by both convolutions."""
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    g = window_geometry(ctx, inp, out, *weights_hw)
    act_min, act_max = ctx.activation(out)
    out_ch = out.shape[3]
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    # CMSIS-NN always reads one multiplier per output channel.
    multipliers, shifts = np.resize(multipliers, out_ch), np.resize(shifts, out_ch)
    fields = {
        "input_n": inp.shape[0], "input_h": inp.shape[1], "input_w": inp.shape[2], "input_c": inp.shape[3],
        "filter_h": g["filter_h"], "filter_w": g["filter_w"],
        "output_h": g["output_h"], "output_w": g["output_w"], "output_c": out_ch,
        "stride_h": g["stride_h"], "stride_w": g["stride_w"],
        "pad_h": g["pad_h"], "pad_w": g["pad_w"],
        "dilation_h": g["dilation_h"], "dilation_w": g["dilation_w"],
        "input_offset": -inp.zero_point, "output_offset": out.zero_point,
        "act_min": act_min, "act_max": act_max,
    }
    tables = [ParamArray("int32_t", multipliers), ParamArray("int32_t", shifts)]
    tensors = [TensorRef(inp.index), TensorRef(weights.index),
               optional_ref(bias), TensorRef(out.index)]
    return fields, tables, tensors


def _pointwise(f):
    return (f["pad_h"] == 0 and f["pad_w"] == 0 and f["filter_h"] == 1 and f["filter_w"] == 1
            and f["dilation_h"] == 1 and f["dilation_w"] == 1)


def conv_kernel(f, pointwise_im2col=False):
    """The kernel arm_convolve_wrapper_s8 dispatches an ungrouped convolution to (the same choice
    on MVE), or with
    pointwise_im2col arm_convolve_s8 for a 1x1 one too: same sums, a 4 x input channels scratch,
    and on cores without DSP an output that may overlap its input (the 1x1 kernels re-read all
    their input once per output channel pair); compile_model takes it where the arena shrinks."""
    if _pointwise(f) and not pointwise_im2col:
        return "arm_convolve_1x1_s8_fast" if f["stride_h"] == 1 and f["stride_w"] == 1 else "arm_convolve_1x1_s8"
    if f["input_h"] == 1 and f["dilation_w"] == 1 and f["filter_h"] == 1 and (f["stride_w"] * f["input_c"]) % 4 == 0:
        return "arm_convolve_1_x_n_s8"
    return "tinyaot_cmsis_convolve_s8"  # arm_convolve_s8


def depthwise_kernel(f, arch):
    """The kernel arm_depthwise_conv_wrapper_s8 dispatches to. On MVE it has no 3x3 kernel, and
    turns one input channel into many outputs into a convolution, its filter transposed into the
    scratch buffer at each call: that case calls the wrapper itself."""
    if arch == "mve":
        if f["input_c"] == 1 and f["output_c"] > MVE_DW_TO_CONV_ABOVE:
            return "arm_depthwise_conv_wrapper_s8"
        if f["ch_mult"] == 1 and f["input_n"] == 1 and f["dilation_h"] == 1 and f["dilation_w"] == 1:
            return "arm_depthwise_conv_s8_opt"
        return "arm_depthwise_conv_s8"
    if f["ch_mult"] == 1 and f["input_n"] == 1 and f["dilation_h"] == 1 and f["dilation_w"] == 1:
        if f["filter_h"] == 3 and f["filter_w"] == 3 and f["pad_h"] <= 1 and f["pad_w"] <= 1:
            return "arm_depthwise_conv_3x3_s8"
        return "arm_depthwise_conv_s8_opt"
    return "arm_depthwise_conv_s8"


def _lower_conv(ctx, arch, _portable, pointwise_im2col=False):
    fields, tables, tensors = _conv_common(ctx, ctx.input(1).shape[1:3])
    params = ParamStruct("struct tinyaot_cmsis_conv_params", {**fields, "ch_mult": 1})
    kernel = conv_kernel(params.fields, pointwise_im2col)
    size = conv_buffer_size(fields, kernel, arch)
    return call("tinyaot_cmsis_conv_s8", params, tables, tensors, size, [kernel],
                 cmsis_nn_overlap.convolution(kernel, ctx.input(0), ctx.output(), params.fields))


def _lower_depthwise(ctx, arch, _portable):
    fields, tables, tensors = _conv_common(ctx, ctx.input(1).shape[1:3])
    if arch == "mve" and fields["input_c"] == 1:
        return _one_channel_as_conv(ctx, arch, fields, tables, tensors)
    ch_mult = ctx.op.options.get("depth_multiplier", 1)
    size = depthwise_buffer_size(fields, arch)
    params = ParamStruct("struct tinyaot_cmsis_conv_params", {**fields, "ch_mult": ch_mult})
    kernel = depthwise_kernel(params.fields, arch)
    return call("tinyaot_cmsis_depthwise_conv_s8", params, tables, tensors, size, [kernel],
                 overlaps=cmsis_nn_overlap.depthwise(kernel, ctx.input(0), ctx.output(), params.fields))


def _one_channel_as_conv(ctx, arch, fields, tables, tensors):
    """On MVE a depthwise convolution of one input channel is the convolution of its multiplier's
    filters, as CMSIS-NN's wrapper makes it above 8 outputs (arm_depthwise_conv_to_conv_s8), but
    with the filter transposed here once, into flash, instead of into the scratch at each call,
    and at any output count: at 8 and below the wrapper keeps arm_depthwise_conv_s8 (micro_speech's
    layer on mps3_an547: 3.1 instructions per multiply-accumulate, 3.0 as arm_convolve_s8)."""
    weights = ctx.input(1)
    params = ParamStruct("struct tinyaot_cmsis_conv_params", {**fields, "ch_mult": 1})
    kernel = conv_kernel(params.fields)
    transposed = np.ascontiguousarray(np.transpose(weights.data, (3, 1, 2, 0))).reshape(-1)
    tensors = [tensors[0], ParamArray("int8_t", transposed, True), *tensors[2:]]
    return call("tinyaot_cmsis_conv_s8", params, tables, tensors, conv_buffer_size(fields, kernel, arch), [kernel],
                 cmsis_nn_overlap.convolution(kernel, ctx.input(0), ctx.output(), params.fields))


def _lower_fully_connected(ctx, arch, _portable):
    """arm_fully_connected_s8 and _per_channel_s8 want the kernel sums only on MVE: computed here."""
    inp, weights, bias, out = ctx.input(0), ctx.input(1), ctx.input(2, optional=True), ctx.output()
    output_depth, accum_depth = weights.shape
    multipliers, shifts = per_channel_multipliers(inp.scale, weights.quant.scale, out.scale)
    act_min, act_max = ctx.activation(out)
    params = ParamStruct("struct tinyaot_cmsis_fc_params", {
        "batches": inp.num_elements // accum_depth,
        "accum_depth": accum_depth,
        "output_depth": output_depth,
        "input_offset": -inp.zero_point,
        "filter_offset": -weights.zero_point,
        "output_offset": out.zero_point,
        "act_min": act_min, "act_max": act_max,
        "per_channel": int(weights.quant.per_channel),
    })
    tensors = [TensorRef(inp.index), TensorRef(weights.index),
               optional_ref(bias), TensorRef(out.index)]
    sums = ParamArray("int32_t", kernel_sums(weights.data, None if bias is None else bias.data,
                                            -inp.zero_point, -weights.zero_point)) \
        if arch == "mve" else "NULL"
    return [KernelCall("tinyaot_cmsis_fully_connected_s8",
                       [params, ParamArray("int32_t", multipliers), ParamArray("int32_t", shifts), sums, *tensors],
                       header=HEADER)]


def kernel_sums(weights, bias, input_offset, filter_offset):
    """arm_vector_sum_s8's table: per output row, bias + input_offset x (sum of the row's weights +
    columns x filter_offset), in int32 as CMSIS-NN computes it (the bias alone when input_offset is 0)."""
    rows, cols = weights.shape
    sums = np.zeros(rows, np.int64) if bias is None else bias.astype(np.int64)
    if input_offset:
        row = weights.astype(np.int64).sum(axis=1) + cols * filter_offset
        sums = sums + row * input_offset
    return sums.astype(np.uint32).astype(np.int32)  # int32 wrap-around, as the C sums


def _portable_fields(portable_calls, *names):
    """Fields of the (single) portable call's parameter struct: the validated constants."""
    (call,) = portable_calls
    return {k: call.args[0].fields[k] for k in names}


POOL_FIELDS = ("batches", "input_h", "input_w", "channels", "filter_h", "filter_w", "output_h", "output_w",
               "stride_h", "stride_w", "pad_h", "pad_w", "act_min", "act_max")


def _lower_pool(ctx, arch, portable):
    is_max = ctx.op.type == "MAX_POOL_2D"
    params = ParamStruct("struct tinyaot_cmsis_pool_params",
                         {"max": int(is_max), **_portable_fields(portable, *POOL_FIELDS)})
    # arm_avgpool_s16_get_buffer_size is arm_avgpool_s8's (its DSP path leaves the buffer unused).
    size = 0 if is_max else avgpool_buffer_size(arch, params.fields["channels"])
    inp, out = ctx.input(0), ctx.output()
    return call("tinyaot_cmsis_pool_" + _suffix(inp), params, [], [TensorRef(inp.index), TensorRef(out.index)], size,
                 overlaps=cmsis_nn_overlap.pooling(is_max, inp, out, params.fields))


def avgpool_buffer_size(arch, channels):
    """arm_avgpool_s8_get_buffer_size[_dsp|_mve]: one int32 sum per channel with DSP, none on MVE
    (max pooling needs none)."""
    return 4 * channels if arch == "dsp" else 0


def _lower_softmax(ctx, _arch, portable):
    f = _portable_fields(portable, "outer_size", "depth", "input_multiplier", "input_left_shift", "diff_min")
    inp, out = ctx.input(0), ctx.output()
    kernel = "tinyaot_cmsis_softmax_s8" if out.dtype == "int8" else "tinyaot_cmsis_softmax_s8_s16"
    return [KernelCall(kernel, [ParamStruct("struct tinyaot_cmsis_softmax_params", f), TensorRef(inp.index),
                                TensorRef(out.index)], header=HEADER,
                       overlaps=cmsis_nn_overlap.elementwise([inp], out))]


def _suffix(tensor):
    return "s16" if tensor.dtype == "int16" else "s8"


def _lower_elementwise(kernel, ctype, names):
    """kernel: the name but its _s8 or _s16 suffix."""
    def lower(ctx, _arch, portable):
        params = ParamStruct(ctype, _portable_fields(portable, "size", *names))
        a, b, out = ctx.input(0), ctx.input(1), ctx.output()
        tensors = [TensorRef(a.index), TensorRef(b.index), TensorRef(out.index)]
        return [KernelCall(f"{kernel}_{_suffix(a)}", [params, *tensors],
                           header=HEADER, overlaps=cmsis_nn_overlap.elementwise([a, b], out))]
    return lower


def _lower_svdf(ctx, _arch, portable):
    """arm_svdf_state_s16_s8 (int16 state and time weights, as TFLM's CMSIS-NN glue): its two
    int32 buffers (per filter, per unit) are scratch in the arena."""
    f = _portable_fields(portable, "batches", "input_size", "num_units", "rank", "memory_size", "output_offset",
                         "multiplier_1", "shift_1", "multiplier_2", "shift_2")
    f["input_zero_point"] = ctx.input(0).zero_point  # CMSIS-NN's svdf takes the zero point itself
    inp, feature, time, bias, state = (ctx.input(k, optional=True) for k in range(5))
    num_filters = f["num_units"] * f["rank"]
    scratch = [4 * f["batches"] * num_filters, 4 * f["batches"] * f["num_units"]]
    return [KernelCall("tinyaot_cmsis_svdf_s8", [
        ParamStruct("struct tinyaot_cmsis_svdf_params", f), ScratchRef(0, "int32_t"), ScratchRef(1, "int32_t"),
        *(TensorRef(t.index) for t in (inp, feature, time)), optional_ref(bias),
        TensorRef(state.index), TensorRef(ctx.output().index),
    ], scratch=scratch, header=HEADER)]


_OFFSETS_AND_RANGE = ("input1_offset", "input2_offset", "output_offset", "output_multiplier", "output_shift",
                      "act_min", "act_max")
# The portable lowerings of the operators FASTER_PORTABLE's kernels take (called again for
# CMSIS-NN where those are not the faster).
_HANDLERS_PORTABLE = {"ADD": elementwise.lower_add}
_HANDLERS = {
    "CONV_2D": _lower_conv, "DEPTHWISE_CONV_2D": _lower_depthwise, "FULLY_CONNECTED": _lower_fully_connected,
    "AVERAGE_POOL_2D": _lower_pool, "MAX_POOL_2D": _lower_pool,
    "SOFTMAX": _lower_softmax,
    "ADD": _lower_elementwise("tinyaot_cmsis_add", "struct tinyaot_cmsis_add_params", (
        *_OFFSETS_AND_RANGE, "left_shift", "input1_multiplier", "input1_shift", "input2_multiplier",
        "input2_shift")),
    "MUL": _lower_elementwise("tinyaot_cmsis_mul", "struct tinyaot_cmsis_mul_params", _OFFSETS_AND_RANGE),
    "SVDF": _lower_svdf,
    "UNIDIRECTIONAL_SEQUENCE_LSTM": cmsis_nn_lstm.lower,
}


def _aligned4(n):
    return n + (4 - n % 4) % 4


def conv_buffer_size(f, kernel=None, arch="scalar"):
    """arm_convolve_wrapper_s8_get_buffer_size[_dsp|_mve] (built by GCC) for an ungrouped convolution
    on the wrapper's kernel (arm_convolve_s8_get_buffer_size for `kernel` arm_convolve_s8): the same
    on every non-MVE core."""
    kernel = kernel or conv_kernel(f)
    if kernel.startswith("arm_convolve_1x1"):
        return 0  # arm_convolve_1x1_s8_fast asks for a buffer only when built by armclang
    if arch == "mve":
        return _conv_1_x_n_buffer_size_mve(f) if kernel == "arm_convolve_1_x_n_s8" else _im2col_size_mve(f)
    # The 1xN path and the general path ask for the same im2col buffer off MVE.
    return 2 * _aligned4(f["filter_w"] * f["filter_h"] * f["input_c"]) * 2


def _im2col_size_mve(f):
    """arm_convolve_s8_get_buffer_size_mve: four im2col columns, each whole 16-byte vectors."""
    return 4 * 16 * ((f["input_c"] * f["filter_w"] * f["filter_h"] + 15) // 16)


def _conv_1_x_n_buffer_size_mve(f):
    """arm_convolve_1_x_n_s8_get_buffer_size_mve: one padded row of windows, or arm_convolve_s8's
    buffer where the kernel falls back to it (padding that does not split the row)."""
    c, stride, pad = f["input_c"], f["stride_w"], f["pad_w"]
    asym_pad = ((f["output_w"] - 1) * stride + f["filter_w"] - f["input_w"]) % 2
    right = max(1, (pad + asym_pad + stride - 1) // stride) if pad + asym_pad != 0 else 0
    left = max(1, (pad + stride - 1) // stride) if pad != 0 else 0
    if right + max(f["output_w"] - (right + left), 0) + left != f["output_w"]:
        return _im2col_size_mve(f)
    pad_left = pad * c
    pad_right = right * c if asym_pad else pad_left
    elem_left = f["filter_w"] * c
    return max(elem_left + pad_left, elem_left - c + pad_right)


# CONVERT_DW_CONV_WITH_ONE_INPUT_CH_AND_OUTPUT_CH_ABOVE_THRESHOLD built by GCC (8 with armclang).
MVE_DW_TO_CONV_ABOVE = 1


def depthwise_buffer_size(f, arch):
    """arm_depthwise_conv_wrapper_s8_get_buffer_size[_dsp|_mve]."""
    if arch == "mve":
        return _depthwise_buffer_size_mve(f)
    if f["input_c"] != f["output_c"] or f["input_n"] != 1 or f["dilation_h"] != 1 or f["dilation_w"] != 1:
        return 0
    if f["filter_w"] == 3 and f["filter_h"] == 3 and f["pad_h"] <= 1 and f["pad_w"] <= 1:
        return 0  # arm_depthwise_conv_3x3_s8 needs no buffer
    return f["input_c"] * f["filter_w"] * f["filter_h"] * 2 if arch == "dsp" else 0


def _depthwise_buffer_size_mve(f):
    """arm_depthwise_conv_wrapper_s8_get_buffer_size_mve: arm_depthwise_conv_s8_opt's blocks of
    CH_IN_BLOCK_MVE (124) channels, four columns of them; one input channel into more outputs than
    the threshold, a convolution's buffer and the transposed filter, if that is larger."""
    size = 0
    if f["input_c"] == f["output_c"] and f["input_n"] == 1 and f["dilation_h"] == 1 and f["dilation_w"] == 1:
        size = 4 * 124 * f["filter_w"] * f["filter_h"]
    if f["input_c"] == 1 and f["output_c"] > MVE_DW_TO_CONV_ABOVE:
        as_conv = {**f, "input_c": 1}
        to_conv = conv_buffer_size(as_conv, None, "mve") + f["output_c"] * f["filter_h"] * f["filter_w"]
        size = max(size, to_conv)
    return size
