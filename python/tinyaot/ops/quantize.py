"""QUANTIZE (float32 -> int8/int16, and requantization between integer types)
and DEQUANTIZE (int8/uint8/int16 -> float32), as TFLM's quantize_common.cc and
dequantize_common.cc support them.
"""

import numpy as np

from tinyaot.ir import DTYPES
from tinyaot.ops import overlap
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef
from tinyaot.quant import INT_RANGES, requantize_multiplier

# (input, output) pairs TFLM's QUANTIZE requantizes (PrepareQuantizeReference / EvalQuantizeReference).
REQUANTIZE_PAIRS = {
    ("int16", "int8"), ("int8", "int8"), ("int8", "uint8"), ("uint8", "int8"), ("int8", "int16"),
    ("int8", "int32"), ("int16", "int16"), ("int16", "int32"), ("int32", "int8"), ("int32", "int16"),
}
QUANTIZE_FROM_FLOAT = ("int8", "int16")
DEQUANTIZE_FROM = ("int8", "uint8", "int16")


def _expect_elementwise(ctx, inp, out):
    ctx.expect(inp.num_elements == out.num_elements,
               f"output has {out.num_elements} values but input has {inp.num_elements}", out.index)


def _expect_per_tensor(ctx, t):
    ctx.expect_quantized(t)
    ctx.expect(np.isfinite(t.scale) and t.scale > 0, f"scale {t.scale:g} must be positive", t.index)


def _float_keys(keys):
    """float32 values of sign-and-magnitude keys (tinyaot_quantize_f32_s8's order)."""
    keys = np.asarray(keys, np.int64)
    bits = np.where(keys < 0, keys ^ 0x7fffffff, keys) & 0xffffffff
    return bits.astype(np.uint32).view(np.float32)


def _quantize_s8(x, scale, zero_point):
    """TFLM's AffineQuantize to int8 of float32 values: the division in float32, std::round."""
    with np.errstate(over="ignore", invalid="ignore"):
        q = (np.asarray(x, np.float32) / np.float32(scale)).astype(np.float64)
    rounded = np.where(q >= 0, np.floor(q + 0.5), -np.floor(0.5 - q))
    return np.clip(rounded + zero_point, -128, 127).astype(np.int32)


def quantize_thresholds(scale, zero_point):
    """For each int8 output -127..127, the smallest key (see _float_keys) of a finite or
    infinite float that quantizes to it or above: results only grow with the key."""
    targets = np.arange(-127, 128)
    lo = np.full(targets.shape, -0x7f800001, np.int64)  # -inf: -128, below every target
    hi = np.full(targets.shape, 0x7f800000, np.int64)   # +inf: 127, at or above every target
    while np.any(hi - lo > 1):
        mid = (lo + hi) // 2
        reached = _quantize_s8(_float_keys(mid), scale, zero_point) >= targets
        hi, lo = np.where(reached, mid, hi), np.where(reached, lo, mid)
    return hi.astype(np.int32)


def lower_quantize(ctx):
    inp, out = ctx.input(0), ctx.output()
    _expect_elementwise(ctx, inp, out)
    if inp.dtype == "float32":
        ctx.expect(out.dtype in QUANTIZE_FROM_FLOAT,
                   f"float32 to {out.dtype} is not supported (float32 quantizes to: "
                   f"{', '.join(QUANTIZE_FROM_FLOAT)})", out.index)
        _expect_per_tensor(ctx, out)
        lo, hi = INT_RANGES[out.dtype]
        params = ParamStruct("struct tinyaot_quantize_f32_params", {
            "size": inp.num_elements,
            "output_type": DTYPES[out.dtype][2],
            "scale": np.float32(out.scale),
            "zero_point": out.zero_point,
            "out_min": lo,
            "out_max": hi,
        })
        if out.dtype == "int8" and ctx.optimize == "speed":  # a 1 KB table for no soft-float calls
            return [KernelCall("tinyaot_quantize_f32_s8", [
                params, ParamArray("int32_t", quantize_thresholds(np.float32(out.scale), out.zero_point)),
                TensorRef(inp.index), TensorRef(out.index)], overlaps=overlap.narrowing(inp, out))]
        return [KernelCall("tinyaot_quantize_f32", [params, TensorRef(inp.index), TensorRef(out.index)],
                           overlaps=overlap.narrowing(inp, out))]

    pairs = ", ".join(f"{a}->{b}" for a, b in sorted(REQUANTIZE_PAIRS))
    ctx.expect((inp.dtype, out.dtype) in REQUANTIZE_PAIRS,
               f"{inp.dtype} to {out.dtype} is not supported (supported: float32->int8, float32->int16, {pairs})",
               out.index)
    _expect_per_tensor(ctx, inp)
    _expect_per_tensor(ctx, out)
    # quantize_common.cc: the ratio in double from the float32 scales.
    multiplier, shift = requantize_multiplier(float(inp.scale) / float(out.scale))
    ctx.expect(shift <= 31, f"input scale / output scale {float(inp.scale) / float(out.scale):g} is too large",
               out.index)
    lo, hi = INT_RANGES[out.dtype]
    params = ParamStruct("struct tinyaot_quantize_int_params", {
        "size": inp.num_elements,
        "input_type": DTYPES[inp.dtype][2],
        "output_type": DTYPES[out.dtype][2],
        "input_zero_point": inp.zero_point,
        "output_zero_point": out.zero_point,
        "multiplier": multiplier,
        "shift": shift,
        "out_min": lo,
        "out_max": hi,
    })
    return [KernelCall("tinyaot_quantize_int", [params, TensorRef(inp.index), TensorRef(out.index)],
                       overlaps=overlap.elementwise(inp, out))]


def lower_dequantize(ctx):
    inp, out = ctx.input(0), ctx.output()
    _expect_elementwise(ctx, inp, out)
    ctx.expect_dtype(inp, *DEQUANTIZE_FROM)
    ctx.expect_dtype(out, "float32")
    _expect_per_tensor(ctx, inp)
    params = ParamStruct("struct tinyaot_dequantize_f32_params", {
        "size": inp.num_elements,
        "input_type": DTYPES[inp.dtype][2],
        "scale": np.float32(inp.scale),
        "zero_point": inp.zero_point,
    })
    return [KernelCall("tinyaot_dequantize_f32", [params, TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"QUANTIZE": lower_quantize, "DEQUANTIZE": lower_dequantize}
