"""Operators that move values (SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK, PACK,
TRANSPOSE, SPACE_TO_DEPTH, DEPTH_TO_SPACE, RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR, GATHER, MIRROR_PAD,
SPACE_TO_BATCH_ND) refuse what they cannot run, naming
the operator, the tensor and the problem."""

import numpy as np
import pytest

from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.compile import compile_bytes

Q = dict(scale=0.1, zero_point=0)


def compile_one(tmp_path, op, in_shape, consts, out_shapes, options_type=None, out_q=Q, dtype="int8",
                const_first=False, **options):
    mb = ModelBuilder()
    x = mb.input("x", dtype, in_shape, **(Q if dtype == "int8" else {}))
    cs = [mb.const(f"c{k}", np.array(v, np.int32)) for k, v in enumerate(consts)]
    ys = [mb.tensor(f"y{k}", dtype, s, **(out_q if dtype == "int8" else {})) for k, s in enumerate(out_shapes)]
    mb.op(op, cs + [x] if const_first else [x] + cs, ys, options_type, **options)
    for y in ys:
        mb.output(y)
    return compile_bytes(tmp_path, mb.build())


CASES = [
    (("SLICE", [4, 5], [[1, 2], [3, 4]], [[3, 4]], "SliceOptions"), {},
     r"operator 0 \(SLICE\): tensor 'x': begin \[1, 2\] and size \[3, 4\] reach outside input shape \[4, 5\]"),
    (("SLICE", [4, 5], [[0, 0], [2, 2]], [[2, 3]], "SliceOptions"), {},
     r"operator 0 \(SLICE\): tensor 'y0': output shape \[2, 3\] should be \[2, 2\]"),
    (("SLICE", [4, 5], [[0, 0], [2, 2]], [[2, 2]], "SliceOptions"), dict(out_q=dict(scale=0.2, zero_point=0)),
     r"operator 0 \(SLICE\): tensor 'x': input quantization \(scale 0.1, zero point 0\) differs from the "
     r"output's \(scale 0.2, zero point 0\); SLICE moves stored values without rescaling"),
    (("STRIDED_SLICE", [4, 5], [[0, 0], [4, 5], [1, 1]], [[4, 5]], "StridedSliceOptions"),
     dict(ellipsis_mask=1), r"operator 0 \(STRIDED_SLICE\): ellipsis_mask 1 is not supported \(TFLM ignores it\)"),
    (("STRIDED_SLICE", [4, 5], [[0, 0], [4, 5], [1, 0]], [[4, 5]], "StridedSliceOptions"), {},
     r"operator 0 \(STRIDED_SLICE\): tensor 'c2': stride 1 is zero"),
    (("STRIDED_SLICE", [4, 5], [[2, 0], [0, 5], [-1, 1]], [[5]], "StridedSliceOptions"),
     dict(shrink_axis_mask=1), r"axis 0 is shrunk with a negative stride, where TFLM's kernel writes nothing"),
    (("TRANSPOSE", [2, 3, 4], [[0, 2, 2]], [[2, 4, 4]], "TransposeOptions"), {},
     r"operator 0 \(TRANSPOSE\): tensor 'c0': perm \[0, 2, 2\] is not a permutation of 0..2"),
    (("TRANSPOSE", [1, 2, 1, 2, 1, 2], [[5, 4, 3, 2, 1, 0]], [[2, 1, 2, 1, 2, 1]], "TransposeOptions"), {},
     r"operator 0 \(TRANSPOSE\): tensor 'x': input rank 6 is outside 1..5"),
    (("TRANSPOSE", [2, 3], [[1, 0]], [[3, 2]], "TransposeOptions"), dict(dtype="int32"),
     r"operator 0 \(TRANSPOSE\): tensor 'x': dtype int32 is not supported here \(supported: int8, int16, float32\)"),
    (("SPLIT", [4, 6], [[1]], [[4, 2]] * 4, "SplitOptions"), dict(const_first=True, num_splits=4),
     r"operator 0 \(SPLIT\): tensor 'x': 6 values along axis 1 do not split into 4 equal parts"),
    (("SPLIT_V", [4, 6], [[2, 2, 1], [1]], [[4, 2], [4, 2], [4, 1]], "SplitVOptions"), dict(num_splits=3),
     r"operator 0 \(SPLIT_V\): tensor 'c0': split sizes \[2, 2, 1\] do not add up to 6 along axis 1"),
    (("UNPACK", [3, 2], [], [[2]] * 2, "UnpackOptions"), dict(num=2, axis=0),
     r"operator 0 \(UNPACK\): tensor 'x': 2 outputs for 3 values along axis 0"),
    (("DEPTH_TO_SPACE", [1, 2, 2, 6], [], [[1, 4, 4, 1]], "DepthToSpaceOptions"), dict(block_size=2),
     r"operator 0 \(DEPTH_TO_SPACE\): tensor 'x': depth 6 must be a multiple of block size 2 squared"),
    (("SPACE_TO_DEPTH", [1, 3, 4, 1], [], [[1, 1, 2, 4]], "SpaceToDepthOptions"), dict(block_size=2),
     r"operator 0 \(SPACE_TO_DEPTH\): tensor 'x': height 3 and width 4 must be multiples of block size 2"),
    (("RESIZE_NEAREST_NEIGHBOR", [1, 2, 2, 1], [[3, 3]], [[1, 3, 4, 1]], "ResizeNearestNeighborOptions"), {},
     r"operator 0 \(RESIZE_NEAREST_NEIGHBOR\): tensor 'y0': output shape \[1, 3, 4, 1\] should be \[1, 3, 3, 1\]"),
    (("RESIZE_NEAREST_NEIGHBOR", [2, 2, 1], [[3, 3]], [[3, 3, 1]], "ResizeNearestNeighborOptions"), {},
     r"operator 0 \(RESIZE_NEAREST_NEIGHBOR\): tensor 'x': input must be 4-D \(NHWC\), is \[2, 2, 1\]"),
    (("RESIZE_NEAREST_NEIGHBOR", [1, 2, 2, 1], [[0, 3]], [[1, 1, 3, 1]], "ResizeNearestNeighborOptions"), {},
     r"operator 0 \(RESIZE_NEAREST_NEIGHBOR\): tensor 'c0': size \[0, 3\] must be two positive values"),
    (("RESIZE_BILINEAR", [1, 2, 2, 1], [[3, 3]], [[1, 3, 3, 1]], "ResizeBilinearOptions"),
     dict(align_corners=True, half_pixel_centers=True),
     r"operator 0 \(RESIZE_BILINEAR\): half_pixel_centers and align_corners are both set \(TFLM refuses it\)"),
    (("RESIZE_BILINEAR", [1, 2, 2, 1], [[3, 3]], [[1, 3, 3, 1]], "ResizeBilinearOptions"), dict(dtype="int16"),
     r"operator 0 \(RESIZE_BILINEAR\): tensor 'x': dtype int16 is not supported here \(supported: int8, float32\)"),
    (("GATHER", [4, 5], [[7]], [[1, 5]], "GatherOptions"), dict(axis=0),
     r"operator 0 \(GATHER\): tensor 'c0': index 7 is outside 0..3"),
    (("GATHER", [4, 5], [[1]], [[4, 2]], "GatherOptions"), dict(axis=1),
     r"operator 0 \(GATHER\): tensor 'y0': output shape \[4, 2\] should be \[4, 1\]"),
    (("MIRROR_PAD", [3, 4], [[[1, 1], [0, -1]]], [[5, 3]], "MirrorPadOptions"), {},
     r"operator 0 \(MIRROR_PAD\): tensor 'c0': paddings \[1, 1, 0, -1\] are not 2 \(before, after\) pairs of sizes"),
    (("MIRROR_PAD", [3, 4], [[[1, 1], [0, 1]]], [[5, 4]], "MirrorPadOptions"), {},
     r"operator 0 \(MIRROR_PAD\): tensor 'y0': output shape \[5, 4\] is not input shape \[3, 4\] padded by "
     r"\[\[1, 1\], \[0, 1\]\], \[5, 5\]"),
    (("SPACE_TO_BATCH_ND", [1, 4, 4, 1], [[2, 2], [[0, -1], [0, 0]]], [[4, 2, 2, 1]], "SpaceToBatchNDOptions"), {},
     r"operator 0 \(SPACE_TO_BATCH_ND\): tensor 'c0': block shape \[2, 2\] and paddings \[0, -1, 0, 0\] do "
     r"not fit 2 spatial dimensions"),
    (("SPACE_TO_BATCH_ND", [1, 4, 4, 1], [[2, 2], [[1, 0], [0, 0]]], [[4, 2, 2, 1]], "SpaceToBatchNDOptions"), {},
     r"operator 0 \(SPACE_TO_BATCH_ND\): tensor 'y0': input \[1, 4, 4, 1\] and output \[4, 2, 2, 1\] do not "
     r"match block shape \[2, 2\] and paddings \[1, 0, 0, 0\]"),
]


@pytest.mark.parametrize("args, kwargs, message", CASES, ids=[f"{c[0][0]}-{i}" for i, c in enumerate(CASES)])
def test_refused_with_message(tmp_path, args, kwargs, message):
    with pytest.raises(TinyAotError, match=message):
        compile_one(tmp_path, *args, **kwargs)


def test_pack_inputs_of_different_shapes(tmp_path):
    mb = ModelBuilder()
    a, b = mb.input("a", "int8", [2, 3], **Q), mb.input("b", "int8", [3, 2], **Q)
    y = mb.tensor("y", "int8", [2, 2, 3], **Q)
    mb.op("PACK", [a, b], [y], "PackOptions", values_count=2, axis=0)
    mb.output(y)
    with pytest.raises(TinyAotError, match=r"operator 0 \(PACK\): tensor 'b': input 1 shape \[3, 2\] differs from "
                                           r"input 0's \[2, 3\]"):
        compile_bytes(tmp_path, mb.build())


def test_slice_begin_computed_at_run_time(tmp_path):
    mb = ModelBuilder()
    x, begin = mb.input("x", "int8", [4], **Q), mb.input("begin", "int32", [1])
    y = mb.tensor("y", "int8", [2], **Q)
    mb.op("SLICE", [x, begin, mb.const("size", np.array([2], np.int32))], [y], "SliceOptions")
    mb.output(y)
    with pytest.raises(TinyAotError, match=r"operator 0 \(SLICE\): tensor 'begin': must be a constant tensor"):
        compile_bytes(tmp_path, mb.build())


def test_gather_indices_computed_at_run_time_must_be_int32(tmp_path):
    mb = ModelBuilder()
    x, idx = mb.input("x", "int8", [4, 2], **Q), mb.input("idx", "int64", [3])
    y = mb.tensor("y", "int8", [3, 2], **Q)
    mb.op("GATHER", [x, idx], [y], "GatherOptions", axis=0)
    mb.output(y)
    with pytest.raises(TinyAotError, match=r"operator 0 \(GATHER\): tensor 'idx': indices computed at run time "
                                           r"must be int32 \(as TFLM's kernel\), not int64"):
        compile_bytes(tmp_path, mb.build())
