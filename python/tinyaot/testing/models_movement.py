"""Test models: operators that only move values (SLICE, STRIDED_SLICE, SPLIT,
SPLIT_V, UNPACK, PACK, TRANSPOSE, SPACE_TO_DEPTH, DEPTH_TO_SPACE), in every
dtype TFLM takes for them. Each case is a model output, compared with TFLM."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import test_model

Q8 = dict(scale=0.05, zero_point=-3)
Q16 = dict(scale=0.001, zero_point=0)


def _quant(dtype):
    return {"int8": Q8, "int16": Q16}.get(dtype, {})


def _tensor(mb, dtype, shape):
    return mb.tensor(f"y{len(mb.tensors)}", dtype, shape, **_quant(dtype))


def _out(mb, dtype, shape):
    return mb.output(_tensor(mb, dtype, shape))


def _ints(mb, values):
    return mb.const(f"c{len(mb.tensors)}", np.array(values, np.int32))


def _slice(mb, x, dtype, begin, size, shape):
    y = _out(mb, dtype, shape)
    mb.op("SLICE", [x, _ints(mb, begin), _ints(mb, size)], [y], "SliceOptions")


def _strided(mb, x, dtype, begin, end, strides, shape, **masks):
    y = _out(mb, dtype, shape)
    mb.op("STRIDED_SLICE", [x, _ints(mb, begin), _ints(mb, end), _ints(mb, strides)], [y],
          "StridedSliceOptions", **masks)


@test_model("slices")
def slices():
    """SLICE with a -1 size and STRIDED_SLICE with negative strides, negative
    begin/end, begin/end masks and a shrunk axis; int8, int16, int32, float32."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 5, 6, 3], **Q8)
    _slice(mb, x, "int8", [0, 1, 2, 0], [2, 3, -1, 2], [2, 3, 4, 2])
    _slice(mb, x, "int8", [1, 4, 0, 2], [1, 1, 6, 1], [1, 1, 6, 1])
    _strided(mb, x, "int8", [1, 4, 1, 0], [2, 0, 6, 3], [1, -1, 2, 1], [4, 3, 3], shrink_axis_mask=1)
    _strided(mb, x, "int8", [0, -2, -1, 0], [0, 5, 0, 0], [1, 1, -2, 2], [2, 2, 3, 2],
             begin_mask=0b1001, end_mask=0b1001)
    _strided(mb, x, "int8", [0, 0, 0, 1], [2, 5, 6, 2], [1, 2, 5, 1], [2, 3, 2], shrink_axis_mask=0b1000)
    h = mb.input("h", "int16", [4, 7], **Q16)
    _slice(mb, h, "int16", [1, 2], [3, 4], [3, 4])
    _strided(mb, h, "int16", [3, 6], [-5, -8], [-1, -3], [4, 3])
    i = mb.input("i", "int32", [3, 4, 2])
    _slice(mb, i, "int32", [1, 0, 1], [-1, 3, 1], [2, 3, 1])
    _strided(mb, i, "int32", [0, 1, 0], [3, 4, 2], [2, 2, 1], [2, 2, 2])
    f = mb.input("f", "float32", [4, 6])
    _slice(mb, f, "float32", [2, 1], [2, 5], [2, 5])
    _strided(mb, f, "float32", [-1, 0], [0, 6], [-1, 3], [4, 2], end_mask=0b01)
    return mb.build()


@test_model("splits")
def splits():
    """SPLIT (the channel axis, a negative axis, axis 0) and SPLIT_V (a -1 size,
    axis 0 and 1); int8, int32, float32."""
    mb = ModelBuilder()

    def split(x, dtype, axis, n, shape):
        ys = [_out(mb, dtype, shape) for _ in range(n)]
        mb.op("SPLIT", [_ints(mb, axis), x], ys, "SplitOptions", num_splits=n)

    def split_v(x, dtype, sizes, axis, shapes):
        ys = [_out(mb, dtype, s) for s in shapes]
        mb.op("SPLIT_V", [x, _ints(mb, sizes), _ints(mb, axis)], ys, "SplitVOptions", num_splits=len(ys))

    x = mb.input("x", "int8", [1, 4, 4, 6], **Q8)
    split(x, "int8", 3, 3, [1, 4, 4, 2])
    split(x, "int8", -3, 2, [1, 2, 4, 6])
    f = mb.input("f", "float32", [5, 4])
    split_v(f, "float32", [2, -1, 1], [0], [[2, 4], [2, 4], [1, 4]])
    i = mb.input("i", "int32", [6, 3])
    split_v(i, "int32", [1, 2], [1], [[6, 1], [6, 2]])
    split(i, "int32", 0, 3, [2, 3])
    return mb.build()


@test_model("packs_unpacks")
def packs_unpacks():
    """UNPACK on the first, a middle and the last axis, PACK on the first, a
    middle and the last (as -1) axis; int8, int16, float32."""
    mb = ModelBuilder()

    def unpack(x, dtype, axis, n, shape, keep=True):
        ys = [(_out if keep else _tensor)(mb, dtype, shape) for _ in range(n)]
        mb.op("UNPACK", [x], ys, "UnpackOptions", num=n, axis=axis)
        return ys

    def pack(xs, dtype, axis, shape):
        y = _out(mb, dtype, shape)
        mb.op("PACK", xs, [y], "PackOptions", values_count=len(xs), axis=axis)

    x = mb.input("x", "int8", [1, 4, 4, 6], **Q8)
    channels = unpack(x, "int8", 3, 6, [1, 4, 4], keep=False)
    pack(channels[1:4], "int8", 1, [1, 3, 4, 4])
    pack(channels[4:], "int8", -1, [1, 4, 4, 2])
    f = mb.input("f", "float32", [5, 4])
    rows = unpack(f, "float32", 0, 5, [4])
    pack(rows[::2], "float32", 0, [3, 4])
    h = mb.input("h", "int16", [3, 2, 4], **Q16)
    cols = unpack(h, "int16", 1, 2, [3, 4])
    pack(cols, "int16", 2, [3, 4, 2])
    return mb.build()


@test_model("transposes")
def transposes():
    """TRANSPOSE of 2-D to 5-D tensors (NHWC to NCHW, a full reversal);
    SPACE_TO_DEPTH and DEPTH_TO_SPACE with block sizes 2 and 3;
    int8, int16, float32."""
    mb = ModelBuilder()

    def transpose(x, dtype, perm, shape):
        y = _out(mb, dtype, shape)
        mb.op("TRANSPOSE", [x, _ints(mb, perm)], [y], "TransposeOptions")

    def block_op(op, x, dtype, block, shape):
        y = _out(mb, dtype, shape)
        options = "SpaceToDepthOptions" if op == "SPACE_TO_DEPTH" else "DepthToSpaceOptions"
        mb.op(op, [x], [y], options, block_size=block)

    x = mb.input("x", "int8", [1, 4, 6, 3], **Q8)
    transpose(x, "int8", [0, 3, 1, 2], [1, 3, 4, 6])
    transpose(x, "int8", [2, 1, 3, 0], [6, 4, 3, 1])
    block_op("SPACE_TO_DEPTH", x, "int8", 2, [1, 2, 3, 12])
    d = mb.input("d", "int8", [2, 2, 3, 8], **Q8)
    block_op("DEPTH_TO_SPACE", d, "int8", 2, [2, 4, 6, 2])
    s = mb.input("s", "int8", [2, 3, 1, 2, 2], **Q8)
    transpose(s, "int8", [4, 3, 2, 1, 0], [2, 2, 1, 3, 2])
    h = mb.input("h", "int16", [2, 3, 4], **Q16)
    transpose(h, "int16", [2, 0, 1], [4, 2, 3])
    f = mb.input("f", "float32", [1, 6, 3, 2])
    transpose(f, "float32", [1, 0, 3, 2], [6, 1, 2, 3])
    block_op("SPACE_TO_DEPTH", f, "float32", 3, [1, 2, 1, 18])
    g = mb.input("g", "float32", [1, 2, 2, 9])
    block_op("DEPTH_TO_SPACE", g, "float32", 3, [1, 6, 6, 1])
    return mb.build()


@test_model("resize_nearest")
def resize_nearest():
    """RESIZE_NEAREST_NEIGHBOR up, down and by uneven factors, with each of
    align_corners and half_pixel_centers; int8, int16, float32."""
    mb = ModelBuilder()

    def resize(x, dtype, size, depth, batches=1, **options):
        y = _out(mb, dtype, [batches, size[0], size[1], depth])
        mb.op("RESIZE_NEAREST_NEIGHBOR", [x, _ints(mb, size)], [y], "ResizeNearestNeighborOptions", **options)

    x = mb.input("x", "int8", [2, 3, 5, 3], **Q8)
    resize(x, "int8", [6, 10], 3, batches=2)
    resize(x, "int8", [7, 4], 3, batches=2, align_corners=True)
    resize(x, "int8", [5, 9], 3, batches=2, half_pixel_centers=True)
    resize(x, "int8", [2, 2], 3, batches=2, align_corners=True, half_pixel_centers=False)
    resize(x, "int8", [1, 13], 3, batches=2, half_pixel_centers=True)
    h = mb.input("h", "int16", [1, 4, 4, 2], **Q16)
    resize(h, "int16", [3, 8], 2, half_pixel_centers=True)
    f = mb.input("f", "float32", [1, 2, 3, 1])
    resize(f, "float32", [5, 5], 1, align_corners=True)
    return mb.build()


@test_model("gathers")
def gathers():
    """GATHER with constant indices: rows of a matrix (repeated, reordered),
    channels of an image (axis -1), a 2-D index tensor, batch_dims 1; int8 and
    float32."""
    mb = ModelBuilder()

    def gather(x, dtype, indices, shape, **options):
        y = _out(mb, dtype, shape)
        mb.op("GATHER", [x, _ints(mb, indices)], [y], "GatherOptions", **options)

    x = mb.input("x", "int8", [1, 4, 5, 6], **Q8)
    gather(x, "int8", [5, 0, 2, 2], [1, 4, 5, 4], axis=-1)
    gather(x, "int8", [[3, 1], [0, 0], [2, 3]], [1, 3, 2, 5, 6], axis=1)
    m = mb.input("m", "float32", [6, 3])
    gather(m, "float32", [4, 4, 1], [3, 3], axis=0)
    b = mb.input("b", "int8", [3, 5, 2], **Q8)
    gather(b, "int8", [[0, 4], [1, 1], [3, 2]], [3, 2, 2], axis=1, batch_dims=1)
    return mb.build()


@test_model("resize_bilinear")
def resize_bilinear():
    """RESIZE_BILINEAR (int8) up, down and by uneven factors, plain, with
    align_corners and with half_pixel_centers (whose first positions fall
    before the first pixel)."""
    mb = ModelBuilder()

    def resize(x, size, depth, batches=1, **options):
        y = _out(mb, "int8", [batches, size[0], size[1], depth])
        mb.op("RESIZE_BILINEAR", [x, _ints(mb, size)], [y], "ResizeBilinearOptions", **options)

    x = mb.input("x", "int8", [2, 3, 5, 3], **Q8)
    resize(x, [6, 10], 3, batches=2)
    resize(x, [7, 4], 3, batches=2, align_corners=True)
    resize(x, [5, 9], 3, batches=2, half_pixel_centers=True)
    resize(x, [2, 3], 3, batches=2, half_pixel_centers=True)
    resize(x, [1, 13], 3, batches=2, align_corners=True)
    s = mb.input("s", "int8", [1, 2, 2, 1], **Q8)
    resize(s, [8, 8], 1, half_pixel_centers=True)
    return mb.build()


@test_model("concat_dtypes")
def concat_dtypes():
    """CONCATENATION of float32, int16 and int32 tensors (int8 is in concat_axes)."""
    mb = ModelBuilder()

    def concat(xs, dtype, axis, shape):
        y = _out(mb, dtype, shape)
        mb.op("CONCATENATION", xs, [y], "ConcatenationOptions", axis=axis)

    f = [mb.input(f"f{k}", "float32", [2, n, 3]) for k, n in enumerate((1, 4, 2))]
    concat(f, "float32", 1, [2, 7, 3])
    h = [mb.input(f"h{k}", "int16", [n, 5], **Q16) for k, n in enumerate((3, 2))]
    concat(h, "int16", 0, [5, 5])
    i = [mb.input(f"i{k}", "int32", [4, n]) for k, n in enumerate((2, 1))]
    concat(i, "int32", -1, [4, 3])
    return mb.build()


@test_model("shape_of")
def shape_of():
    """SHAPE of an int8 4-D and a float32 2-D tensor (a build-time constant here), next to
    a value computed from the same input."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 5, 3, 2], **Q8)
    mb.op("SHAPE", [x], [_out(mb, "int32", [4])], "ShapeOptions", out_type=2)  # 2: INT32
    mb.op("RELU", [x], [_out(mb, "int8", [1, 5, 3, 2])])
    f = mb.input("f", "float32", [7, 3])
    mb.op("SHAPE", [f], [_out(mb, "int32", [2])], "ShapeOptions", out_type=2)
    return mb.build()


@test_model("fill_broadcast_reverse")
def fill_broadcast_reverse():
    """REVERSE_V2 over two adjacent axes, the last axis and the first; BROADCAST_TO up to
    5-D (int64 shape too); FILL from a constant and from a run-time scalar; ZEROS_LIKE (the
    stored 0, not the zero point); BROADCAST_ARGS of two constant shapes. int8, int16, int32,
    float32 where TFLM takes them."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 3, 4], **Q8)
    h = mb.input("h", "int16", [1, 3, 1, 2], **Q16)
    i = mb.input("i", "int32", [5, 2])
    f = mb.input("f", "float32", [3, 1])
    v = mb.tensor("v", "int8", [], **Q8)  # FILL's run-time scalar
    mb.op("RESHAPE", [mb.input("v1", "int8", [1], **Q8)], [v])
    mb.op("REVERSE_V2", [x, _ints(mb, [1, 2])], [_out(mb, "int8", [2, 3, 4])], "ReverseV2Options")
    mb.op("REVERSE_V2", [f, _ints(mb, [-1])], [_out(mb, "float32", [3, 1])], "ReverseV2Options")
    mb.op("REVERSE_V2", [i, _ints(mb, [0])], [_out(mb, "int32", [5, 2])], "ReverseV2Options")
    mb.op("REVERSE_V2", [h, _ints(mb, [2, 1])], [_out(mb, "int16", [1, 3, 1, 2])], "ReverseV2Options")
    mb.op("BROADCAST_TO", [x, _ints(mb, [2, 2, 3, 4])], [_out(mb, "int8", [2, 2, 3, 4])])
    mb.op("BROADCAST_TO", [h, mb.const("shape64", np.array([2, 2, 3, 4, 2], np.int64))],
          [_out(mb, "int16", [2, 2, 3, 4, 2])])
    mb.op("BROADCAST_TO", [f, _ints(mb, [3, 5])], [_out(mb, "float32", [3, 5])])
    mb.op("FILL", [_ints(mb, [2, 3]), v], [_out(mb, "int8", [2, 3])])
    mb.op("FILL", [_ints(mb, [4]), mb.const("two_and_a_half", np.array(2.5, np.float32))], [_out(mb, "float32", [4])])
    mb.op("ZEROS_LIKE", [x], [_out(mb, "int8", [2, 3, 4])])
    mb.op("ZEROS_LIKE", [f], [_out(mb, "float32", [3, 1])])
    mb.op("BROADCAST_ARGS", [_ints(mb, [3, 1, 5]), _ints(mb, [4, 1])], [_out(mb, "int32", [3])])
    return mb.build()
