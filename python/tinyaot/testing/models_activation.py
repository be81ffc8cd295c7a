"""Test models: SOFTMAX, LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH, QUANTIZE and DEQUANTIZE.

Each model feeds one input to several operators with different options, so a
few small models cover the dtype pairs and the edge cases (saturation,
clamping, capped multipliers) against TFLM.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import test_model

SOFTMAX_S8 = dict(scale=1.0 / 256, zero_point=-128)
SOFTMAX_S16 = dict(scale=1.0 / 65536, zero_point=-32768)


def _softmax(mb, x, name, dtype, shape, beta):
    y = mb.tensor(name, dtype, shape, **(SOFTMAX_S8 if dtype == "int8" else SOFTMAX_S16))
    mb.op("SOFTMAX", [x], [y], "SoftmaxOptions", beta=beta)
    return mb.output(y)


@test_model("softmax_rows")
def softmax_s8_rows():
    """Rank 3, three rows: int8 and int16 outputs, beta 1 and a fractional beta."""
    mb = ModelBuilder()
    shape = [1, 3, 10]
    x = mb.input("x", "int8", shape, scale=0.15, zero_point=3)
    _softmax(mb, x, "p_s8", "int8", shape, 1.0)
    _softmax(mb, x, "p_s16", "int16", shape, 0.37)
    _softmax(mb, x, "p_s8_beta", "int8", shape, 2.5)
    return mb.build()


@test_model("softmax_scales")
def softmax_s8_scales():
    """A small input scale (every value counts), and a large one whose
    beta * scale * 2^26 is capped at 2^31 - 1 (only the maximum survives)."""
    mb = ModelBuilder()
    shape = [4, 40]
    fine = mb.input("fine", "int8", shape, scale=0.004, zero_point=-20)
    coarse = mb.input("coarse", "int8", [2, 5], scale=0.9, zero_point=0)
    _softmax(mb, fine, "fine_s8", "int8", shape, 1.0)
    _softmax(mb, fine, "fine_s16", "int16", shape, 7.0)
    _softmax(mb, coarse, "coarse_s8", "int8", [2, 5], 40.0)
    _softmax(mb, coarse, "coarse_s16", "int16", [2, 5], 0.2)
    return mb.build()


@test_model("logistic_int8")
def logistic_s8():
    """Inside the range radius (small scale) and mostly saturated (large scale)."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 32], scale=0.06, zero_point=-10)
    y = mb.tensor("y", "int8", [2, 32], scale=1.0 / 256, zero_point=-128)
    mb.op("LOGISTIC", [x], [y])
    mb.output(y)
    x2 = mb.input("x2", "int8", [1, 24], scale=0.25, zero_point=7)
    y2 = mb.tensor("y2", "int8", [1, 24], scale=1.0 / 256, zero_point=-128)
    mb.op("LOGISTIC", [x2], [y2])
    mb.output(y2)
    return mb.build()


@test_model("tanh_int8")
def tanh_s8():
    """TANH from inputs of small, medium and large scale (so the whole range
    saturates, none does, or part does), with zero points either side."""
    mb = ModelBuilder()
    out = dict(scale=1.0 / 128, zero_point=0)
    for k, (scale, zp) in enumerate([(0.01, 0), (0.04, -20), (0.1, 17), (0.3, -128), (0.0007, 5)]):
        x = mb.input(f"x{k}", "int8", [4, 16], scale=scale, zero_point=zp)
        y = mb.tensor(f"t{k}", "int8", [4, 16], **out)
        mb.op("TANH", [x], [y])
        mb.output(y)
    return mb.build()


@test_model("leaky_relu_int8")
def leaky_relu_s8():
    """LEAKY_RELU with the usual alpha 0.2, a small and a negative alpha, alpha 0
    and above 1; output scales below, equal to and above the input's."""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 5, 6], scale=0.05, zero_point=-7)
    for k, (alpha, scale, zp) in enumerate([(0.2, 0.05, -7), (0.01, 0.03, -50), (-0.5, 0.08, 10),
                                            (0.0, 0.02, -128), (1.7, 0.11, 3)]):
        y = mb.tensor(f"l{k}", "int8", [2, 5, 6], scale=scale, zero_point=zp)
        mb.op("LEAKY_RELU", [x], [y], "LeakyReluOptions", alpha=alpha)
        mb.output(y)
    return mb.build()


@test_model("prelu_int8")
def prelu_s8():
    """PRELU with a per-channel constant alpha (the usual form), a full-shape
    alpha computed at run time, a scalar alpha and one broadcast over rows."""
    rng = np.random.default_rng(45)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 4, 5, 3], scale=0.05, zero_point=-7)

    def prelu(alpha, scale, zp):
        y = mb.tensor(f"p{len(mb.tensors)}", "int8", [1, 4, 5, 3], scale=scale, zero_point=zp)
        mb.op("PRELU", [x, alpha], [y])
        mb.output(y)

    prelu(mb.const("alpha_c", rng.integers(-20, 100, [1, 1, 3]).astype(np.int8), scale=0.004, zero_point=-10),
          0.04, -20)
    prelu(mb.input("alpha_full", "int8", [1, 4, 5, 3], scale=0.02, zero_point=3), 0.06, 5)
    prelu(mb.const("alpha_s", np.array([77], np.int8), scale=0.003, zero_point=0), 0.05, -7)
    prelu(mb.const("alpha_rows", rng.integers(-128, 127, [4, 1, 1]).astype(np.int8), scale=0.01, zero_point=-1),
          0.1, 30)
    return mb.build()


@test_model("hard_swish_int8")
def hard_swish_s8():
    """HARD_SWISH from inputs of small to large scale (the reluish exponent
    negative, zero and positive), output scales finer and coarser than the
    input's, zero points either side."""
    mb = ModelBuilder()
    cases = [(0.002, 3, 0.0019, -100), (0.02, -10, 0.015, -20), (0.008, 0, 0.008, -128),
             (0.1, 25, 0.3, 5), (0.4, -128, 0.1, 0)]
    for k, (in_scale, in_zp, out_scale, out_zp) in enumerate(cases):
        x = mb.input(f"x{k}", "int8", [4, 16], scale=in_scale, zero_point=in_zp)
        y = mb.tensor(f"hs{k}", "int8", [4, 16], scale=out_scale, zero_point=out_zp)
        mb.op("HARD_SWISH", [x], [y])
        mb.output(y)
    return mb.build()


@test_model("relu_float32")
def relu_f32():
    """float32 RELU, RELU6 and LEAKY_RELU (alpha below 1, negative, above 1), on
    inputs scaled by 2 so that RELU6's upper clamp is reached."""
    mb = ModelBuilder()
    x0 = mb.input("x", "float32", [2, 5, 6])
    x = mb.tensor("x2", "float32", [2, 5, 6])
    mb.op("MUL", [x0, mb.const("two", np.array([2.0], np.float32))], [x], "MulOptions")
    for k, (op, options) in enumerate([("RELU", {}), ("RELU6", {}), ("LEAKY_RELU", {"alpha": 0.2}),
                                       ("LEAKY_RELU", {"alpha": -0.7}), ("LEAKY_RELU", {"alpha": 1.3})]):
        y = mb.tensor(f"a{k}", "float32", [2, 5, 6])
        mb.op(op, [x], [y], "LeakyReluOptions" if options else None, **options)
        mb.output(y)
    return mb.build()


@test_model("relu_relu6")
def relu_relu6_s8():
    """RELU rescaling to another scale, RELU in place of scale (clamp only),
    RELU6 with six inside and beyond the int8 range."""
    mb = ModelBuilder()
    shape = [1, 4, 4, 3]
    x = mb.input("x", "int8", shape, scale=0.05, zero_point=-12)
    outs = [
        ("RELU", "relu_rescaled", dict(scale=0.031, zero_point=-128)),
        ("RELU", "relu_same", dict(scale=0.05, zero_point=-12)),
        ("RELU6", "relu6", dict(scale=0.05, zero_point=-12)),
    ]
    for op, name, quant in outs:
        y = mb.tensor(name, "int8", shape, **quant)
        mb.op(op, [x], [y])
        mb.output(y)
    fine = mb.input("fine", "int8", [10], scale=0.02, zero_point=5)  # six would be 305: clamped to 127
    y = mb.tensor("relu6_clamped", "int8", [10], scale=0.02, zero_point=5)
    mb.op("RELU6", [fine], [y])
    mb.output(y)
    return mb.build()


@test_model("quantize_float_io")
def quantize_float_io():
    """float32 -> int8 -> int8 (new scale) -> int16 -> int8 -> float32, and
    float32 -> int16 -> float32; inputs in [-4, 4] saturate the int8 scale.
    On the boards this checks the soft-float division and multiply too."""
    mb = ModelBuilder()
    shape = [1, 32]
    x = mb.input("x", "float32", shape)
    chain = [("q8", "int8", dict(scale=0.027, zero_point=5)),
             ("q8b", "int8", dict(scale=0.041, zero_point=-7)),
             ("q16", "int16", dict(scale=0.0003, zero_point=0)),
             ("q8c", "int8", dict(scale=0.02, zero_point=3))]
    steps = [x]
    for name, dtype, quant in chain:
        t = mb.tensor(name, dtype, shape, **quant)
        mb.op("QUANTIZE", [steps[-1]], [t])
        steps.append(t)
    mb.output(steps[2])  # q8b: an int8 output of a float model
    prev = steps[-1]
    y = mb.tensor("y", "float32", shape)
    mb.op("DEQUANTIZE", [prev], [y])
    mb.output(y)
    q16 = mb.tensor("x16", "int16", shape, scale=0.00013, zero_point=-3)
    mb.op("QUANTIZE", [x], [q16])
    y16 = mb.tensor("y16", "float32", shape)
    mb.op("DEQUANTIZE", [q16], [y16])
    mb.output(y16)
    return mb.build()


@test_model("quantize_int_pairs")
def quantize_int_pairs():
    """Every integer pair TFLM requantizes, from int16, int8, uint8 and int32 inputs."""
    mb = ModelBuilder()
    shape = [2, 12]
    inputs = {
        "int16": mb.input("in16", "int16", shape, scale=0.000625, zero_point=0),
        "int8": mb.input("in8", "int8", shape, scale=0.07, zero_point=2),
        "uint8": mb.input("inu8", "uint8", shape, scale=0.05, zero_point=130),
        "int32": mb.input("in32", "int32", shape, scale=1e-6, zero_point=0),
    }
    outputs = [
        ("int16", "int8", dict(scale=0.0592, zero_point=-128)),   # keyword model's input step
        ("int16", "int16", dict(scale=0.0011, zero_point=-40)),
        ("int16", "int32", dict(scale=3.05e-05, zero_point=0)),   # ratio above 1: left shift
        ("int8", "int8", dict(scale=0.07, zero_point=2)),         # identity requantization
        ("int8", "int8", dict(scale=0.11, zero_point=-30)),
        ("int8", "uint8", dict(scale=0.07, zero_point=130)),      # TFLM's XOR fast path
        ("int8", "int16", dict(scale=0.0001, zero_point=5)),
        ("int8", "int32", dict(scale=0.0007, zero_point=-9)),
        ("uint8", "int8", dict(scale=0.05, zero_point=2)),
        ("int32", "int8", dict(scale=0.015, zero_point=-4)),
        ("int32", "int16", dict(scale=0.00002, zero_point=11)),
    ]
    for k, (src, dtype, quant) in enumerate(outputs):
        y = mb.tensor(f"{src}_to_{dtype}_{k}", dtype, shape, **quant)
        mb.op("QUANTIZE", [inputs[src]], [y])
        mb.output(y)
    d = mb.tensor("deq_u8", "float32", shape)
    mb.op("DEQUANTIZE", [inputs["uint8"]], [d])
    mb.output(d)
    return mb.build()


@test_model("elu_abs")
def elu_abs():
    """int8 ELU and ABS through TFLM's arithmetic tabulated: ELU with the output's zero point
    low and with an output scale that clips; ABS with the input's scale (no rescaling, values
    past 127 clamp) and with another. (The tables are made by the generator: exact on any core.)"""
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 3, 10], scale=0.04, zero_point=5)
    for k, (op, scale, zp) in enumerate((("ELU", 0.03, -90), ("ELU", 0.01, 20), ("ABS", 0.04, -60),
                                         ("ABS", 0.035, -128))):
        y = mb.output(mb.tensor(f"{op.lower()}{k}", "int8", [2, 3, 10], scale=scale, zero_point=zp))
        mb.op(op, [x], [y])
    return mb.build()


@test_model("elu_float32", targets=False)
def elu_float32():
    """float32 ELU: expm1f below 0, the C library's (identical to TFLM on the host)."""
    mb = ModelBuilder()
    f = mb.input("f", "float32", [4, 7])
    mb.op("ELU", [f], [mb.output(mb.tensor("elu", "float32", [4, 7]))])
    return mb.build()
