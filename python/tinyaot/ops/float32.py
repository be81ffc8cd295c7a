"""float32 lowerings of the operators whose int8 lowering lives elsewhere:
CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, AVERAGE_POOL_2D, MAX_POOL_2D, SOFTMAX,
LOGISTIC and TANH. Each reproduces TFLM's float reference kernel operation for
operation (see the kernels' headers), so results are TFLM's bit for bit where
the C compiler does not fuse multiplies and adds; SOFTMAX, LOGISTIC and TANH
use the C library's expf/tanhf, as TFLM does.

The int8 modules dispatch here on the input's dtype; the shape and geometry
checks are theirs, shared.
"""

import numpy as np

from tinyaot.ops import overlap
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef, optional_ref, window_fields
from tinyaot.quant import float_activation_range


def expect_float32(ctx, *tensors):
    for t in tensors:
        if t is not None:
            ctx.expect_dtype(t, "float32")


def activation_range(ctx):
    return float_activation_range(ctx.op.options.get("fused_activation_function", 0),
                                  lambda message: ctx.error(message))


def conv(ctx, inp, weights, bias, out, geometry, groups):
    expect_float32(ctx, weights, bias)
    act_min, act_max = activation_range(ctx)
    params = ParamStruct("struct tinyaot_conv2d_f32_params", {
        **window_fields(inp, geometry),
        "filter_ch": weights.shape[3],
        "filters_per_group": out.shape[3] // groups,
        "output_h": geometry["output_h"], "output_w": geometry["output_w"], "output_ch": out.shape[3],
        "act_min": act_min, "act_max": act_max,
    })
    return [KernelCall("tinyaot_conv2d_f32", [params, TensorRef(inp.index), TensorRef(weights.index),
                                              optional_ref(bias), TensorRef(out.index)],
                       overlaps=overlap.convolution_per_filter(inp, out, geometry, groups))]


def depthwise(ctx, inp, weights, bias, out, geometry, multiplier):
    expect_float32(ctx, weights, bias)
    act_min, act_max = activation_range(ctx)
    params = ParamStruct("struct tinyaot_depthwise_conv2d_f32_params", {
        **window_fields(inp, geometry),
        "depth_multiplier": multiplier,
        "output_h": geometry["output_h"], "output_w": geometry["output_w"],
        "act_min": act_min, "act_max": act_max,
    })
    return [KernelCall("tinyaot_depthwise_conv2d_f32", [params, TensorRef(inp.index), TensorRef(weights.index),
                                                        optional_ref(bias), TensorRef(out.index)],
                       overlaps=overlap.depthwise(inp, out, geometry, multiplier))]


def transpose_conv(ctx, inp, weights, bias, out, geometry):
    """geometry: the fields of struct tinyaot_transpose_conv_params up to pad_w (ops/transpose_conv.py)."""
    expect_float32(ctx, weights, bias)
    act_min, act_max = activation_range(ctx)
    params = ParamStruct("struct tinyaot_transpose_conv_f32_params", {
        **geometry, "act_min": act_min, "act_max": act_max})
    return [KernelCall("tinyaot_transpose_conv_f32", [params, TensorRef(inp.index), TensorRef(weights.index),
                                                      optional_ref(bias), TensorRef(out.index)])]


def pool(ctx, kind, inp, out, geometry):
    """kind: TINYAOT_POOL_F32_MAX, _AVERAGE or _L2."""
    act_min, act_max = activation_range(ctx)
    params = ParamStruct("struct tinyaot_pool_f32_params", {
        "batches": inp.shape[0],
        "input_h": inp.shape[1], "input_w": inp.shape[2], "channels": inp.shape[3],
        **geometry,
        "kind": kind,
        "act_min": act_min, "act_max": act_max,
    })
    return [KernelCall("tinyaot_pool_f32", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.pooling(inp, out, geometry))]


def softmax(ctx, inp, out):
    expect_float32(ctx, out)
    beta = np.float32(ctx.op.options.get("beta", 0.0))
    ctx.expect(np.isfinite(beta), f"beta {beta} is not finite")
    depth = inp.shape[-1]
    params = ParamStruct("struct tinyaot_softmax_f32_params", {
        "outer_size": inp.num_elements // depth if depth else 0, "depth": depth, "beta": float(beta)})
    return [KernelCall("tinyaot_softmax_f32", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]


def logistic_or_tanh(ctx, inp, out, tanh):
    expect_float32(ctx, out)
    params = ParamStruct("struct tinyaot_logistic_f32_params", {"size": inp.num_elements, "tanh": int(tanh)})
    return [KernelCall("tinyaot_logistic_f32", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]
