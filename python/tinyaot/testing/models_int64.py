"""Test models of the int64 and uint32 forms TFLM's kernels take: int64 through the operators
that move values (CONCATENATION, PACK, REVERSE_V2, ZEROS_LIKE, BROADCAST_TO, DYNAMIC_UPDATE_SLICE
with start indices computed at run time; int64 begin, size, shapes and dims of SLICE,
BROADCAST_ARGS and FILL), int64 comparisons, MAXIMUM/MINIMUM and resource variables, and CAST to
and from uint32.
Each case is a model output compared with TFLM on the host; tests/host/test_int64.py feeds
them the integer extremes under the sanitizers."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import test_model
from tinyaot.testing.models_logic import CAST_FROM, CAST_TO, _compare_all, _out
from tinyaot.testing.models_subgraphs import handle


def _int64s(mb, values):
    return mb.const(f"c{len(mb.tensors)}", np.array(values, np.int64))


@test_model("int64_moves", targets=False)
def int64_moves():
    """int64 a [2,3,4] and b [2,1,4]: CONCATENATION along axis 1, PACK of a and its REVERSE_V2
    (axis 1), ZEROS_LIKE, BROADCAST_TO [2,3,4] (int64 shape); SLICE of an int32 input x at int64
    begin and size, written back into x by DYNAMIC_UPDATE_SLICE at int64 start indices from a
    model input (clamped, as TFLM clamps them; TFLM's int64 are indices there, not values);
    BROADCAST_ARGS of int64 shapes; FILL with int64 dims."""
    mb = ModelBuilder()
    a = mb.input("a", "int64", [2, 3, 4])
    b = mb.input("b", "int64", [2, 1, 4])
    starts = mb.input("starts", "int64", [2])
    x = mb.input("x", "int32", [3, 4])
    mb.op("CONCATENATION", [a, b], [_out(mb, "int64", [2, 4, 4])], "ConcatenationOptions", axis=1)
    reversed_a = _out(mb, "int64", [2, 3, 4])
    mb.op("REVERSE_V2", [a, mb.const("axis1", np.array([1], np.int32))], [reversed_a])
    mb.op("PACK", [a, reversed_a], [_out(mb, "int64", [2, 2, 3, 4])], "PackOptions", values_count=2, axis=1)
    mb.op("ZEROS_LIKE", [b], [_out(mb, "int64", [2, 1, 4])])
    mb.op("BROADCAST_TO", [b, _int64s(mb, [2, 3, 4])], [_out(mb, "int64", [2, 3, 4])])
    part = _out(mb, "int32", [2, 3])
    mb.op("SLICE", [x, _int64s(mb, [1, 1]), _int64s(mb, [2, -1])], [part], "SliceOptions")
    mb.op("DYNAMIC_UPDATE_SLICE", [x, part, starts], [_out(mb, "int32", [3, 4])])
    mb.op("BROADCAST_ARGS", [_int64s(mb, [2, 1, 4]), _int64s(mb, [3, 1])], [_out(mb, "int64", [3])])
    mb.op("FILL", [_int64s(mb, [2, 2]), mb.const("seven", np.array(7, np.int32))], [_out(mb, "int32", [2, 2])])
    return mb.build()


@test_model("int64_compare_cast", targets=False)
def int64_compare_cast():
    """The six comparisons of int64 [2,3,4] against [4] (broadcast) and of a against itself
    reversed (equal values meet); int64 MAXIMUM and MINIMUM of the same pair; an int64 resource
    variable keeping the running MAXIMUM of b over the calls (from 0); CAST from every
    dtype TFLM casts to uint32 (float32 through ABS: a negative float32 to uint32 is undefined
    in C and C++), and from uint32 to every dtype it casts to."""
    mb = ModelBuilder()
    a = mb.input("a", "int64", [2, 3, 4])
    b = mb.input("b", "int64", [4])
    _compare_all(mb, a, b, [2, 3, 4])
    mirrored = mb.tensor("mirrored", "int64", [2, 3, 4])
    mb.op("REVERSE_V2", [a, mb.const("axis0", np.array([0], np.int32))], [mirrored])
    _compare_all(mb, a, mirrored, [2, 3, 4], ("EQUAL", "GREATER_EQUAL", "LESS"))
    mb.op("MAXIMUM", [a, b], [_out(mb, "int64", [2, 3, 4])])
    mb.op("MINIMUM", [a, b], [_out(mb, "int64", [2, 3, 4])])
    peak = handle(mb, "peak")
    peak_now = mb.tensor("peak_now", "int64", [4])
    mb.op("READ_VARIABLE", [peak], [peak_now])
    peak_next = _out(mb, "int64", [4])
    mb.op("MAXIMUM", [peak_now, b], [peak_next])
    mb.op("ASSIGN_VARIABLE", [peak, peak_next], [])
    inputs = {dtype: mb.input(f"x_{dtype}", dtype, [2, 5]) for dtype in (*CAST_FROM, "uint32")}
    magnitude = mb.tensor("magnitude", "float32", [2, 5])
    mb.op("ABS", [inputs["float32"]], [magnitude])
    for src, x in inputs.items():
        mb.op("CAST", [magnitude if src == "float32" else x], [_out(mb, "uint32", [2, 5])])
    for dst in CAST_TO:
        mb.op("CAST", [inputs["uint32"]], [_out(mb, dst, [2, 5])])
    return mb.build()
