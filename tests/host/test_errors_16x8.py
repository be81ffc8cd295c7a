"""16x8 (int16 activations, int8 weights): what TFLM's int16 kernels cannot take is
refused in one line naming the operator and the tensor. (Results against TFLM:
the catalog's *_16x8 models in test_models_host.py.)"""

import numpy as np
import pytest
import tflite

from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import catalog


def fc_16x8(in_zp=0, bias_dtype="int64", weight_zp=0, bias_const=True, bias_value=0):
    mb = ModelBuilder()
    x = mb.input("x", "int16", [1, 4], scale=0.001, zero_point=in_zp)
    w = mb.const("w", np.ones((3, 4), np.int8), scale=0.01, zero_point=weight_zp)
    if bias_const:
        b = mb.const("b", np.full(3, bias_value, bias_dtype), scale=0.00001)
    else:
        b = mb.input("b", bias_dtype, [3])
    y = mb.output(mb.tensor("y", "int16", [1, 3], scale=0.002, zero_point=0))
    mb.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions")
    return mb.build()


def depthwise_16x8(bias_dtype):
    mb = ModelBuilder()
    x = mb.input("x", "int16", [1, 3, 3, 2], scale=0.001, zero_point=0)
    w = mb.const("w", np.ones((1, 2, 2, 2), np.int8), scale=0.01)
    b = mb.const("b", np.zeros(2, bias_dtype), scale=0.00001)
    y = mb.output(mb.tensor("y", "int16", [1, 3, 3, 2], scale=0.002, zero_point=0))
    mb.op("DEPTHWISE_CONV_2D", [x, w, b], [y], "DepthwiseConv2DOptions", padding=0, stride_h=1, stride_w=1,
          depth_multiplier=1, dilation_h_factor=1, dilation_w_factor=1)
    return mb.build()


def transpose_conv_16x8(bias_dtype="int64", out_zp=0):
    mb = ModelBuilder()
    x = mb.input("x", "int16", [1, 2, 2, 2], scale=0.001, zero_point=0)
    w = mb.const("w", np.ones((3, 3, 3, 2), np.int8), scale=0.01)
    b = mb.const("b", np.zeros(3, bias_dtype), scale=0.00001)
    y = mb.output(mb.tensor("y", "int16", [1, 4, 4, 3], scale=0.002, zero_point=out_zp))
    mb.op("TRANSPOSE_CONV", [mb.const("shape", np.array([1, 4, 4, 3], np.int32)), w, x, b], [y],
          "TransposeConvOptions", padding=0, stride_h=2, stride_w=2)
    return mb.build()


@pytest.mark.parametrize("data,message", [
    (fc_16x8(in_zp=5), r"operator 0 \(FULLY_CONNECTED\): tensor 'x': int16 zero point must be 0, not 5 "
                       r"\(TFLM's 16x8 kernels add no offset\)"),
    (fc_16x8(weight_zp=2), r"operator 0 \(FULLY_CONNECTED\): tensor 'w': 16x8 weights must have zero point 0"),
    (fc_16x8(bias_dtype="int16"),
     r"operator 0 \(FULLY_CONNECTED\): tensor 'b': dtype int16 is not supported here \(supported: int64, int32\)"),
    (depthwise_16x8("int32"),
     r"operator 0 \(DEPTHWISE_CONV_2D\): tensor 'b': dtype int32 is not supported here \(supported: int64\)"),
    (fc_16x8(bias_dtype="int64", bias_const=False),
     r"operator 0 \(FULLY_CONNECTED\): tensor 'b': must be a constant tensor \(it is computed at run time\)"),
    # Four products of |1 x 32768| on top of the bias: exactly 2^47.
    (fc_16x8(bias_value=2**47 - 4 * 32768),
     r"operator 0 \(FULLY_CONNECTED\): tensor 'b': int64 bias and products reach 140737488355328, beyond the "
     r"\+-2\^47 that TFLM's 64-bit rescale \(MultiplyByQuantizedMultiplier\) is defined for"),
    (transpose_conv_16x8(bias_dtype="int32"),
     r"operator 0 \(TRANSPOSE_CONV\): tensor 'b': dtype int32 is not supported here \(supported: int64, int16\)"),
    (transpose_conv_16x8(out_zp=4),
     r"operator 0 \(TRANSPOSE_CONV\): tensor 'y': int16 zero point must be 0, not 4 \(TFLM's 16x8 kernels add no "
     r"offset\)"),
], ids=["input-zero-point", "weight-zero-point", "int16-bias", "depthwise-int32-bias", "int64-bias-computed",
        "int64-bias-past-2^47", "transpose-conv-int32-bias", "transpose-conv-output-zero-point"])
def test_16x8_errors(tmp_path, data, message):
    path = tmp_path / "bad.tflite"
    path.write_bytes(data)
    with pytest.raises(TinyAotError, match=message):
        compile_model(path, Options("bad"))


def test_int64_bias_just_inside_2_47_compiles(tmp_path):
    """One below the limit the error test above hits: no error."""
    path = tmp_path / "ok.tflite"
    path.write_bytes(fc_16x8(bias_value=2**47 - 4 * 32768 - 1))
    compile_model(path, Options("ok"))


def test_lstm_16x8_bias_past_2_47_is_refused(tmp_path):
    """An LSTM gate rescales its input products plus bias in 64 bits as the layers above do (a
    damaged bias near 2^56 overflowed that product, in TFLM's C++ and in the kernel here)."""
    data = bytearray(catalog.build("lstm_audio_fc_16x8", tmp_path).read_bytes())
    model = tflite.Model.GetRootAsModel(data, 0)
    graph = model.Subgraphs(0)
    bias = next(graph.Tensors(i) for i in range(graph.TensorsLength()) if graph.Tensors(i).Name() == b"lstm1_b3")
    model.Buffers(bias.Buffer()).DataAsNumpy().view(np.int64)[0] = 2**47
    path = tmp_path / "bad.tflite"
    path.write_bytes(data)
    with pytest.raises(TinyAotError, match=r"operator 0 \(UNIDIRECTIONAL_SEQUENCE_LSTM\): tensor 'lstm1_b3': int64 "
                                           r"bias and products reach \d+, beyond the \+-2\^47"):
        compile_model(path, Options("bad"))
