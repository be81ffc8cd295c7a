"""SOFTMAX, LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU, QUANTIZE, DEQUANTIZE: models tinyaot refuses
(one clear error naming the operator, the tensor and the problem), and the
compile-time constants that the catalog comparison only checks indirectly."""

import re

import pytest

from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.compile import compile_bytes

S8_OUT = dict(scale=1.0 / 256, zero_point=-128)


def one_op_model(op, in_dtype="int8", out_dtype="int8", in_quant=None, out_quant=None,
                 in_shape=(1, 8), out_shape=None, options_type=None, **options):
    """x -> op -> y; the quantization arguments default to a plain int8 tensor."""
    mb = ModelBuilder()
    in_quant = dict(scale=0.1, zero_point=3) if in_quant is None else in_quant
    out_quant = dict(scale=0.1, zero_point=3) if out_quant is None else out_quant
    x = mb.input("x", in_dtype, list(in_shape), **in_quant)
    y = mb.tensor("y", out_dtype, list(out_shape or in_shape), **out_quant)
    mb.op(op, [x], [y], options_type, **options)
    mb.output(y)
    return mb.build()


def case_id(value):
    """Readable test ids: the expected message's words, not the model's bytes."""
    if isinstance(value, bytes):
        return "model"
    return re.sub(r"\W+", "_", value.split("): ", 1)[-1])[:60].strip("_")


def softmax(beta=1.0, **kw):
    kw.setdefault("out_quant", S8_OUT)
    return one_op_model("SOFTMAX", options_type="SoftmaxOptions", beta=beta, **kw)


@pytest.mark.parametrize("data,message", [
    (softmax(in_dtype="int32", in_quant={}, out_dtype="int32", out_quant={}),
     r"operator 0 \(SOFTMAX\): tensor 'x': dtype int32 is not supported here \(supported: int8, int16, float32\)"),
    (softmax(in_dtype="float32", in_quant={}),
     r"operator 0 \(SOFTMAX\): tensor 'y': dtype int8 is not supported here \(supported: float32\)"),
    (softmax(out_quant=dict(scale=1.0 / 256, zero_point=0)),
     r"operator 0 \(SOFTMAX\): tensor 'y': int8 output must have scale 1/256 and zero point -128, not 0.00390625 and 0"),
    (softmax(out_dtype="int16", out_quant=dict(scale=1.0 / 32768, zero_point=-32768)),
     r"operator 0 \(SOFTMAX\): tensor 'y': int16 output must have scale 1/65536 and zero point -32768"),
    (softmax(out_dtype="int32"),
     r"operator 0 \(SOFTMAX\): tensor 'y': dtype int32 is not supported here \(supported: int8, int16\)"),
    (softmax(beta=1e-9),
     r"operator 0 \(SOFTMAX\): tensor 'x': beta 1e-09 x input scale 0.1 is too small"),
    (softmax(beta=-1.0), r"operator 0 \(SOFTMAX\): beta -1.0 must be positive"),
    (one_op_model("SOFTMAX", out_quant=S8_OUT), r"operator 0 \(SOFTMAX\): has no builtin options \(needs SoftmaxOptions\)"),
    (softmax(out_shape=(2, 4)),
     r"operator 0 \(SOFTMAX\): tensor 'y': output shape \[2, 4\] differs from input shape \[1, 8\]"),
    (softmax(in_shape=(1, 5000)), r"operator 0 \(SOFTMAX\): tensor 'x': last dimension 5000 is outside 1..4095"),
    (softmax(in_quant={}), r"operator 0 \(SOFTMAX\): tensor 'x': tensor is not quantized"),
], ids=case_id)
def test_softmax_errors(tmp_path, data, message):
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, data)


@pytest.mark.parametrize("data,message", [
    (one_op_model("LOGISTIC", out_quant=dict(scale=1.0 / 256, zero_point=0)),
     r"operator 0 \(LOGISTIC\): tensor 'y': output zero point must be -128, not 0"),
    (one_op_model("LOGISTIC", in_dtype="int32", out_dtype="int32", in_quant=dict(scale=1 / 4096, zero_point=0)),
     r"operator 0 \(LOGISTIC\): tensor 'x': dtype int32 is not supported here \(supported: int8, int16, float32\)"),
    (one_op_model("LOGISTIC", out_dtype="int16", out_quant=S8_OUT),
     r"operator 0 \(LOGISTIC\): tensor 'y': output dtype int16 differs from input dtype int8"),
    (one_op_model("LOGISTIC", in_quant=dict(scale=100.0, zero_point=0), out_quant=S8_OUT),
     r"operator 0 \(LOGISTIC\): tensor 'x': input scale 100 is outside what TFLM's int8 LOGISTIC handles"),
    (one_op_model("TANH", out_quant=dict(scale=1.0 / 256, zero_point=0)),
     r"operator 0 \(TANH\): tensor 'y': output must have scale 1/128 and zero point 0, not 0.00390625 and 0"),
    (one_op_model("TANH", in_quant=dict(scale=100.0, zero_point=0), out_quant=dict(scale=1.0 / 128, zero_point=0)),
     r"operator 0 \(TANH\): tensor 'x': input scale 100 is outside what TFLM's int8 TANH handles"),
    (one_op_model("LEAKY_RELU", in_dtype="int16", options_type="LeakyReluOptions", alpha=0.2),
     r"operator 0 \(LEAKY_RELU\): tensor 'y': output dtype int8 differs from input dtype int16"),
    (one_op_model("LEAKY_RELU", in_dtype="int32", out_dtype="int32", options_type="LeakyReluOptions", alpha=0.2),
     r"operator 0 \(LEAKY_RELU\): tensor 'x': dtype int32 is not supported here \(supported: int8, int16\)"),
    (one_op_model("LEAKY_RELU", out_quant={}, options_type="LeakyReluOptions", alpha=0.2),
     r"operator 0 \(LEAKY_RELU\): tensor 'y': tensor is not quantized"),
    (one_op_model("LEAKY_RELU", out_quant=dict(scale=1e-12, zero_point=0), options_type="LeakyReluOptions",
                  alpha=0.2),
     r"operator 0 \(LEAKY_RELU\): rescaling by 1e\+11 \(from the tensors' scales\) is too large"),
    (one_op_model("HARD_SWISH", in_quant=dict(scale=1.0, zero_point=0), out_quant=dict(scale=0.001, zero_point=0)),
     r"operator 0 \(HARD_SWISH\): tensor 'y': input scale / output scale 1000 is too large"),
    (one_op_model("HARD_SWISH", in_dtype="int16", out_dtype="int16", in_quant=dict(scale=1 / 4096, zero_point=0)),
     r"operator 0 \(HARD_SWISH\): tensor 'x': dtype int16 is not supported here \(supported: int8, float32\)"),
    (one_op_model("HARD_SWISH", in_dtype="float32", in_quant={}),
     r"operator 0 \(HARD_SWISH\): tensor 'y': dtype int8 is not supported here \(supported: float32\)"),
    (one_op_model("RELU", in_dtype="uint8", out_dtype="uint8", in_quant=dict(scale=0.1, zero_point=128)),
     r"operator 0 \(RELU\): tensor 'x': dtype uint8 is not supported here \(supported: int8, int16\)"),
    (one_op_model("RELU", in_dtype="int16", out_dtype="int16", in_quant=dict(scale=0.001, zero_point=0),
                  out_quant=dict(scale=0.001, zero_point=-9)),
     r"operator 0 \(RELU\): tensor 'y': int16 zero point must be 0, not -9 \(TFLM's int16 RELU requires it\)"),
    (one_op_model("RELU", out_quant={}), r"operator 0 \(RELU\): tensor 'y': tensor is not quantized"),
    (one_op_model("RELU6", in_dtype="float32", out_quant={}),
     r"operator 0 \(RELU6\): tensor 'y': dtype int8 is not supported here \(supported: float32\)"),
    (one_op_model("RELU6", out_shape=(8,)),
     r"operator 0 \(RELU6\): tensor 'y': output shape \[8\] differs from input shape \[1, 8\]"),
    (one_op_model("EXP"), r"operator 0 \(EXP\): tensor 'x': dtype int8 is not supported here \(supported: float32\)"),
    (one_op_model("RSQRT", in_dtype="int16", out_dtype="int16"),
     r"operator 0 \(RSQRT\): tensor 'x': dtype int16 is not supported here \(supported: int8, float32\)"),
    (one_op_model("RSQRT", in_dtype="float32", out_dtype="float32", in_quant={}, out_quant={}, out_shape=(8,)),
     r"operator 0 \(RSQRT\): tensor 'y': output shape \[8\] differs from input shape \[1, 8\]"),
], ids=case_id)
def test_activation_errors(tmp_path, data, message):
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, data)


@pytest.mark.parametrize("data,message", [
    (one_op_model("QUANTIZE", in_dtype="float32", in_quant={}, out_dtype="int32"),
     r"operator 0 \(QUANTIZE\): tensor 'y': float32 to int32 is not supported \(float32 quantizes to: int8, int16\)"),
    (one_op_model("QUANTIZE", in_dtype="int32", out_dtype="int32"),
     r"operator 0 \(QUANTIZE\): tensor 'y': int32 to int32 is not supported \(supported: float32->int8, "
     r"float32->int16, int16->int16, int16->int32, int16->int8, int32->int16, int32->int8, int8->int16, "
     r"int8->int32, int8->int8, int8->uint8, uint8->int8\)"),
    (one_op_model("QUANTIZE", in_dtype="float32", in_quant={}, out_quant={}),
     r"operator 0 \(QUANTIZE\): tensor 'y': tensor is not quantized"),
    (one_op_model("QUANTIZE", in_dtype="int16", in_quant=dict(scale=0.01, zero_point=0), in_shape=(2, 4),
                  out_quant=dict(scale=[0.1, 0.2], zero_point=0)),
     r"operator 0 \(QUANTIZE\): tensor 'y': per-channel quantization is not supported here"),
    (one_op_model("QUANTIZE", in_dtype="int16", in_quant=dict(scale=0.01, zero_point=0), out_shape=(1, 9)),
     r"operator 0 \(QUANTIZE\): tensor 'y': output has 9 values but input has 8"),
    (one_op_model("QUANTIZE", in_dtype="int16", in_quant=dict(scale=0.01, zero_point=0),
                  out_quant=dict(scale=0.1, zero_point=300)),
     r"bad\.tflite: tensor 'y': zero point 300 is outside the int8 range \[-128, 127\]"),
    (one_op_model("DEQUANTIZE", in_dtype="int32", out_dtype="float32", out_quant={}),
     r"operator 0 \(DEQUANTIZE\): tensor 'x': dtype int32 is not supported here \(supported: int8, uint8, int16\)"),
    (one_op_model("DEQUANTIZE", out_dtype="int16", out_quant={}),
     r"operator 0 \(DEQUANTIZE\): tensor 'y': dtype int16 is not supported here \(supported: float32\)"),
    (one_op_model("DEQUANTIZE", in_quant={}, out_dtype="float32", out_quant={}),
     r"operator 0 \(DEQUANTIZE\): tensor 'x': tensor is not quantized"),
], ids=case_id)
def test_quantize_errors(tmp_path, data, message):
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, data)


def _params(model):
    (_, calls), = model.calls
    return calls[0].args[0].fields


def test_softmax_constants_match_tflm_prepare(tmp_path):
    """micro_speech's softmax: input scale 0.09173192, beta 1. PreprocessSoftmaxScaling:
    float32(0.09173192) * 2^26 = 6156024.94 = 0.7338553667 * 2^23, so shift 23 and
    multiplier round(0.7338553667 * 2^31); CalculateInputRadius: floor(31 * 2^26 / 2^23)."""
    p = _params(compile_bytes(tmp_path, softmax(in_quant=dict(scale=0.09173192, zero_point=14))))
    assert p["input_left_shift"] == 23
    assert p["input_multiplier"] == 1575942400
    assert p["diff_min"] == -(31 * 2**26 // 2**23)


def test_relu_same_scale_is_clamp_only(tmp_path):
    """Equal scales requantize by exactly 1 (multiplier 2^30, shift 1): the kernel skips it."""
    same = _params(compile_bytes(tmp_path, one_op_model("RELU"), "same"))
    other = _params(compile_bytes(tmp_path, one_op_model("RELU", out_quant=dict(scale=0.2, zero_point=-128)), "o"))
    assert (same["requantize"], same["act_min"], same["act_max"]) == (0, 3, 127)
    assert (other["requantize"], other["act_min"]) == (1, -128)


def test_dtype_parameters_name_the_tinyaot_h_enum(tmp_path):
    """The (de)quantize kernels take enum tinyaot_dtype values, emitted by name."""
    model = compile_bytes(tmp_path, one_op_model("QUANTIZE", in_dtype="int16", in_quant=dict(scale=0.01, zero_point=0)))
    fields = _params(model)
    assert (fields["input_type"], fields["output_type"]) == ("TINYAOT_INT16", "TINYAOT_INT8")


@pytest.mark.parametrize("dtype, shape, alpha_shape, alpha_dtype, message", [
    ("int8", [1, 8], [2], "int8",
     r"operator 0 \(PRELU\): tensor 'alpha': input shapes \[1, 8\] and \[2\] do not broadcast"),
    ("int8", [1, 8], [8], "float32",
     r"operator 0 \(PRELU\): tensor 'alpha': dtype float32 is not supported here \(supported: int8\)"),
    ("float32", [1, 8], [8], "int8",
     r"operator 0 \(PRELU\): tensor 'alpha': dtype int8 is not supported here \(supported: float32\)"),
    ("float32", [2, 1, 2, 3, 8], [8], "float32",
     r"operator 0 \(PRELU\): float32 broadcast over 5 dimensions \(at most 4: TFLM's BroadcastPrelu4DSlowFloat\)"),
    ("int16", [1, 8], [8], "int16",  # TFLM's int16 PRELU reads alpha as int8
     r"operator 0 \(PRELU\): tensor 'alpha': dtype int16 is not supported here \(supported: int8\)"),
])
def test_prelu_errors(tmp_path, dtype, shape, alpha_shape, alpha_dtype, message):
    mb = ModelBuilder()
    quant = {"int8": dict(scale=0.1, zero_point=3), "int16": dict(scale=0.001, zero_point=0), "float32": {}}
    x = mb.input("x", dtype, shape, **quant[dtype])
    alpha = mb.input("alpha", alpha_dtype, alpha_shape, **quant[alpha_dtype])
    y = mb.tensor("y", dtype, shape, **quant[dtype])
    mb.op("PRELU", [x, alpha], [y])
    mb.output(y)
    with pytest.raises(TinyAotError, match=message):
        compile_bytes(tmp_path, mb.build())
