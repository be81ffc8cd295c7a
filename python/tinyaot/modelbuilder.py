"""Builds small TFLite models with the `tflite` package's flatbuffer builder.

Used for the project's own test models and samples, so every operator and
option can be checked against TFLM on a fresh clone without downloading models.

    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 8], scale=0.1, zero_point=-3)
    w = mb.const("w", weights_int8, scale=0.02)
    y = mb.tensor("y", "int8", [1, 4], scale=0.2, zero_point=5)
    mb.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions", fused_activation_function=1)
    mb.output(y)
    data = mb.build()
"""

import importlib

import flatbuffers
import numpy as np
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType

_TYPES = {"int8": TensorType.INT8, "uint8": TensorType.UINT8, "int16": TensorType.INT16,
          "int32": TensorType.INT32, "uint32": TensorType.UINT32, "int64": TensorType.INT64,
          "float32": TensorType.FLOAT32, "resource": TensorType.RESOURCE, "bool": TensorType.BOOL,
          "int4": TensorType.INT4}
_NP = {"bool": np.bool_, "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "int32": np.int32, "uint32": np.uint32,
       "int64": np.int64, "float32": np.float32}


def pack_int4(values):
    """Values in [-8, 7] two to a byte, the first in the low nibble, as TFLite stores int4 (an odd
    count leaves the last high nibble 0)."""
    nibbles = np.asarray(values, np.int64).reshape(-1)
    if nibbles.min(initial=0) < -8 or nibbles.max(initial=0) > 7:
        raise ValueError("int4 values lie in [-8, 7]")
    nibbles = np.append(nibbles, 0) if len(nibbles) % 2 else nibbles
    return ((nibbles[0::2] & 0xF) | ((nibbles[1::2] & 0xF) << 4)).astype(np.uint8).tobytes()


def _module(name):
    return importlib.import_module(f"tflite.{name}")


def _camel(snake):
    return "".join(part.capitalize() for part in snake.split("_"))


class ModelBuilder:
    def __init__(self):
        self.tensors = []  # dicts
        self.buffers = [b""]  # buffer 0 is the empty buffer, by convention
        self.operators = []
        self.opcodes = []
        self.inputs = []
        self.outputs = []
        self.name = "main"
        self.subgraphs = []  # the builders of subgraphs 1, 2, ... (see subgraph())

    def subgraph(self, name):
        """(builder, index) of a new subgraph (CALL_ONCE's init, IF's branches, WHILE's condition
        and body), built with the same methods; it shares this model's buffers and operator codes."""
        sub = ModelBuilder()
        sub.name, sub.buffers, sub.opcodes = name, self.buffers, self.opcodes
        self.subgraphs.append(sub)
        return sub, len(self.subgraphs)

    # ---- tensors ----
    def tensor(self, name, dtype, shape, scale=None, zero_point=0, axis=0, data=None, variable=False,
               data_location=None):
        """Adds a tensor; returns its index. scale/zero_point may be per-channel lists.

        data_location=(offset, size) makes a buffer that points outside the
        flatbuffer, as converters do for models over 2 GB (for frontend tests).
        """
        buffer = 0
        if data_location is not None:
            self.buffers.append(tuple(data_location))
            buffer = len(self.buffers) - 1
        elif data is not None and dtype == "int4":
            raw = pack_int4(data)
            self.buffers.append(raw)
            buffer = len(self.buffers) - 1
        elif data is not None:
            raw = np.ascontiguousarray(np.asarray(data, dtype=_NP[dtype])).tobytes()
            self.buffers.append(raw)
            buffer = len(self.buffers) - 1
        quant = None
        if scale is not None:
            scales = np.atleast_1d(np.asarray(scale, dtype=np.float32))
            zps = np.atleast_1d(np.asarray(zero_point, dtype=np.int64))
            if len(zps) == 1 and len(scales) > 1:
                zps = np.repeat(zps, len(scales))
            quant = (scales, zps, axis)
        self.tensors.append(dict(name=name, dtype=dtype, shape=list(shape), buffer=buffer,
                                 quant=quant, variable=variable))
        return len(self.tensors) - 1

    def input(self, name, dtype, shape, **quant):
        t = self.tensor(name, dtype, shape, **quant)
        self.inputs.append(t)
        return t

    def output(self, t):
        self.outputs.append(t)
        return t

    def const(self, name, data, dtype=None, **quant):
        data = np.asarray(data)
        dtype = dtype or data.dtype.name
        return self.tensor(name, dtype, data.shape, data=data, **quant)

    # ---- operators ----
    def op(self, op_type, inputs, outputs, options_type=None, intermediates=(), **options):
        """An operator; `intermediates`: tensors it keeps between its own stages (an LSTM's gates)."""
        code = getattr(BuiltinOperator, op_type)
        if code not in self.opcodes:
            self.opcodes.append(code)
        self.operators.append(dict(opcode=self.opcodes.index(code), inputs=list(inputs), outputs=list(outputs),
                                   intermediates=list(intermediates), options_type=options_type, options=options))

    # ---- serialisation ----
    # Called with the builder before it serialises: a class-wide rewrite of every
    # model built meanwhile (tinyaot.testing.variants makes float32 and 16x8 forms).
    rewrite = None

    def constant_data(self, t):
        """The values of constant tensor t as an array of its shape (None if it has none)."""
        raw = self.buffers[self.tensors[t]["buffer"]]
        if not isinstance(raw, bytes) or not raw:
            return None
        spec = self.tensors[t]
        return np.frombuffer(raw, dtype=_NP[spec["dtype"]]).reshape(spec["shape"])

    def set_constant_data(self, t, data):
        self.buffers[self.tensors[t]["buffer"]] = np.ascontiguousarray(data).tobytes()

    def build(self):
        if ModelBuilder.rewrite is not None:
            ModelBuilder.rewrite(self)
        b = flatbuffers.Builder(1024)
        buffers = [self._buffer(b, raw) for raw in self.buffers]
        subgraphs = [g._subgraph(b) for g in (self, *self.subgraphs)]

        oc = _module("OperatorCode")
        codes = []
        for code in self.opcodes:
            # An int, or (builtin_code, deprecated_builtin_code) to write a disagreement.
            code, deprecated = code if isinstance(code, tuple) else (code, min(code, 127))
            oc.OperatorCodeStart(b)
            oc.OperatorCodeAddDeprecatedBuiltinCode(b, deprecated)
            oc.OperatorCodeAddBuiltinCode(b, code)
            oc.OperatorCodeAddVersion(b, 1)
            codes.append(oc.OperatorCodeEnd(b))

        mm = _module("Model")
        codes_vec = self._offsets(b, mm.ModelStartOperatorCodesVector, codes)
        subgraphs_vec = self._offsets(b, mm.ModelStartSubgraphsVector, subgraphs)
        buffers_vec = self._offsets(b, mm.ModelStartBuffersVector, buffers)
        description = b.CreateString("built by tinyaot.modelbuilder")
        mm.ModelStart(b)
        mm.ModelAddVersion(b, 3)
        mm.ModelAddOperatorCodes(b, codes_vec)
        mm.ModelAddSubgraphs(b, subgraphs_vec)
        mm.ModelAddDescription(b, description)
        mm.ModelAddBuffers(b, buffers_vec)
        b.Finish(mm.ModelEnd(b), file_identifier=b"TFL3")
        return bytes(b.Output())

    def _subgraph(self, b):
        tensors = [self._tensor(b, t) for t in self.tensors]
        operators = [self._operator(b, op) for op in self.operators]
        m = _module("SubGraph")
        tensors_vec = self._offsets(b, m.SubGraphStartTensorsVector, tensors)
        inputs_vec = self._int32s(b, self.inputs)
        outputs_vec = self._int32s(b, self.outputs)
        ops_vec = self._offsets(b, m.SubGraphStartOperatorsVector, operators)
        name = b.CreateString(self.name)
        m.SubGraphStart(b)
        m.SubGraphAddTensors(b, tensors_vec)
        m.SubGraphAddInputs(b, inputs_vec)
        m.SubGraphAddOutputs(b, outputs_vec)
        m.SubGraphAddOperators(b, ops_vec)
        m.SubGraphAddName(b, name)
        return m.SubGraphEnd(b)

    @staticmethod
    def _offsets(b, start_vector, offsets):
        start_vector(b, len(offsets))
        for off in reversed(offsets):
            b.PrependUOffsetTRelative(off)
        return b.EndVector()

    @staticmethod
    def _int32s(b, values):
        b.StartVector(4, len(values), 4)
        for v in reversed(values):
            b.PrependInt32(int(v))
        return b.EndVector()

    def _buffer(self, b, raw):
        m = _module("Buffer")
        if isinstance(raw, tuple):
            m.BufferStart(b)
            m.BufferAddOffset(b, raw[0])
            m.BufferAddSize(b, raw[1])
            return m.BufferEnd(b)
        data = None
        if raw:
            b.StartVector(1, len(raw), 16)  # 16-byte aligned data, as the converter does
            b.head = b.head - len(raw)
            b.Bytes[b.head:b.head + len(raw)] = raw
            data = b.EndVector()
        m.BufferStart(b)
        if data is not None:
            m.BufferAddData(b, data)
        return m.BufferEnd(b)

    def _tensor(self, b, t):
        m = _module("Tensor")
        shape = self._int32s(b, t["shape"])
        name = b.CreateString(t["name"])
        quant = None
        if t["quant"] is not None:
            scales, zps, axis = t["quant"]
            q = _module("QuantizationParameters")
            q.QuantizationParametersStartScaleVector(b, len(scales))
            for s in reversed(scales):
                b.PrependFloat32(float(s))
            scale_vec = b.EndVector()
            q.QuantizationParametersStartZeroPointVector(b, len(zps))
            for z in reversed(zps):
                b.PrependInt64(int(z))
            zp_vec = b.EndVector()
            q.QuantizationParametersStart(b)
            q.QuantizationParametersAddScale(b, scale_vec)
            q.QuantizationParametersAddZeroPoint(b, zp_vec)
            q.QuantizationParametersAddQuantizedDimension(b, axis)
            quant = q.QuantizationParametersEnd(b)
        m.TensorStart(b)
        m.TensorAddShape(b, shape)
        m.TensorAddType(b, _TYPES[t["dtype"]])
        m.TensorAddBuffer(b, t["buffer"])
        m.TensorAddName(b, name)
        if quant is not None:
            m.TensorAddQuantization(b, quant)
        m.TensorAddIsVariable(b, t["variable"])
        return m.TensorEnd(b)

    def _operator(self, b, op):
        options = None
        if op["options_type"]:
            cls = op["options_type"]
            m = _module(cls)
            vectors = {k: self._int32s(b, v) for k, v in op["options"].items() if isinstance(v, (list, tuple))}
            vectors.update({k: b.CreateString(v) for k, v in op["options"].items() if isinstance(v, str)})
            getattr(m, f"{cls}Start")(b)
            for key, value in op["options"].items():
                add = getattr(m, f"{cls}Add{_camel(key)}")
                add(b, vectors.get(key, value) if key in vectors else value)
            options = getattr(m, f"{cls}End")(b)
        m = _module("Operator")
        inputs = self._int32s(b, op["inputs"])
        outputs = self._int32s(b, op["outputs"])
        intermediates = self._int32s(b, op["intermediates"]) if op.get("intermediates") else None
        m.OperatorStart(b)
        m.OperatorAddOpcodeIndex(b, op["opcode"])
        m.OperatorAddInputs(b, inputs)
        m.OperatorAddOutputs(b, outputs)
        if intermediates is not None:
            m.OperatorAddIntermediates(b, intermediates)
        if options is not None:
            m.OperatorAddBuiltinOptionsType(b, getattr(BuiltinOptions, op["options_type"]))
            m.OperatorAddBuiltinOptions(b, options)
        return m.OperatorEnd(b)


# ---- helpers for quantized layers ----

def random_int8(rng, shape, low=-127, high=127):
    return rng.integers(low, high + 1, size=shape, dtype=np.int64).astype(np.int8)


def bias_for(rng, n, input_scale, weight_scales, magnitude=2000):
    """An int32 bias and its scales (input_scale * weight_scale, as TFLite requires)."""
    scales = np.float32(input_scale) * np.atleast_1d(np.asarray(weight_scales, np.float32))
    if len(scales) == 1:
        scales = scales[0]
    return rng.integers(-magnitude, magnitude + 1, size=n).astype(np.int32), scales
