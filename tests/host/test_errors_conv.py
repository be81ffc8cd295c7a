"""CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D reject what they
cannot run, naming the operator, the tensor and the problem.

Also here: a depthwise convolution without bias, which TFLM itself cannot run
(its Prepare crashes on the missing tensor), checked against a zero bias.
"""

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.host.oracle import compare_with_tflm, random_inputs
from tinyaot.testing.compile import compile_bytes


def conv_model(op="CONV_2D", in_shape=(1, 5, 5, 3), in_dtype="int8", w_shape=None, w_scale=0.01, w_zp=0,
               w_axis=None, w_const=True, bias_len=None, bias_values=None, out_shape=None, out_q=(0.2, 0),
               **options):
    """x -> one convolution -> y, valid unless an override breaks one piece."""
    rng = np.random.default_rng(0)
    depthwise = op == "DEPTHWISE_CONV_2D"
    channels = 3 * options.get("depth_multiplier", 1) if depthwise else 4
    w_shape = w_shape or ((1, 3, 3, channels) if depthwise else (channels, 3, 3, in_shape[3]))
    w_axis = (3 if depthwise else 0) if w_axis is None else w_axis
    mb = ModelBuilder()
    x = mb.input("x", in_dtype, list(in_shape), scale=0.1, zero_point=-3)
    w_data = random_int8(rng, w_shape)
    w = (mb.const("w", w_data, scale=w_scale, zero_point=w_zp, axis=w_axis) if w_const
         else mb.input("w", "int8", list(w_shape), scale=w_scale, zero_point=w_zp, axis=w_axis))
    b = -1
    if bias_len != 0:
        values = bias_values if bias_values is not None else rng.integers(-500, 500, size=bias_len or channels)
        b = mb.const("b", np.asarray(values, np.int32), scale=0.001)
    out_shape = out_shape or (in_shape[0], in_shape[1], in_shape[2], channels)
    y = mb.tensor("y", "int8", list(out_shape), scale=out_q[0], zero_point=out_q[1])
    options = {"padding": 0, "stride_h": 1, "stride_w": 1, **({"depth_multiplier": 1} if depthwise else {}),
               **options}
    mb.op(op, [x, w, b], [y], "DepthwiseConv2DOptions" if depthwise else "Conv2DOptions", **options)
    mb.output(y)
    return mb.build()


def pool_model(op="MAX_POOL_2D", in_shape=(1, 6, 6, 2), out_shape=(1, 3, 3, 2), out_q=(0.1, 0), **options):
    mb = ModelBuilder()
    x = mb.input("x", "int8", list(in_shape), scale=0.1, zero_point=0)
    y = mb.tensor("y", "int8", list(out_shape), scale=out_q[0], zero_point=out_q[1])
    opts = dict(padding=0, stride_h=2, stride_w=2, filter_height=2, filter_width=2)
    opts.update(options)
    mb.op(op, [x], [y], "Pool2DOptions", **opts)
    mb.output(y)
    return mb.build()


def expect_error(tmp_path, data, pattern):
    with pytest.raises(TinyAotError, match=pattern):
        compile_bytes(tmp_path, data)


def test_valid_models_compile(tmp_path):
    """The factories make good models; each test below breaks one thing."""
    compile_bytes(tmp_path, conv_model())
    compile_bytes(tmp_path, conv_model("DEPTHWISE_CONV_2D", depth_multiplier=2))
    compile_bytes(tmp_path, pool_model())


def test_output_size_disagrees_with_padding(tmp_path):
    expect_error(tmp_path, conv_model(out_shape=(1, 5, 5, 4), padding=1),
                 r"bad\.tflite: operator 0 \(CONV_2D\): tensor 'y': output is 5x5, but VALID padding with "
                 r"stride 1x1 on a 5x5 input gives 3x3")


def test_filter_larger_than_input(tmp_path):
    expect_error(tmp_path, conv_model(in_shape=(1, 2, 5, 3), out_shape=(1, 1, 3, 4), padding=1),
                 r"operator 0 \(CONV_2D\): tensor 'x': a 3x3 filter \(dilation 1x1\) with VALID padding does not "
                 r"fit the 2x5 input")


def test_float_input_with_int8_output(tmp_path):
    expect_error(tmp_path, conv_model(in_dtype="float32"),
                 r"operator 0 \(CONV_2D\): tensor 'y': dtype int8 is not supported here \(supported: float32\)")


def test_int32_input(tmp_path):
    expect_error(tmp_path, conv_model(in_dtype="int32"),
                 r"operator 0 \(CONV_2D\): tensor 'x': dtype int32 is not supported here \(supported: int8, int16, float32\)")


def test_filter_computed_at_run_time(tmp_path):
    expect_error(tmp_path, conv_model(w_const=False),
                 r"operator 0 \(CONV_2D\): tensor 'w': must be a constant tensor")


def test_nonzero_filter_zero_point(tmp_path):
    expect_error(tmp_path, conv_model(w_zp=5),
                 r"operator 0 \(CONV_2D\): tensor 'w': filter zero point must be 0 \(int8 weights are "
                 r"symmetric\), not 5")


def test_per_channel_scales_on_wrong_axis(tmp_path):
    # A [4, 3, 3, 3] conv filter with 3 scales on axis 3: the input channels, not the output's.
    expect_error(tmp_path, conv_model(w_scale=[0.01, 0.02, 0.03], w_axis=3),
                 r"operator 0 \(CONV_2D\): tensor 'w': per-channel quantization must have one scale per "
                 r"output channel on axis 0 \(4\), not 3 on axis 3")


def test_bias_length(tmp_path):
    expect_error(tmp_path, conv_model(bias_len=3),
                 r"operator 0 \(CONV_2D\): tensor 'b': bias has 3 values, expected 4")


def test_zero_output_scale(tmp_path):
    # The reader refuses a zero scale on any tensor, before any operator divides by it.
    for model in (conv_model(out_q=(0.0, 0)), pool_model(out_q=(0.0, 0))):
        expect_error(tmp_path, model, r"bad\.tflite: tensor 'y': quantization scale is zero, negative or not finite")


def test_unsupported_fused_activation(tmp_path):
    expect_error(tmp_path, conv_model(fused_activation_function=4),
                 r"operator 0 \(CONV_2D\): fused activation TANH is not supported")


def test_zero_stride(tmp_path):
    expect_error(tmp_path, conv_model(stride_h=0, stride_w=1),
                 r"operator 0 \(CONV_2D\): strides must be at least 1, not 0x1")


def test_unknown_padding(tmp_path):
    expect_error(tmp_path, conv_model(padding=7),
                 r"operator 0 \(CONV_2D\): padding 7 is not supported \(supported: SAME, VALID\)")


def test_filter_depth_does_not_divide_input_channels(tmp_path):
    expect_error(tmp_path, conv_model(w_shape=(4, 3, 3, 2)),
                 r"operator 0 \(CONV_2D\): tensor 'w': filter depth 2 does not divide the input's 3 channels")


def test_input_not_4d(tmp_path):
    expect_error(tmp_path, conv_model(in_shape=(5, 5, 3), w_shape=(4, 3, 3, 3), out_shape=(5, 5, 4)),
                 r"operator 0 \(CONV_2D\): tensor 'x': must be 4-D \(NHWC\), not \[5, 5, 3\]")


def test_depth_multiplier_disagrees_with_channels(tmp_path):
    expect_error(tmp_path, conv_model("DEPTHWISE_CONV_2D", w_shape=(1, 3, 3, 3), bias_len=3,
                                      out_shape=(1, 5, 5, 3), depth_multiplier=2),
                 r"operator 0 \(DEPTHWISE_CONV_2D\): depth_multiplier 2 does not turn 3 input channels into 3")


def test_depthwise_filter_shape(tmp_path):
    expect_error(tmp_path, conv_model("DEPTHWISE_CONV_2D", w_shape=(2, 3, 3, 3), w_axis=3),
                 r"operator 0 \(DEPTHWISE_CONV_2D\): tensor 'w': depthwise filter must have shape "
                 r"\[1, h, w, channels\], not \[2, 3, 3, 3\]")


def test_depthwise_per_channel_count(tmp_path):
    expect_error(tmp_path, conv_model("DEPTHWISE_CONV_2D", w_scale=[0.01, 0.02, 0.03, 0.04], w_axis=1,
                                      w_shape=(1, 4, 4, 3), out_shape=(1, 5, 5, 3)),
                 r"operator 0 \(DEPTHWISE_CONV_2D\): tensor 'w': per-channel quantization must have one scale "
                 r"per output channel on axis 3 \(3\), not 4 on axis 1")


@pytest.mark.parametrize("op", ["AVERAGE_POOL_2D", "MAX_POOL_2D"])
def test_pooling_requantization(tmp_path, op):
    expect_error(tmp_path, pool_model(op, out_q=(0.2, 0)),
                 rf"operator 0 \({op}\): tensor 'y': output quantization \(scale 0\.2, zero point 0\) must equal "
                 r"the input's \(scale 0\.1, zero point 0\): pooling does not requantize")


def test_pooling_zero_filter(tmp_path):
    expect_error(tmp_path, pool_model("AVERAGE_POOL_2D", filter_height=0),
                 r"operator 0 \(AVERAGE_POOL_2D\): filter size 0x2 is empty")


def test_pooling_output_shape(tmp_path):
    expect_error(tmp_path, pool_model(out_shape=(1, 3, 2, 2), padding=1),
                 r"operator 0 \(MAX_POOL_2D\): tensor 'y': output is 3x2, but VALID padding with stride 2x2 on "
                 r"a 6x6 input gives 3x3")


def test_depthwise_without_bias_equals_zero_bias(tmp_path):
    """TFLM segfaults preparing DEPTHWISE_CONV_2D without a bias tensor, so it cannot
    judge that case; the same model with an all-zero bias is checked against TFLM, and
    the model without bias must give the same bytes."""
    options = dict(depth_multiplier=2, stride_h=2, stride_w=1, dilation_h_factor=2, fused_activation_function=1)
    shape = dict(in_shape=(1, 7, 6, 3), out_shape=(1, 4, 6, 6), out_q=(0.05, -20))
    outputs = {}
    for name, bias in (("zero_bias", dict(bias_values=np.zeros(6))), ("no_bias", dict(bias_len=0))):
        path = tmp_path / f"{name}.tflite"
        path.write_bytes(conv_model("DEPTHWISE_CONV_2D", **shape, **bias, **options))
        emit(compile_model(path, Options(name)), tmp_path / name)
        with HostModel(tmp_path / name, name) as host:
            runs = []

            def run(inputs):
                host.set_input(0, inputs[0])
                host.run()
                runs.append(host.get_output(0).copy())
                return [runs[-1]]

            if name == "zero_bias":
                assert not compare_with_tflm(path, run, host.inputs, calls=10, seed=0)
            else:  # the same inputs as compare_with_tflm's
                rng = np.random.default_rng(0)
                for _ in range(10):
                    run(random_inputs(host.inputs, rng))
            outputs[name] = runs
    for with_zero, without in zip(outputs["zero_bias"], outputs["no_bias"]):
        np.testing.assert_array_equal(with_zero, without)


def test_huge_dilation_is_refused(tmp_path):
    expect_error(tmp_path, conv_model(dilation_h_factor=1 << 20),
                 r"operator 0 \(CONV_2D\): stride 1x1 or dilated filter extent 2097153 is above 65536: "
                 r"the kernels index with 32-bit arithmetic")


def test_rescale_too_large_for_32_bits(tmp_path):
    # input 0.1 x weights 0.01 / output 1e-40: a multiplier of about 2^123.
    expect_error(tmp_path, conv_model(out_q=(1e-40, 0)),
                 r"operator 0 \(CONV_2D\): rescaling by .* \(from the tensors' scales\) is too large: above 2\^30")


def transpose_conv_model(in_shape=(1, 2, 2, 3), out_shape=(1, 4, 4, 2), shape_values=None, padding=0, w_zp=0,
                         with_options=True, dtype="int8", w_dtype="int8", act=0):
    rng = np.random.default_rng(0)
    mb = ModelBuilder()
    quant = (lambda scale: dict(scale=scale, zero_point=0)) if dtype == "int8" else (lambda scale: {})
    x = mb.input("x", dtype, list(in_shape), **quant(0.1))
    w_values = rng.integers(-100, 100, (out_shape[3], 3, 3, in_shape[3]))
    w = (mb.const("w", w_values.astype(np.int8), scale=0.01, zero_point=w_zp) if w_dtype == "int8"
         else mb.const("w", w_values.astype(np.float32)))
    shape = mb.const("shape", np.array(shape_values or out_shape, np.int32))
    y = mb.tensor("y", dtype, list(out_shape), **quant(0.2))
    if with_options:
        mb.op("TRANSPOSE_CONV", [shape, w, x], [y], "TransposeConvOptions", padding=padding, stride_h=2, stride_w=2,
              fused_activation_function=act)
    else:
        mb.op("TRANSPOSE_CONV", [shape, w, x], [y])
    mb.output(y)
    return mb.build()


@pytest.mark.parametrize("kwargs, message", [
    (dict(in_shape=(1, 3, 2, 3)), r"operator 0 \(TRANSPOSE_CONV\): tensor 'x': a 4x4 output with SAME padding "
                                  r"and stride 2x2 comes from a 2x2 input, not 3x2"),
    (dict(shape_values=[1, 4, 4, 3]), r"operator 0 \(TRANSPOSE_CONV\): tensor 'shape': output shape input "
                                      r"\[1, 4, 4, 3\] differs from the output's \[1, 4, 4, 2\]"),
    (dict(w_zp=3), r"operator 0 \(TRANSPOSE_CONV\): tensor 'w': filter zero point must be 0"),
    # TFLM would run with zeroed parameters: stride 0, padding unknown.
    (dict(with_options=False), r"operator 0 \(TRANSPOSE_CONV\): has no builtin options \(needs TransposeConvOptions\)"),
    (dict(dtype="float32"), r"operator 0 \(TRANSPOSE_CONV\): tensor 'w': dtype int8 is not supported here "
                            r"\(supported: float32\)"),
    (dict(dtype="float32", w_dtype="float32", act=4), r"operator 0 \(TRANSPOSE_CONV\): fused activation TANH is not "
                                                      r"supported"),
])
def test_transpose_conv_refused(tmp_path, kwargs, message):
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, transpose_conv_model(**kwargs))
