"""ADD, SUB, SQUARED_DIFFERENCE and MUL, int8 and int32 (lower_i32, DIV too), DIV int8; ADD, SUB, SQUARED_DIFFERENCE and MUL int16 (16x8); ADD, SUB,
MUL, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD (and PRELU's kernel) in float32; with TFLite's broadcasting (up
to 6 dimensions, 4 for int16 ADD and MUL).

All follow TFLM: ADD is reference_integer_ops::AddFunc with the rescaling set
up by CalculateOpDataAdd (left_shift 20, every multiplier below one), SUB the
same with a difference (CalculateOpDataSub), MUL is
MulElementwise with the multiplier from CalculateOpDataMul. TFLM's broadcast
and non-broadcast paths compute the same function per element, so one kernel
serves both: the broadcast is a table of dimensions and per-input strides
worked out here, with dimensions merged wherever they walk memory alike.
"""

import numpy as np

from tinyaot.ops import overlap, s16
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.quant import (float_activation_range, multiply_by_quantized_multiplier, quantize_multiplier,
                          requantize_multiplier)

MAX_DIMS = 6  # TFLM's BroadcastBinaryFunction6DSlow / BroadcastMul6DSlow
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def broadcast_shape(ctx, a, b):
    """The shape TFLite broadcasts a and b to (dimensions aligned on the right)."""
    rank = max(len(a.shape), len(b.shape))
    ea = (1,) * (rank - len(a.shape)) + tuple(a.shape)
    eb = (1,) * (rank - len(b.shape)) + tuple(b.shape)
    out = []
    for da, db in zip(ea, eb):
        ctx.expect(da == db or da == 1 or db == 1,
                   f"input shapes {list(a.shape)} and {list(b.shape)} do not broadcast "
                   "(each dimension must match or be 1)", b.index)
        out.append(max(da, db))
    return tuple(out)


def broadcast_table(shape_a, shape_b, out_shape):
    """(dims, strides_a, strides_b) walking the output in order, merged to few dimensions.

    A stride is 0 where that input is broadcast. Adjacent dimensions merge when
    both inputs step through them as through one longer dimension.
    """
    rank = len(out_shape)
    dims = list(out_shape)
    strides = []
    for shape in (shape_a, shape_b):
        ext = (1,) * (rank - len(shape)) + tuple(shape)
        s, step = [0] * rank, 1
        for d in reversed(range(rank)):
            s[d] = step if ext[d] != 1 else 0
            step *= ext[d]
        strides.append(s)
    dims, (sa, sb) = merge_dims(dims, strides)
    return dims, sa, sb


def merge_dims(dims, stride_lists):
    """(dims, stride_lists) with dimensions of size 1 dropped (they are not walked)
    and adjacent dimensions merged where every stride list steps through them
    as through one longer dimension."""
    keep = [d for d in range(len(dims)) if dims[d] != 1]
    dims = [dims[d] for d in keep] or [1]
    stride_lists = [[s[d] for d in keep] or [0] for s in stride_lists]
    d = len(dims) - 2
    while d >= 0:
        if all(s[d] == s[d + 1] * dims[d + 1] for s in stride_lists):
            dims[d:d + 2] = [dims[d] * dims[d + 1]]
            for s in stride_lists:
                s[d:d + 2] = [s[d + 1]]
        d -= 1
    return dims, stride_lists


def _common(ctx, dtypes=("int8",)):
    """Checks shared by ADD, SUB, SQUARED_DIFFERENCE and MUL; returns (in1, in2, out, broadcast shape)."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs, has {len(ctx.op.inputs)}")
    a, b, out = ctx.input(0), ctx.input(1), ctx.output()
    ctx.expect_dtype(a, *dtypes)
    for t in (a, b, out):
        ctx.expect_dtype(t, a.dtype)
        ctx.expect_quantized(t)
        ctx.expect(float(t.scale) > 0.0, "quantization scale must be positive", t.index)
    return a, b, out, checked_broadcast(ctx, a, b, out)


def checked_broadcast(ctx, a, b, out):
    """The broadcast shape of a and b, checked against the output and the rank limit."""
    shape = broadcast_shape(ctx, a, b)
    ctx.expect(len(shape) <= MAX_DIMS, f"broadcast over {len(shape)} dimensions (at most {MAX_DIMS})")
    ctx.expect(tuple(out.shape) == shape,
               f"output shape {list(out.shape)} is not the broadcast shape {list(shape)} "
               f"of {list(a.shape)} and {list(b.shape)}", out.index)
    return shape


def _binary_call(ctx, kernel, ctype, a, b, out, shape, rescale_fields):
    """The parameters and call ADD, MUL and int8 DIV share: sizes, zero points, activation
    range and broadcast table, with the op's own `rescale_fields`."""
    dims, sa, sb = broadcast_table(a.shape, b.shape, shape)
    act_min, act_max = ctx.activation(out)
    params = ParamStruct(ctype, {
        "size": out.num_elements,
        "rank": len(dims),
        "input1_offset": -a.zero_point,
        "input2_offset": -b.zero_point,
        "output_offset": out.zero_point,
        **rescale_fields,
        "act_min": act_min,
        "act_max": act_max,
    })
    walk = [ParamArray("int32_t", np.array(d, np.int32)) for d in (dims, sa, sb)]
    # An input of the output's shape is walked forward with it; a broadcast one is re-read.
    overlaps = [d for t in (a, b) for d in overlap.elementwise(t, out)]
    return [KernelCall(kernel, [params, *walk, TensorRef(a.index), TensorRef(b.index), TensorRef(out.index)],
                       overlaps=overlaps)]


def _multiplier_below_one(ctx, real, what, tensor):
    """tflite::QuantizeMultiplierSmallerThanOneExp (which asserts shift <= 0)."""
    m, s = requantize_multiplier(real)
    ctx.expect(s <= 0, f"{what} rescale factor {real:.6g} is not below 1: the output scale is too "
                       "small for the input scales (TFLM does not support this)", tensor)
    return m, s


def _add_kernel_call(ctx, left_shift, subtract=False, square=False, dtypes=("int8",)):
    """ADD, SUB and SQUARED_DIFFERENCE share the kernel and the rescaling: each
    input to a common scale with left_shift bits of headroom, then the sum,
    difference or squared difference to the output. The factors are computed in
    double from the float32 scales, as CalculateOpDataAdd and squared_difference.cc
    do. (The TFLM source's CalculateOpDataSub divides in float, but the
    tflite-micro build the tests check against matches double and not float:
    the sub_broadcast_act model tells them apart.)"""
    a, b, out, shape = _common(ctx, dtypes)
    if a.dtype == "int16" and square:  # squared_difference.cc: zero points 0, no headroom (32767^2 fits)
        s16.expect_symmetric_int16(ctx, a, b, out)
        left_shift = 0
        ctx.expect(tuple(a.shape) == tuple(b.shape) or len(shape) <= 4,
                   f"int16 broadcast over {len(shape)} dimensions (TFLM's BroadcastBinaryFunction4DSlow takes at "
                   "most 4)")
    elif a.dtype == "int16":  # CalculateOpData{Add,Sub}: 15 bits of headroom; TFLM's int16 ADD broadcasts in 4-D
        left_shift = 15
        ctx.expect(subtract or tuple(a.shape) == tuple(b.shape) or len(shape) <= 4,
                   f"int16 broadcast over {len(shape)} dimensions (TFLM's BroadcastAdd4DSlow takes at most 4)")
    twice_max = 2.0 * float(max(a.scale, b.scale))
    m1, s1 = _multiplier_below_one(ctx, float(a.scale) / twice_max, "input 1", a.index)
    m2, s2 = _multiplier_below_one(ctx, float(b.scale) / twice_max, "input 2", b.index)
    if square:  # may be above 1
        mo, so = requantize_multiplier(twice_max * twice_max / ((1 << 2 * left_shift) * float(out.scale)))
    else:
        mo, so = _multiplier_below_one(ctx, twice_max / ((1 << left_shift) * float(out.scale)), "output",
                                       out.index)
    # SMMLAR: cores with the DSP extension, Helium (MVE) ones too (on mps3_an547 15 instructions
    # a value where tinyaot_add takes 39)
    if ctx.dsp and not (subtract or square) and a.dtype == "int8":
        calls = _add_s8_dsp_call(ctx, a, b, out, (m1, s1), (m2, s2), (mo, so))
        if calls:
            return calls
    return _binary_call(ctx, "tinyaot_add", "struct tinyaot_add_params", a, b, out, shape, {
        "left_shift": left_shift,
        "subtract": int(subtract),
        "square": int(square),
        "input1_multiplier": m1, "input1_shift": s1,
        "input2_multiplier": m2, "input2_shift": s2,
        "output_multiplier": mo, "output_shift": so,
        "int16": int(a.dtype == "int16"),
    })


def _add_s8_dsp_call(ctx, a, b, out, scale1, scale2, output):
    """[tinyaot_add_s8_dsp's call] for an int8 ADD whose inputs have the output's shape and
    whose output rescaling it takes (kernels/dsp/tinyaot_add_s8_dsp.h), else []: the input
    of the larger scale (factor 0.5: 2^30, shift 0) is read as it is, the other's scaled
    value tabulated per int8 bit pattern with TFLite's arithmetic."""
    larger, other, (m, s) = (a, b, scale2) if scale1 == (1 << 30, 0) else (b, a, scale1)
    (mo, so), r = output, -output[1]
    act_min, act_max = ctx.activation(out)
    output_round = (1 << (r - 1)) + out.zero_point * (1 << r) if 1 <= r <= 30 else 0
    # |acc| < 2^28 (each input's share below 255 * 2^19), so the high word plus the
    # rounding term stays in int32 where the latter is below 2^31 - 2^28.
    if not (tuple(a.shape) == tuple(b.shape) == tuple(out.shape) and (1 << 30, 0) in (scale1, scale2)
            and 1 <= r <= 30 and mo >= 0 and abs(output_round) < (1 << 31) - (1 << 28)):
        return []
    values = np.arange(256, dtype=np.int64)
    table = [2 * (multiply_by_quantized_multiplier((int(y) - other.zero_point) << 20, m, s)
                  - larger.zero_point * (1 << 19)) for y in np.where(values < 128, values, values - 256)]
    params = ParamStruct("struct tinyaot_add_s8_dsp_params", {
        "size": out.num_elements, "output_multiplier": mo, "output_round": output_round, "output_shift": r,
        "act_min": act_min, "act_max": act_max})
    return [KernelCall("tinyaot_add_s8_dsp", [params, TensorRef(larger.index), TensorRef(other.index),
                                              ParamArray("int32_t", np.array(table, np.int32)),
                                              TensorRef(out.index)],
                       overlaps=[d for t in (a, b) for d in overlap.elementwise(t, out)])]


def lower_f32(ctx, op, max_rank=MAX_DIMS, why=""):
    """float32 ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE and PRELU: TFLM's float reference
    kernels, one kernel; broadcasts over at most max_rank dimensions (`why`: TFLM's limit)."""
    a, b, out, shape = _plain_operands(ctx, "float32")
    ctx.expect(len(shape) <= max_rank, f"float32 broadcast over {len(shape)} dimensions (at most {max_rank}{why})")
    act_min, act_max = float_activation_range(ctx.op.options.get("fused_activation_function", 0),
                                              lambda message: ctx.error(message))
    return _plain_call(ctx, "tinyaot_arith_f32", op, a, b, out, shape, act_min, act_max)


def lower_i32(ctx, op, max_rank, activation=True):
    """int32 ADD, SUB, MUL, DIV and SQUARED_DIFFERENCE: TFLM's reference kernels on int32_t (kernels/
    tinyaot_arith_i32.h); broadcasts over at most max_rank dimensions (TFLM's); activation=False
    where TFLM ignores the fused activation (ADD, SQUARED_DIFFERENCE)."""
    a, b, out, shape = _plain_operands(ctx, "int32")
    ctx.expect(tuple(a.shape) == tuple(b.shape) or len(shape) <= max_rank,
               f"int32 broadcast over {len(shape)} dimensions (TFLM's takes at most {max_rank})")
    act = ctx.op.options.get("fused_activation_function", 0) if activation else 0
    act_min, act_max = {1: (0, INT32_MAX), 2: (-1, 1), 3: (0, 6)}.get(act, (INT32_MIN, INT32_MAX))
    return _plain_call(ctx, "tinyaot_arith_i32", op, a, b, out, shape, act_min, act_max)


def _plain_operands(ctx, dtype):
    """(a, b, out, broadcast shape) of an unquantized two-input operator of one dtype."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs, has {len(ctx.op.inputs)}")
    a, b, out = ctx.input(0), ctx.input(1), ctx.output()
    for t in (a, b, out):
        ctx.expect_dtype(t, dtype)
    return a, b, out, checked_broadcast(ctx, a, b, out)


def _plain_call(ctx, kernel, op, a, b, out, shape, act_min, act_max):
    """The call of tinyaot_arith_f32 or _i32: sizes, operation, activation range, broadcast table."""
    dims, sa, sb = broadcast_table(a.shape, b.shape, shape)
    params = ParamStruct(f"struct {kernel}_params", {
        "size": out.num_elements, "rank": len(dims), "op": op, "act_min": act_min, "act_max": act_max})
    walk = [ParamArray("int32_t", np.array(d, np.int32)) for d in (dims, sa, sb)]
    return [KernelCall(kernel, [params, *walk, TensorRef(a.index), TensorRef(b.index), TensorRef(out.index)],
                       overlaps=[d for t in (a, b) for d in overlap.elementwise(t, out)])]


def _is_float(ctx):
    return len(ctx.op.inputs) >= 1 and ctx.input(0).dtype == "float32"


def _is_int32(ctx):
    return len(ctx.op.inputs) >= 1 and ctx.input(0).dtype == "int32"


def lower_add(ctx):
    if _is_float(ctx):
        return lower_f32(ctx, "TINYAOT_ARITH_ADD")
    if _is_int32(ctx):  # TFLM's int32 ADD: the whole int32 range whatever the activation
        return lower_i32(ctx, "TINYAOT_ARITH_ADD", 4, activation=False)
    return _add_kernel_call(ctx, 20, dtypes=("int8", "int16", "float32"))  # CalculateOpDataAdd: 20 for int8


def lower_sub(ctx):
    if _is_float(ctx):
        return lower_f32(ctx, "TINYAOT_ARITH_SUB")
    if _is_int32(ctx):
        return lower_i32(ctx, "TINYAOT_ARITH_SUB", 5)
    return _add_kernel_call(ctx, 20, subtract=True, dtypes=("int8", "int16", "float32"))  # 20 for int8


def lower_squared_difference(ctx):
    if _is_float(ctx):  # squared_difference.cc: no fused activation
        return lower_f32(ctx, "TINYAOT_ARITH_SQUARED_DIFFERENCE")
    if _is_int32(ctx):
        return lower_i32(ctx, "TINYAOT_ARITH_SQUARED_DIFFERENCE", 4, activation=False)
    # 7: the square of 255 << 7 fits in 32 bits.
    return _add_kernel_call(ctx, 7, subtract=True, square=True, dtypes=("int8", "int16", "float32"))


def lower_mul(ctx):
    if _is_float(ctx):
        return lower_f32(ctx, "TINYAOT_ARITH_MUL")
    if _is_int32(ctx):
        return lower_i32(ctx, "TINYAOT_ARITH_MUL", 4)
    a, b, out, shape = _common(ctx, ("int8", "int16", "float32"))
    if a.dtype == "int16":  # TFLM's int16 MUL: no offsets, broadcast in 4-D only
        s16.expect_symmetric_int16(ctx, a, b, out)
        ctx.expect(tuple(a.shape) == tuple(b.shape) or len(shape) <= 4,
                   f"int16 broadcast over {len(shape)} dimensions (TFLM's BroadcastMul4DSlow takes at most 4)")
    # In double, from the float32 scales, exactly as CalculateOpDataMul.
    m, s = requantize_multiplier(float(a.scale) * float(b.scale) / float(out.scale))
    return _binary_call(ctx, "tinyaot_mul", "struct tinyaot_mul_params", a, b, out, shape,
                        {"output_multiplier": m, "output_shift": s, "int16": int(a.dtype == "int16")})


def lower_div(ctx):
    """float32, int8 and int32. int32, as TFLM: unquantized inputs, broadcast over at most 5
    dimensions (BroadcastDivSlow). A constant divisor holding a 0 is refused: C++'s division by
    0 is undefined (it traps on x86)."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs, has {len(ctx.op.inputs)}")
    ctx.expect_dtype(ctx.input(0), "float32", "int8", "int32")
    if ctx.input(0).dtype == "float32":
        return lower_f32(ctx, "TINYAOT_ARITH_DIV")
    if ctx.input(0).dtype == "int8":
        return _lower_div_s8(ctx)
    for t in (ctx.input(0), ctx.input(1)):
        ctx.expect(t.quant is None, "int32 DIV takes unquantized inputs only (as TFLM)", t.index)
    divisor = ctx.input(1)
    if divisor.is_constant and divisor.dtype == "int32":
        ctx.expect(np.all(divisor.data != 0), "the constant int32 divisor holds a 0 (undefined in TFLM)",
                   divisor.index)
    return lower_i32(ctx, "TINYAOT_ARITH_DIV", 5)


def _lower_div_s8(ctx):
    """TFLM's int8 DIV (kernels/tinyaot_arith_div_s8.h, which says what it gives where TFLM's
    arithmetic is undefined). The rescale factor in double from the float32 scales, then
    QuantizeMultiplier (CalculateOpDataDiv's source divides in float, but the tflite-micro build
    the tests check against matches double: test_div_int8's first DIV tells them apart). Its shift must stay at most 22 so that the kernel's right shift is
    at least 1 (a dividend's headroom is at least 23) and the zero point's addition cannot
    overflow: a factor of 2^22 or more is refused."""
    a, b, out, shape = _common(ctx)
    real = float(a.scale) / (float(b.scale) * float(out.scale))
    m, s = quantize_multiplier(float(real))
    ctx.expect(s <= 22, f"rescale factor {float(real):.6g} (input 1 scale / (input 2 scale * output scale)) "
                        "is 2^22 or more: TFLM's arithmetic would shift by a negative amount", out.index)
    return _binary_call(ctx, "tinyaot_arith_div_s8", "struct tinyaot_arith_div_s8_params", a, b, out, shape,
                        {"output_multiplier": m, "output_shift": s})


def _lower_floor_div_or_mod(ctx, op):
    """float32 only, as TFLM; its broadcast takes 4 dimensions. TFLM fails a FLOOR_DIV run whose
    divisor holds a 0: a constant one is refused here, a computed one gives floorf's inf or NaN."""
    ctx.expect(len(ctx.op.inputs) == 2, f"expects 2 inputs, has {len(ctx.op.inputs)}")
    divisor = ctx.input(1)
    if op == "TINYAOT_ARITH_FLOOR_DIV" and divisor.is_constant and divisor.dtype == "float32":
        ctx.expect(np.all(divisor.data != 0), "the constant divisor holds a 0 (TFLM fails the run)", divisor.index)
    return lower_f32(ctx, op, max_rank=4, why=", as TFLM's BroadcastBinaryFunction4DSlow")


OPS = {"ADD": lower_add, "SUB": lower_sub, "MUL": lower_mul, "DIV": lower_div,
       "SQUARED_DIFFERENCE": lower_squared_difference,
       "FLOOR_DIV": lambda ctx: _lower_floor_div_or_mod(ctx, "TINYAOT_ARITH_FLOOR_DIV"),
       "FLOOR_MOD": lambda ctx: _lower_floor_div_or_mod(ctx, "TINYAOT_ARITH_FLOOR_MOD")}
