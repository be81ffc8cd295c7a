"""RESIZE_NEAREST_NEIGHBOR (int8, int16, float32) and RESIZE_BILINEAR (int8, float32)
of NHWC tensors to a constant size.

Where each output row and column comes from is computed here as TFLM's
reference kernels compute it (GetNearestNeighbor's float32 arithmetic,
ComputeInterpolationValuesInteger's 1/1024 steps, ComputeInterpolationValues'
float32 arithmetic), so the kernels only read tables: the nearest pixel to
copy, or the two neighbours and their weights.
"""

import math

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints, expect_moved_values
from tinyaot.quant import tf_round


def _resize_scale_f32(input_size, output_size, align_corners):
    """The float32 input/output size ratio TFLM's resize operators compute (corners aligned: between
    the outer pixels' centres)."""
    f32 = np.float32
    if align_corners and output_size > 1:
        return f32(input_size - 1) / f32(output_size - 1)
    return f32(input_size) / f32(output_size)


def nearest_neighbor(i, input_size, output_size, align_corners, half_pixel_centers):
    """tflite::reference_ops::GetNearestNeighbor, in float32 as TFLM computes it."""
    f32 = np.float32
    scale = _resize_scale_f32(input_size, output_size, align_corners)
    value = (f32(i) + f32(0.5 if half_pixel_centers else 0.0)) * scale
    index = int(tf_round(float(value))) if align_corners else math.floor(float(value))
    index = min(index, input_size - 1)
    return max(0, index) if half_pixel_centers else index


def _resize_operands(ctx, dtypes):
    """(input, output, output height, output width), checked as TFLM's Prepare does."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs (input, size), has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    ctx.expect(len(inp.shape) == 4, f"input must be 4-D (NHWC), is {list(inp.shape)}", inp.index)
    expect_moved_values(ctx, inp, [out], dtypes)
    size = constant_ints(ctx, ctx.input(1))
    ctx.expect(len(size) == 2 and min(size) >= 1, f"size {size} must be two positive values (height, width)",
               ctx.op.inputs[1])
    expected = [inp.shape[0], size[0], size[1], inp.shape[3]]
    ctx.expect(list(out.shape) == expected, f"output shape {list(out.shape)} should be {expected}", out.index)
    return inp, out, size[0], size[1]


def _corner_options(ctx):
    """(align_corners, half_pixel_centers) of the operator's options."""
    return (bool(ctx.op.options.get("align_corners", False)),
            bool(ctx.op.options.get("half_pixel_centers", False)))


def _int32_table(values):
    return ParamArray("int32_t", np.array(values, np.int32))


def _resize_call(kernel, params_struct, inp, out, height, width, fields, tables):
    """The call of KERNEL: its parameters (struct PARAMS_STRUCT: the output size, then FIELDS),
    its tables, the input and the output."""
    params = ParamStruct(f"struct {params_struct}", {
        "batches": inp.shape[0], "output_height": height, "output_width": width, **fields})
    return [KernelCall(kernel, [params, *tables, TensorRef(inp.index), TensorRef(out.index)])]


def lower_resize_nearest_neighbor(ctx):
    inp, out, height, width = _resize_operands(ctx, ("int8", "int16", "float32"))
    align, half = _corner_options(ctx)
    _, in_h, in_w, depth = inp.shape
    pixel = depth * inp.itemsize
    rows = [nearest_neighbor(y, in_h, height, align, half) * in_w * pixel for y in range(height)]
    cols = [nearest_neighbor(x, in_w, width, align, half) * pixel for x in range(width)]
    return _resize_call("tinyaot_resize_nearest", "tinyaot_resize_nearest_params", inp, out, height, width,
                        {"pixel_bytes": pixel, "input_batch_bytes": in_h * in_w * pixel},
                        [_int32_table(rows), _int32_table(cols)])


def _scale_10(input_size, output_size, align_corners):
    """ResizeBilinearInteger's step in 1/1024 (integer division, rounded)."""
    if align_corners and output_size > 1:
        return ((1 << 10) * (input_size - 1) + (output_size - 1) // 2) // (output_size - 1)
    return ((1 << 10) * input_size + output_size // 2) // output_size


def _c_div(a, b):
    """C's integer division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def bilinear_neighbours(i, scale_10, half_pixel_centers, input_size):
    """ComputeInterpolationValuesInteger: (lower, upper, weight of upper in 1/1024)."""
    scaled = i * scale_10 + (_c_div(scale_10, 2) - (1 << 9) if half_pixel_centers else 0)
    lower = max(_c_div(scaled, 1 << 10), 0)
    upper = min(_c_div(scaled + (1 << 10) - 1, 1 << 10), input_size - 1)
    return lower, upper, scaled - (1 << 10) * lower


def bilinear_neighbours_f32(i, input_size, output_size, align_corners, half_pixel_centers):
    """reference_ops::ResizeBilinear's scale and ComputeInterpolationValues, in float32:
    (lower, upper, 1 - weight of upper, weight of upper)."""
    f32 = np.float32
    scale = _resize_scale_f32(input_size, output_size, align_corners)
    scaled = (f32(i) + f32(0.5)) * scale - f32(0.5) if half_pixel_centers else f32(i) * scale
    lower = max(math.floor(float(scaled)), 0)
    upper = min(math.ceil(float(scaled)), input_size - 1)
    weight = scaled - f32(lower)
    return lower, upper, f32(1) - weight, weight


def _lower_resize_bilinear_f32(ctx, inp, out, height, width, align, half):
    _, in_h, in_w, depth = inp.shape
    tables = []
    for size, in_size, step in ((height, in_h, in_w * depth), (width, in_w, depth)):
        offsets, weights = [], []
        for i in range(size):
            lower, upper, w0, w1 = bilinear_neighbours_f32(i, in_size, size, align, half)
            offsets += [lower * step, upper * step]
            weights += [w0, w1]
        tables += [_int32_table(offsets), ParamArray("float", np.array(weights, np.float32))]
    return _resize_call("tinyaot_resize_bilinear_f32", "tinyaot_resize_bilinear_params", inp, out, height, width,
                        {"depth": depth, "input_batch_size": in_h * in_w * depth}, tables)


def lower_resize_bilinear(ctx):
    inp, out, height, width = _resize_operands(ctx, ("int8", "float32"))
    align, half = _corner_options(ctx)
    ctx.expect(not (align and half), "half_pixel_centers and align_corners are both set (TFLM refuses it)")
    if inp.dtype == "float32":
        return _lower_resize_bilinear_f32(ctx, inp, out, height, width, align, half)
    _, in_h, in_w, depth = inp.shape
    rows, cols = [], []
    for y in range(height):
        y0, y1, wy = bilinear_neighbours(y, _scale_10(in_h, height, align), half, in_h)
        rows += [y0 * in_w * depth, y1 * in_w * depth, wy]
    for x in range(width):
        x0, x1, wx = bilinear_neighbours(x, _scale_10(in_w, width, align), half, in_w)
        cols += [x0 * depth, x1 * depth, wx]
    return _resize_call("tinyaot_resize_bilinear_s8", "tinyaot_resize_bilinear_params", inp, out, height, width,
                        {"depth": depth, "input_batch_size": in_h * in_w * depth},
                        [_int32_table(rows), _int32_table(cols)])


OPS = {"RESIZE_NEAREST_NEIGHBOR": lower_resize_nearest_neighbor, "RESIZE_BILINEAR": lower_resize_bilinear}
