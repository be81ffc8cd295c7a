"""AVERAGE_POOL_2D and MAX_POOL_2D, int8, int16 (16x8) or float32 (ops/float32.py); L2_POOL_2D,
float32 only (as TFLM).

Like TFLM, pooling never requantizes: input and output must share scale and
zero point (TFLM's Prepare refuses the model otherwise).
"""

from tinyaot.ops import float32, overlap
from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.conv import expect_output_scale, expect_rank4, window_geometry


_FLOAT_KINDS = {"tinyaot_avg_pool_s8": "TINYAOT_POOL_F32_AVERAGE", "tinyaot_max_pool_s8": "TINYAOT_POOL_F32_MAX",
                None: "TINYAOT_POOL_F32_L2"}


def _lower(ctx, kernel):
    """kernel: the int8 kernel, None for L2_POOL_2D (float32 only)."""
    inp, out = ctx.input(0), ctx.output()
    ctx.expect_dtype(inp, *(("int8", "int16", "float32") if kernel else ("float32",)))
    is_float = inp.dtype == "float32"
    for t in (inp, out):
        ctx.expect_dtype(t, inp.dtype)
        if not is_float:
            ctx.expect_quantized(t)
    expect_rank4(ctx, inp, out)
    ctx.expect(out.shape[0] == inp.shape[0] and out.shape[3] == inp.shape[3],
               f"output batch and channels {out.shape[0]}, {out.shape[3]} differ from the input's "
               f"{inp.shape[0]}, {inp.shape[3]}", out.index)
    if not is_float:
        expect_output_scale(ctx, out)
        # Same test as TFLM's PoolingPrepare: scales compared in double, within 1e-6.
        ctx.expect(abs(float(inp.scale) - float(out.scale)) <= 1.0e-6 and inp.zero_point == out.zero_point,
                   f"output quantization (scale {float(out.scale):g}, zero point {out.zero_point}) must equal "
                   f"the input's (scale {float(inp.scale):g}, zero point {inp.zero_point}): pooling does not "
                   "requantize", out.index)
    opts = ctx.op.options
    geometry = window_geometry(ctx, inp, out, opts.get("filter_height", 0), opts.get("filter_width", 0),
                               dilation=False)
    # TFLM's AveragePool fails at run time on a window with no tap inside the input.
    # TFLite's padding never makes one, but say so here rather than divide by zero later.
    for axis, size, o, s, p, f in ((1, inp.shape[1], "output_h", "stride_h", "pad_h", "filter_h"),
                                   (2, inp.shape[2], "output_w", "stride_w", "pad_w", "filter_w")):
        for i in range(geometry[o]):
            start = i * geometry[s] - geometry[p]
            ctx.expect(start + geometry[f] > 0 and start < size,
                       f"pooling window {i} on axis {axis} lies entirely in the padding")
    if is_float:
        return float32.pool(ctx, _FLOAT_KINDS[kernel], inp, out, geometry)
    act_min, act_max = ctx.activation(out)
    # Both kernels take tinyaot_pool.h's parameters.
    params = ParamStruct("struct tinyaot_pool_params", {
        "batches": inp.shape[0],
        "input_h": inp.shape[1], "input_w": inp.shape[2], "channels": inp.shape[3],
        **geometry,
        "act_min": act_min, "act_max": act_max,
    })
    if inp.dtype == "int16":
        return [KernelCall("tinyaot_pool_s16", [params, int(kernel == "tinyaot_avg_pool_s8"), TensorRef(inp.index),
                                                TensorRef(out.index)], overlaps=overlap.pooling(inp, out, geometry))]
    return [KernelCall(kernel, [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.pooling(inp, out, geometry))]


def lower_average_pool(ctx):
    return _lower(ctx, "tinyaot_avg_pool_s8")


def lower_max_pool(ctx):
    return _lower(ctx, "tinyaot_max_pool_s8")


OPS = {"AVERAGE_POOL_2D": lower_average_pool, "MAX_POOL_2D": lower_max_pool,
       "L2_POOL_2D": lambda ctx: _lower(ctx, None)}
