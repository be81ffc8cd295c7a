"""TRANSPOSE_CONV: int8 input and output, int8 weights [out ch, h, w, in ch]
(per-channel or per-tensor, symmetric), optional int32 bias, SAME/VALID; 16x8
(int16 input and output, int64 or int16 bias) in ops/s16.py; float32 throughout
(ops/float32.py).

As TFLM's transpose_conv.cc: the padding is ComputePaddingHeightWidth with the
output as the forward convolution's input (dilation 1), the multipliers
PopulateConvolutionQuantizationParams's; the kernel needs an int32 scratch
copy of the output, planned in the arena like TFLM's scratch buffer.
"""

from tinyaot.ops import float32, s16
from tinyaot.ops.base import KernelCall, ParamStruct, ScratchRef, TensorRef, optional_ref
from tinyaot.ops.conv import (PADDING_NAMES, PADDING_SAME, _check_bias, _check_filter, _quant_fields,
                              expect_output_scale, expect_rank4, out_size, padding_before)
from tinyaot.ops.strided_copy import constant_ints


def lower_transpose_conv(ctx):
    n_in = len(ctx.op.inputs)
    ctx.expect(n_in in (3, 4), f"has {n_in} inputs (expects output shape, weights, input and an optional bias)")
    shape_t, weights, inp, out = ctx.input(0), ctx.input(1), ctx.input(2), ctx.output()
    bias = ctx.input(3, optional=True) if n_in > 3 else None
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    if inp.dtype == "int16":
        s16.expect_symmetric_int16(ctx, inp, out)
    if inp.dtype == "float32":
        ctx.expect_dtype(out, "float32")
    else:
        for t in (inp, out):
            ctx.expect_dtype(t, inp.dtype)
            ctx.expect_quantized(t)
        expect_output_scale(ctx, out)
    expect_rank4(ctx, inp, weights, out)
    out_ch, filter_h, filter_w, filter_ch = weights.shape
    # TFLM never reads the output shape input (the output tensor's own shape rules), so one
    # computed at run time is taken as TFLM takes it; a constant one must agree.
    if shape_t.is_constant:
        ctx.expect(constant_ints(ctx, shape_t) == list(out.shape),
                   f"output shape input {constant_ints(ctx, shape_t)} differs from the output's {list(out.shape)}",
                   shape_t.index)
    ctx.expect(out.shape[0] == inp.shape[0] and out.shape[3] == out_ch and filter_ch == inp.shape[3],
               f"input {list(inp.shape)}, filter {list(weights.shape)} and output {list(out.shape)} do not match",
               weights.index)
    if inp.dtype != "float32":
        _check_filter(ctx, weights, out_ch, axis=0)
    opts = ctx.op.options
    padding = opts.get("padding", PADDING_SAME)
    ctx.expect(padding in PADDING_NAMES, f"padding {padding} is not supported (supported: SAME, VALID)")
    stride_h, stride_w = opts.get("stride_h", 1), opts.get("stride_w", 1)
    ctx.expect(stride_h >= 1 and stride_w >= 1, f"strides must be at least 1, not {stride_h}x{stride_w}")
    _, out_h, out_w, _ = out.shape
    # The forward convolution of the output must give the input's size.
    fwd_h, fwd_w = out_size(padding, out_h, filter_h, stride_h, 1), out_size(padding, out_w, filter_w, stride_w, 1)
    ctx.expect((fwd_h, fwd_w) == tuple(inp.shape[1:3]),
               f"a {out_h}x{out_w} output with {PADDING_NAMES[padding]} padding and stride {stride_h}x{stride_w} "
               f"comes from a {fwd_h}x{fwd_w} input, not {inp.shape[1]}x{inp.shape[2]}", inp.index)
    geometry = {
        "batches": inp.shape[0],
        "input_h": inp.shape[1], "input_w": inp.shape[2], "input_ch": inp.shape[3],
        "output_h": out_h, "output_w": out_w, "output_ch": out_ch,
        "filter_h": filter_h, "filter_w": filter_w,
        "stride_h": stride_h, "stride_w": stride_w,
        "pad_h": padding_before(out_h, filter_h, stride_h, 1, fwd_h),
        "pad_w": padding_before(out_w, filter_w, stride_w, 1, fwd_w),
    }
    if inp.dtype == "float32":
        _check_bias(ctx, bias, out_ch, "float32")
        return float32.transpose_conv(ctx, inp, weights, bias, out, geometry)
    if inp.dtype == "int16":
        return s16.transpose_conv(ctx, inp, weights, bias, out, geometry)
    _check_bias(ctx, bias, out_ch)
    quant, multipliers, shifts = _quant_fields(ctx, inp, weights, out)
    params = ParamStruct("struct tinyaot_transpose_conv_params", {**geometry, **quant})
    bias_arg = optional_ref(bias)
    return [KernelCall("tinyaot_transpose_conv_s8", [
        params, multipliers, shifts, TensorRef(inp.index), TensorRef(weights.index), bias_arg,
        TensorRef(out.index), ScratchRef(0, "int32_t")], scratch=[4 * out.num_elements])]


OPS = {"TRANSPOSE_CONV": lower_transpose_conv}
