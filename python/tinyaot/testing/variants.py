"""float32 and 16x8 forms of the project's int8 test models, built by the same code.

variant_of(build, "float32") runs an int8 model's builder with a rewrite of its
tensors just before serialisation:

- float32: every quantized tensor becomes float32 without quantization;
  constants (weights, biases) take their real values, (q - zero point) x scale.
- 16x8: activations (and other quantized constants) become int16, symmetric
  (zero point 0) over the same real range; weights (and PRELU's alpha) stay int8; the biases of CONV_2D, DEPTHWISE_CONV_2D,
  FULLY_CONNECTED, TRANSPOSE_CONV and UNIDIRECTIONAL_SEQUENCE_LSTM become int64 at input scale x weight scale (the same
  real values, rounded); an LSTM's int16 cell state keeps its quantization; SOFTMAX, LOGISTIC and TANH outputs take the fixed
  quantization TFLM requires for int16 (scale 1/32768, zero point 0).

Operators and shapes do not change, so a variant exercises the same parameter
space as its int8 model.
"""

from contextlib import contextmanager

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator

from tinyaot.modelbuilder import ModelBuilder

# op -> the positions of each input, its int8 weights (PRELU: alpha) and its bias among the op's inputs
WEIGHTED = {"CONV_2D": [(0, 1, 2)], "DEPTHWISE_CONV_2D": [(0, 1, 2)], "FULLY_CONNECTED": [(0, 1, 2)],
            "TRANSPOSE_CONV": [(2, 1, 3)], "PRELU": [(0, 1, None)],
            # the four gates' input weights and biases, then their recurrent weights (on the hidden state)
            "UNIDIRECTIONAL_SEQUENCE_LSTM": [(0, 1, 12), (0, 2, 13), (0, 3, 14), (0, 4, 15),
                                             (18, 5, None), (18, 6, None), (18, 7, None), (18, 8, None)]}
# op -> the positions of inputs already int16 that keep their quantization (the LSTM's cell state)
INT16_KEPT = {"UNIDIRECTIONAL_SEQUENCE_LSTM": (19,)}
FIXED_INT16_OUTPUT = {"SOFTMAX", "LOGISTIC", "TANH"}


def _real(values, quant):
    scales, zps, axis = quant
    values = np.asarray(values, np.float64)
    if len(scales) > 1:  # per channel along `axis`
        shape = [1] * values.ndim
        shape[axis] = len(scales)
        return (values - zps.reshape(shape)) * scales.astype(np.float64).reshape(shape)
    return (values - zps[0]) * float(scales[0])


def to_float32(mb):
    for t, spec in enumerate(mb.tensors):
        if spec["quant"] is None:
            continue
        data = mb.constant_data(t)
        if data is not None:
            mb.set_constant_data(t, _real(data, spec["quant"]).astype(np.float32))
        spec.update(dtype="float32", quant=None)


def _int16_quant(quant):
    scales, zps, _ = quant
    assert len(scales) == 1, "activations are quantized per tensor"
    reach = max(abs(-128 - int(zps[0])), abs(127 - int(zps[0]))) * float(scales[0])
    return (np.array([reach / 32767], np.float32), np.zeros(1, np.int64), 0)


def to_16x8(mb):
    names = {code: name for name, code in vars(BuiltinOperator).items() if not name.startswith("_")}
    weights, biases, kept = set(), {}, set()
    for op in mb.operators:
        op_type = names[mb.opcodes[op["opcode"]]]
        for x, w, b in WEIGHTED.get(op_type, ()):
            weights.add(op["inputs"][w])
            if b is not None and len(op["inputs"]) > b and op["inputs"][b] >= 0:
                biases[op["inputs"][b]] = (op["inputs"][x], op["inputs"][w])
        kept.update(op["inputs"][k] for k in INT16_KEPT.get(op_type, ()))
    old = {t: spec["quant"] for t, spec in enumerate(mb.tensors)}
    for t, spec in enumerate(mb.tensors):
        if spec["quant"] is None or t in weights or t in biases or t in kept:
            continue
        data = mb.constant_data(t)
        spec.update(dtype="int16", quant=_int16_quant(spec["quant"]))
        if data is not None:  # a constant operand: the same real values in int16
            q16 = np.round(_real(data, old[t]) / float(spec["quant"][0][0]))
            mb.set_constant_data(t, np.clip(q16, -32768, 32767).astype(np.int16))
    for op in mb.operators:
        if names[mb.opcodes[op["opcode"]]] in FIXED_INT16_OUTPUT:
            mb.tensors[op["outputs"][0]]["quant"] = (np.array([1 / 32768], np.float32), np.zeros(1, np.int64), 0)
    for t, (x, w) in biases.items():
        real = _real(mb.constant_data(t), old[t])
        scale = np.float32(mb.tensors[x]["quant"][0][0]) * mb.tensors[w]["quant"][0]
        mb.set_constant_data(t, np.round(real / scale.astype(np.float64)).astype(np.int64))
        mb.tensors[t].update(dtype="int64", quant=(scale, np.zeros(len(scale), np.int64), 0))


REWRITES = {"float32": to_float32, "16x8": to_16x8}


@contextmanager
def _rewriting(rewrite):
    ModelBuilder.rewrite = rewrite
    try:
        yield
    finally:
        ModelBuilder.rewrite = None


def variant_of(build, variant):
    """A builder of `variant` ("float32" or "16x8") from an int8 model's builder."""
    def build_variant():
        with _rewriting(REWRITES[variant]):
            return build()
    build_variant.__doc__ = f"{variant} form of {build.__name__}: {build.__doc__}"
    return build_variant
