"""ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM, CONCATENATION, PAD, MEAN, ADD_N and FLOOR_DIV reject what they cannot run, naming the
operator, the tensor and the problem."""

import numpy as np
import pytest

from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.compile import compile_bytes

Q = dict(scale=0.1, zero_point=0)


def binary_model(op, shape_a, shape_b, out_shape, out_scale=0.1, act=0):
    mb = ModelBuilder()
    a = mb.input("a", "int8", shape_a, **Q)
    b = mb.input("b", "int8", shape_b, **Q)
    y = mb.tensor("y", "int8", out_shape, scale=out_scale, zero_point=0)
    options = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions", "DIV": "DivOptions"}.get(
        op, "MaximumMinimumOptions")
    fused = {} if op in ("MAXIMUM", "MINIMUM") else {"fused_activation_function": act}
    mb.op(op, [a, b], [y], options, **fused)
    mb.output(y)
    return mb.build()


@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM"])
def test_shapes_that_do_not_broadcast(tmp_path, op):
    with pytest.raises(TinyAotError, match=rf"bad\.tflite: operator 0 \({op}\): tensor 'b': input shapes "
                                           r"\[1, 4, 3\] and \[1, 2, 3\] do not broadcast"):
        compile_bytes(tmp_path, binary_model(op, [1, 4, 3], [1, 2, 3], [1, 4, 3]))


def test_output_shape_not_broadcast_shape(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(MUL\): tensor 'y': output shape \[1, 4, 3\] is not "
                                           r"the broadcast shape \[2, 4, 3\]"):
        compile_bytes(tmp_path, binary_model("MUL", [1, 4, 3], [2, 1, 3], [1, 4, 3]))


def test_add_output_scale_too_small(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(ADD\): tensor 'y': output rescale factor .* is not "
                                           r"below 1"):
        compile_bytes(tmp_path, binary_model("ADD", [4], [4], [4], out_scale=1e-9))


def test_sub_output_scale_too_small(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(SUB\): tensor 'y': output rescale factor .* is not "
                                           r"below 1"):
        compile_bytes(tmp_path, binary_model("SUB", [4], [4], [4], out_scale=1e-9))


@pytest.mark.parametrize("op", ["MAXIMUM", "MINIMUM"])
def test_maximum_minimum_with_differing_quantization(tmp_path, op):
    with pytest.raises(TinyAotError, match=rf"operator 0 \({op}\): tensor 'a': input 0 quantization \(scale 0.1, "
                                           r"zero point 0\) differs from the output's \(scale 0.2, zero point 0\); "
                                           r"TFLM would compare"):
        compile_bytes(tmp_path, binary_model(op, [4], [4], [4], out_scale=0.2))


def test_int8_div_rescale_too_large(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(DIV\): tensor 'y': rescale factor 1e\+09 \(input 1 scale / "
                                           r"\(input 2 scale \* output scale\)\) is 2\^22 or more"):
        compile_bytes(tmp_path, binary_model("DIV", [4], [4], [4], out_scale=1e-9))


def _int32_div(divisor=None, quantized=False):
    mb = ModelBuilder()
    a = mb.input("a", "int32", [4], **(Q if quantized else {}))
    b = mb.const("b", np.array(divisor, np.int32)) if divisor is not None else mb.input("b", "int32", [4])
    y = mb.tensor("y", "int32", [4])
    mb.op("DIV", [a, b], [y], "DivOptions")
    mb.output(y)
    return mb.build()


@pytest.mark.parametrize("data,message", [
    (_int32_div([3, 0, -1, 2]), r"tensor 'b': the constant int32 divisor holds a 0 \(undefined in TFLM\)"),
    (_int32_div(quantized=True), r"tensor 'a': int32 DIV takes unquantized inputs only \(as TFLM\)"),
])
def test_int32_div_refused(data, message, tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(DIV\): " + message):
        compile_bytes(tmp_path, data)


def test_unsupported_fused_activation(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(ADD\): fused activation TANH is not supported"):
        compile_bytes(tmp_path, binary_model("ADD", [4], [4], [4], act=4))


@pytest.mark.parametrize("op, options", [("ADD", "AddOptions"), ("SQUARED_DIFFERENCE", "SquaredDifferenceOptions"),
                                         ("DIV", "DivOptions")])
def test_float_op_of_an_int8_tensor(tmp_path, op, options):
    mb = ModelBuilder()
    a, b = mb.input("a", "float32", [4]), mb.input("b", "int8", [4], **Q)
    y = mb.tensor("y", "float32", [4])
    mb.op(op, [a, b], [y], options)
    mb.output(y)
    with pytest.raises(TinyAotError, match=rf"operator 0 \({op}\): tensor 'b': dtype int8 is not supported "
                                           r"here \(supported: float32\)"):
        compile_bytes(tmp_path, mb.build())


@pytest.mark.parametrize("shape_a, shape_b, zero_point, message", [
    ([4], [4], 2, r"operator 0 \(SQUARED_DIFFERENCE\): tensor 'b': int16 zero point must be 0, not 2"),
    ([2, 1, 2, 1, 3], [1, 2, 1, 2, 3], 0, r"operator 0 \(SQUARED_DIFFERENCE\): int16 broadcast over 5 dimensions "
                                          r"\(TFLM's BroadcastBinaryFunction4DSlow takes at most 4\)"),
])
def test_int16_squared_difference_as_tflm_takes_it(tmp_path, shape_a, shape_b, zero_point, message):
    mb = ModelBuilder()
    a = mb.input("a", "int16", shape_a, scale=0.001, zero_point=0)
    b = mb.input("b", "int16", shape_b, scale=0.001, zero_point=zero_point)
    y = mb.tensor("y", "int16", list(np.broadcast_shapes(tuple(shape_a), tuple(shape_b))), scale=0.01)
    mb.op("SQUARED_DIFFERENCE", [a, b], [mb.output(y)], "SquaredDifferenceOptions")
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, mb.build())


def concat_model(scale_b=0.1, zp_b=0, axis=1, out_shape=(2, 5)):
    mb = ModelBuilder()
    a = mb.input("a", "int8", [2, 3], **Q)
    b = mb.input("b", "int8", [2, 2], scale=scale_b, zero_point=zp_b)
    y = mb.tensor("y", "int8", list(out_shape), **Q)
    mb.op("CONCATENATION", [a, b], [y], "ConcatenationOptions", axis=axis)
    mb.output(y)
    return mb.build()


def test_concat_inputs_with_other_quantization(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(CONCATENATION\): tensor 'b': input 1 quantization "
                                           r"\(scale 0.2, zero point 3\) differs from the output's .*TFLM's int8 "
                                           r"kernel does not rescale"):
        compile_bytes(tmp_path, concat_model(scale_b=0.2, zp_b=3))


def test_concat_axis_out_of_range(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(CONCATENATION\): axis -3 is out of range for rank 2"):
        compile_bytes(tmp_path, concat_model(axis=-3))


def test_concat_shapes_do_not_match(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(CONCATENATION\): tensor 'b': input 1 shape \[2, 2\] "
                                           r"does not match output shape \[4, 3\] outside axis 0"):
        compile_bytes(tmp_path, concat_model(axis=0, out_shape=(4, 3)))


def pad_model(paddings_constant=True, out_shape=(1, 4, 5, 2), paddings=((0, 0), (1, 0), (1, 1), (0, 0))):
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 3, 3, 2], **Q)
    p_data = np.array(paddings, np.int32)
    if paddings_constant:
        p = mb.const("paddings", p_data)
    else:
        p = mb.input("paddings", "int32", [4, 2])
    y = mb.tensor("y", "int8", list(out_shape), **Q)
    mb.op("PAD", [x, p], [y], "PadOptions")
    mb.output(y)
    return mb.build()


def test_pad_with_runtime_paddings(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(PAD\): tensor 'paddings': must be a constant tensor"):
        compile_bytes(tmp_path, pad_model(paddings_constant=False))


def test_pad_output_shape_mismatch(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(PAD\): tensor 'y': output shape \[1, 4, 4, 2\] is not "
                                           r"input shape \[1, 3, 3, 2\] padded by"):
        compile_bytes(tmp_path, pad_model(out_shape=(1, 4, 4, 2)))


def test_pad_negative(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(PAD\): tensor 'paddings': negative paddings"):
        compile_bytes(tmp_path, pad_model(out_shape=(1, 2, 5, 2), paddings=((0, 0), (-1, 0), (1, 1), (0, 0))))


def mean_model(axes, out_shape, keep_dims=True, axes_constant=True):
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 4, 3], **Q)
    ax = mb.const("axes", np.array(axes, np.int32)) if axes_constant else mb.input("axes", "int32", [len(axes)])
    y = mb.tensor("y", "int8", list(out_shape), **Q)
    mb.op("MEAN", [x, ax], [y], "ReducerOptions", keep_dims=keep_dims)
    mb.output(y)
    return mb.build()


def test_mean_axis_out_of_range(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(MEAN\): tensor 'axes': axis 4 is out of range for "
                                           r"input rank 4"):
        compile_bytes(tmp_path, mean_model([1, 4], [1, 1, 4, 1]))


def test_mean_runtime_axes(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(MEAN\): tensor 'axes': must be a constant tensor"):
        compile_bytes(tmp_path, mean_model([1, 2], [1, 1, 1, 3], axes_constant=False))


def test_mean_output_shape_ignores_keep_dims(tmp_path):
    with pytest.raises(TinyAotError, match=r"operator 0 \(MEAN\): tensor 'y': output shape \[1, 1, 1, 3\] "
                                           r"should be \[1, 3\] \(axes \[1, 2\], keep_dims False\)"):
        compile_bytes(tmp_path, mean_model([1, 2], [1, 1, 1, 3], keep_dims=False))


@pytest.mark.parametrize("in_dtype, axis, out_shape, message", [
    ("int16", 1, [2], r"operator 0 \(ARG_MAX\): tensor 'x': dtype int16 is not supported here "
                      r"\(supported: int8, float32\)"),
    ("int8", 2, [2], r"operator 0 \(ARG_MAX\): tensor 'axis': axis 2 is out of range for rank 2"),
    ("int8", 0, [2], r"operator 0 \(ARG_MAX\): tensor 'y': output shape \[2\] should be \[3\]"),
])
def test_arg_max_refused(tmp_path, in_dtype, axis, out_shape, message):
    mb = ModelBuilder()
    x = mb.input("x", in_dtype, [2, 3], **Q)
    y = mb.tensor("y", "int32", out_shape)
    mb.op("ARG_MAX", [x, mb.const("axis", np.array([axis], np.int32))], [y], "ArgMaxOptions", output_type=2)
    mb.output(y)
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, mb.build())


@pytest.mark.parametrize("a_shape, b_shape, out_shape, a_dtype, b_dtype, message", [
    ([2, 3, 4], [2, 5, 5], [2, 3, 5], "int8", "int8", r"operator 0 \(BATCH_MATMUL\): tensor 'b': lhs \[2, 3, 4\] "
                                                      r"and rhs \[2, 5, 5\] do not multiply"),
    ([2, 3, 4], [3, 4, 5], [2, 3, 5], "int8", "int8", r"tensor 'b': batch dimensions of \[2, 3, 4\] and "
                                                      r"\[3, 4, 5\] do not broadcast"),
    ([4], [4, 5], [5], "int8", "int8", r"operator 0 \(BATCH_MATMUL\): tensor 'a': rank 1 is outside 2..5"),
    ([3, 4], [4, 5], [3, 4], "int8", "int8", r"tensor 'y': output shape \[3, 4\] should be \[3, 5\]"),
    ([3, 4], [4, 5], [3, 5], "float32", "int8", r"operator 0 \(BATCH_MATMUL\): tensor 'b': dtype int8 is not "
                                                r"supported here \(supported: float32\)"),
    ([3, 4], [4, 6], [3, 5], "float32", "float32", r"tensor 'y': output shape \[3, 5\] should be \[3, 6\]"),
    ([3, 4], [4, 5], [3, 5], "int16", "int8", r"operator 0 \(BATCH_MATMUL\): tensor 'b': dtype int8 is not "
                                              r"supported here \(supported: int16\)"),
    ([3, 4], [4, 5], [3, 5], "int16z", "int16z", r"operator 0 \(BATCH_MATMUL\): tensor 'a': int16 zero point "
                                                 r"must be 0, not 3"),
    ([3, 131072], [131072, 1], [3, 1], "int16", "int16", r"operator 0 \(BATCH_MATMUL\): tensor 'a': depth 131072 "
                                                         r"x 2\^30 per product can pass the \+-2\^47"),
])
def test_batch_matmul_refused(tmp_path, a_shape, b_shape, out_shape, a_dtype, b_dtype, message):
    mb = ModelBuilder()
    quant = {"int8": Q, "float32": {}, "int16": dict(scale=0.001, zero_point=0),
             "int16z": dict(scale=0.001, zero_point=3)}  # int16 with a zero point
    dtype = {"int16z": "int16"}
    a = mb.input("a", dtype.get(a_dtype, a_dtype), a_shape, **quant[a_dtype])
    b = mb.input("b", dtype.get(b_dtype, b_dtype), b_shape, **quant[b_dtype])
    y = mb.tensor("y", dtype.get(a_dtype, a_dtype), out_shape, **quant[a_dtype])
    mb.op("BATCH_MATMUL", [a, b], [y], "BatchMatMulOptions")
    mb.output(y)
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, mb.build())


def test_int16_batch_matmul_rescale_beyond_tflm_64_bit(tmp_path):
    mb = ModelBuilder()
    a, b = (mb.input(n, "int16", [3, 4], scale=1.0, zero_point=0) for n in "ab")
    mb.op("BATCH_MATMUL", [a, b], [mb.output(mb.tensor("y", "int16", [3, 3], scale=0.001))], "BatchMatMulOptions",
          adj_y=True)
    with pytest.raises(TinyAotError, match=r"operator 0 \(BATCH_MATMUL\): tensor 'y': lhs scale x rhs scale / output "
                                           r"scale 1000 is 128 or more, beyond TFLM's 64-bit rescale \(shifts below 8\)"):
        compile_bytes(tmp_path, mb.build())


def test_add_n_of_one_input(tmp_path):
    mb = ModelBuilder()
    a = mb.input("a", "float32", [4])
    y = mb.tensor("y", "float32", [4])
    mb.op("ADD_N", [a], [y], "AddNOptions")
    mb.output(y)
    with pytest.raises(TinyAotError, match=r"operator 0 \(ADD_N\): has 1 inputs \(TFLM takes 2 or more\)"):
        compile_bytes(tmp_path, mb.build())


def test_floor_div_by_a_constant_zero(tmp_path):
    mb = ModelBuilder()
    a = mb.input("a", "float32", [3])
    y = mb.tensor("y", "float32", [3])
    mb.op("FLOOR_DIV", [a, mb.const("d", np.array([2.0, 0.0, -1.0], np.float32))], [y], "FloorDivOptions")
    mb.output(y)
    with pytest.raises(TinyAotError, match=r"operator 0 \(FLOOR_DIV\): tensor 'd': the constant divisor holds a 0 "
                                           r"\(TFLM fails the run\)"):
        compile_bytes(tmp_path, mb.build())
