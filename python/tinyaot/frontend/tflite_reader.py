"""Reads a .tflite flatbuffer into the graph IR, validating what it reads.

Flatbuffers are read lazily, so a damaged file shows up as an exception deep in
an accessor or as nonsense values. Every access here is checked, and any
failure becomes a TinyAotError naming the file, operator and tensor.
"""

import re

import flatbuffers
import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType

from tinyaot.errors import InvalidTensorError, TinyAotError
from tinyaot.frontend.resources import resolve_resources
from tinyaot.frontend.inline import inline_if, inline_init, inline_while
from tinyaot.ir import DTYPES, Graph, Operator, Quantization, Tensor
from tinyaot.quant import INT_RANGES

_OP_NAMES = {v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")}
_OPTION_CLASSES = {v: k for k, v in vars(BuiltinOptions).items() if not k.startswith("_")}
_TENSOR_TYPES = {
    TensorType.INT8: "int8",
    TensorType.UINT8: "uint8",
    TensorType.INT16: "int16",
    TensorType.INT32: "int32",
    TensorType.INT64: "int64",
    TensorType.UINT32: "uint32",
    TensorType.FLOAT32: "float32",
    TensorType.RESOURCE: "resource",
    TensorType.BOOL: "bool",
}
_TYPE_NAMES = {v: k for k, v in vars(TensorType).items() if not k.startswith("_")}
# The operators whose filter TFLM takes as int4 (two values a byte, unpacked to int8 before the
# int8 kernel runs): here the constant is unpacked at build time.
_INT4_FILTER_OPS = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED")
_MAX_RANK = 6

# The options table each supported operator carries. TFLM reads the table only
# when its union tag matches (builtin_options_as_X()) and otherwise runs with
# zeroed parameters (stride 0, no activation): a table of another type is
# refused, and so is a missing one where those zeroed parameters would matter.
_OPTIONS_OF = {
    "CONV_2D": "Conv2DOptions", "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions", "AVERAGE_POOL_2D": "Pool2DOptions",
    "MAX_POOL_2D": "Pool2DOptions", "L2_POOL_2D": "Pool2DOptions", "SOFTMAX": "SoftmaxOptions",
    "CONCATENATION": "ConcatenationOptions",
    "SVDF": "SVDFOptions", "MEAN": "ReducerOptions", "SUM": "ReducerOptions", "REDUCE_MAX": "ReducerOptions",
    "REDUCE_MIN": "ReducerOptions", "REDUCE_ALL": "ReducerOptions", "ADD": "AddOptions", "MUL": "MulOptions",
    "PAD": "PadOptions", "PADV2": "PadV2Options", "RESHAPE": "ReshapeOptions",
    "SQUEEZE": "SqueezeOptions", "EXPAND_DIMS": "ExpandDimsOptions",
    "PACK": "PackOptions", "UNPACK": "UnpackOptions",
    "SUB": "SubOptions", "LEAKY_RELU": "LeakyReluOptions", "BATCH_MATMUL": "BatchMatMulOptions",
    "GATHER": "GatherOptions", "RESIZE_BILINEAR": "ResizeBilinearOptions",
    "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighborOptions", "STRIDED_SLICE": "StridedSliceOptions",
    "SPLIT": "SplitOptions", "SPLIT_V": "SplitVOptions", "SPACE_TO_DEPTH": "SpaceToDepthOptions",
    "DEPTH_TO_SPACE": "DepthToSpaceOptions", "TRANSPOSE_CONV": "TransposeConvOptions", "DIV": "DivOptions",
    "CUMSUM": "CumsumOptions", "L2_NORMALIZATION": "L2NormOptions", "MIRROR_PAD": "MirrorPadOptions",
    "VAR_HANDLE": "VarHandleOptions", "CALL_ONCE": "CallOnceOptions", "IF": "IfOptions",
    "WHILE": "WhileOptions",
    "UNIDIRECTIONAL_SEQUENCE_LSTM": "UnidirectionalSequenceLSTMOptions",
}
_OPTIONS_REQUIRED = {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "MAX_POOL_2D",
                     "L2_POOL_2D", "SOFTMAX", "CONCATENATION", "SVDF", "MEAN", "PACK", "UNPACK", "TRANSPOSE_CONV",
                     "MIRROR_PAD", "CALL_ONCE", "IF", "WHILE",
                     "UNIDIRECTIONAL_SEQUENCE_LSTM"}
# Operators that take no inputs at all.
_NO_INPUTS = {"VAR_HANDLE", "CALL_ONCE"}
# deprecated_builtin_code holds codes up to 127; this value says "see builtin_code".
_PLACEHOLDER_FOR_GREATER_OP_CODES = 127


def read_tflite(path):
    """Returns the Graph of the model in `path` or raises TinyAotError."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise TinyAotError(f"cannot read model: {e.strerror}", file=path) from None
    return parse_tflite(data, str(path))


def parse_tflite(data, source="<model>"):
    if len(data) < 8 or data[4:8] != b"TFL3":
        raise TinyAotError("not a TFLite model (no 'TFL3' file identifier)", file=source)
    try:
        return _Reader(data, source).graph()
    except TinyAotError:
        raise
    except Exception as e:  # any accessor may trip over a damaged buffer
        raise TinyAotError(
            f"malformed or truncated TFLite flatbuffer ({type(e).__name__}: {e})", file=source
        ) from None


class _Reader:
    def __init__(self, data, source):
        self.data = data
        self.source = source
        self.model = tflite.Model.GetRootAsModel(data, 0)
        self.int4 = set()  # tensors stored as int4, read as int8

    def fail(self, message, **where):
        raise TinyAotError(message, file=self.source, **where)

    def graph(self):
        model = self.model
        if model.SubgraphsLength() < 1:
            self.fail("has no subgraphs")
        sub = model.Subgraphs(0)
        self.intermediate_only = self.intermediate_only_tensors(sub)  # global tensor indices
        tensors = [self.tensor_of_users(sub, i) for i in range(sub.TensorsLength())]
        operators, blocks = [], []
        for i in range(sub.OperatorsLength()):
            op = self.operator(sub, i, tensors, origin=(0, i), index=len(operators))
            operators.append(op)
            if op.type == "CALL_ONCE":
                blocks += inline_init(self, op, tensors, operators)
            elif op.type == "IF":
                blocks += inline_if(self, op, tensors, operators)
            elif op.type == "WHILE":
                blocks += inline_while(self, op, tensors, operators)
        inputs = self.io_list(sub.InputsAsNumpy() if sub.InputsLength() else [], tensors, "inputs")
        outputs = self.io_list(sub.OutputsAsNumpy() if sub.OutputsLength() else [], tensors, "outputs")
        if not inputs or not outputs:
            self.fail("the model has no inputs or no outputs")
        for t in inputs + outputs:
            if tensors[t].is_constant:
                self.fail("a model input or output is a constant", tensor=tensors[t].name)
            if tensors[t].dtype == "resource":
                self.fail("a model input or output is a resource handle (supported: inside the model only)",
                          tensor=tensors[t].name)
        self.check_int4_users(tensors, operators)
        resolve_resources(tensors, operators, self.fail)
        self.check_dataflow(tensors, operators, inputs, outputs, blocks)
        return Graph(self.source, tensors, operators, inputs, outputs, blocks)

    def check_int4_users(self, tensors, operators):
        """int4 tensors are read only where TFLM reads them: as the filter of an int8 operator."""
        for op in operators:
            for k, t in enumerate(op.inputs):
                if t in self.int4 and not (op.type in _INT4_FILTER_OPS and k == 1
                                           and tensors[op.inputs[0]].dtype == "int8"):
                    self.fail(f"int4 is read only as the filter of {', '.join(_INT4_FILTER_OPS)} with an int8 "
                              "input (as TFLM)", tensor=tensors[t].name, op_index=op.index, op_type=op.type)

    def check_dataflow(self, tensors, operators, inputs, outputs, blocks):
        """Each tensor is written once, by an operator before those that read it (but both
        branches of an IF write its outputs, one of them runs; a WHILE's body writes its outputs
        again)."""
        written = set(inputs)
        rewrites = {i for b in blocks if b.kind in ("else", "loop") for i in range(b.first, b.last + 1)}
        for op in operators:
            where = dict(op_index=op.index, op_type=op.type)
            for t in op.inputs:
                tensor = tensors[t] if t >= 0 else None
                if tensor is not None and not (tensor.is_constant or tensor.is_variable or t in written):
                    self.fail("reads a tensor that no earlier operator writes and that is not a model input",
                              tensor=tensor.name, **where)
            for t in op.outputs:
                rewritten = t in written and not (op.type == "SUBGRAPH_OUTPUTS" and op.index in rewrites)
                if rewritten or tensors[t].is_constant or tensors[t].is_variable:
                    self.fail("writes a tensor that is a model input, a constant, a variable or written before",
                              tensor=tensors[t].name, **where)
                written.add(t)
        for t in outputs:
            if t not in written or t in inputs:
                self.fail("a model output is not computed by any operator", tensor=tensors[t].name)

    def io_list(self, values, tensors, what):
        """The model's inputs or outputs: real tensors, each once (the header has one member each)."""
        out = self.index_list(values, len(tensors), f"model {what}")
        for k, t in enumerate(out):
            if t < 0:
                self.fail(f"model {what} list an omitted tensor (-1) at position {k}")
            if t in out[:k]:
                self.fail(f"model {what} list the same tensor twice", tensor=tensors[t].name)
        return out

    def index_list(self, values, count, what, **where):
        out = [int(v) for v in values]
        for v in out:
            if not -1 <= v < count:
                self.fail(f"{what} refer to tensor {v}, but the model has {count} tensors", **where)
        return out

    def intermediate_only_tensors(self, sub):
        """Tensors only listed as an LSTM's intermediates: they carry only a scale (TFLM's
        kernel does not read them), so their shape may be empty."""
        kept, used = set(), set()
        for k in range(sub.OperatorsLength()):
            op = sub.Operators(k)
            if op.IntermediatesLength() and self.op_type(op, k) == "UNIDIRECTIONAL_SEQUENCE_LSTM":
                kept.update(int(v) for v in op.IntermediatesAsNumpy())
            for values in (op.InputsAsNumpy() if op.InputsLength() else [],
                           op.OutputsAsNumpy() if op.OutputsLength() else []):
                used.update(int(v) for v in values)
        for values in (sub.InputsAsNumpy() if sub.InputsLength() else [],
                       sub.OutputsAsNumpy() if sub.OutputsLength() else []):
            used.update(int(v) for v in values)
        return kept - used

    def tensor_of_users(self, sub, i, base=0):
        """Tensor i of `sub`, numbered base + i; where it is invalid, the error says which operators
        use it (InvalidTensorError; their indices within `sub`)."""
        try:
            return self.tensor(sub, i, base)
        except TinyAotError as e:
            op_types, users = self.users(sub, i)
            raise InvalidTensorError(e.reason, users=users, op_types=op_types, file=e.file, tensor=e.tensor) from None

    def users(self, sub, i):
        """(the type of every operator, the indices of those that read, write or keep as an
        intermediate tensor i), or ([], []) where the operators cannot be read."""
        try:
            op_types, users = [], []
            for k in range(sub.OperatorsLength()):
                op = sub.Operators(k)
                op_types.append(self.op_type(op, k))
                lists = (op.InputsAsNumpy() if op.InputsLength() else [],
                         op.OutputsAsNumpy() if op.OutputsLength() else [],
                         op.IntermediatesAsNumpy() if op.IntermediatesLength() else [])
                if any(i in map(int, values) for values in lists):
                    users.append(k)
            return op_types, users
        except Exception:  # a damaged operator list: the tensor's own error stands alone
            return [], []

    def tensor(self, sub, i, base=0):
        t = sub.Tensors(i)
        name = (t.Name() or b"").decode("utf-8", "replace") or f"tensor_{i}"
        packed = t.Type() == TensorType.INT4
        if t.Type() not in _TENSOR_TYPES and not packed:
            type_name = _TYPE_NAMES.get(t.Type(), f"#{t.Type()}")
            self.fail(f"unsupported dtype {type_name} (supported: int8, uint8, int16, int32, uint32, int64, float32, "
                      "bool; resource handles; int4 constant filters)",
                      tensor=name)
        dtype = "int8" if packed else _TENSOR_TYPES[t.Type()]
        shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
        if len(shape) > _MAX_RANK or any(d < 0 for d in shape):
            self.fail(f"unsupported shape {list(shape)} (dynamic or rank above {_MAX_RANK})", tensor=name)
        if 0 in shape and base + i not in self.intermediate_only:
            self.fail(f"shape {list(shape)} has no elements (a zero dimension)", tensor=name)
        tensor = Tensor(base + i, name, dtype, shape, quant=self.quantization(t, name, dtype, shape),
                        is_variable=bool(t.IsVariable()))
        if tensor.nbytes >= 2**31:
            self.fail(f"shape {list(shape)} needs {tensor.nbytes} bytes, more than a 32-bit target addresses",
                      tensor=name)
        tensor.data = self.buffer_data(t.Buffer(), tensor, packed)
        if packed:
            if tensor.data is None:
                self.fail("int4 is supported for constant filters only (as TFLM)", tensor=name)
            self.int4.add(base + i)
        return tensor

    def quantization(self, t, name, dtype, shape):
        q = t.Quantization()
        if q is None or q.ScaleLength() == 0:
            return None
        scale = q.ScaleAsNumpy().astype(np.float32)
        if not q.ZeroPointLength():
            # TFLM then drops the quantization altogether (scale 0) and computes nonsense.
            self.fail(f"quantization has {len(scale)} scales but no zero points", tensor=name)
        zero_point = q.ZeroPointAsNumpy().astype(np.int64)
        if len(zero_point) == 1:
            zero_point = np.full(len(scale), zero_point[0])  # as TFLM: one zero point stands for all
        if len(zero_point) != len(scale):
            self.fail(f"quantization has {len(scale)} scales but {len(zero_point)} zero points", tensor=name)
        axis = int(q.QuantizedDimension())
        if len(shape) == 1:
            axis = 0  # some converters set a stale axis on 1-D biases; TFLM ignores it there too
        if len(scale) > 1 and not (0 <= axis < len(shape) and shape[axis] == len(scale)):
            self.fail(f"per-channel quantization with {len(scale)} scales does not match shape {list(shape)} "
                      f"on axis {axis}", tensor=name)
        if not np.all(np.isfinite(scale)) or np.any(scale <= 0):
            self.fail("quantization scale is zero, negative or not finite", tensor=name)
        low, high = INT_RANGES.get(dtype, INT_RANGES["int32"])
        if np.any(zero_point < low) or np.any(zero_point > high):
            bad = int(zero_point[(zero_point < low) | (zero_point > high)][0])
            self.fail(f"zero point {bad} is outside the {dtype} range [{low}, {high}]", tensor=name)
        return Quantization(scale, zero_point, axis if len(scale) > 1 else 0)

    def buffer_data(self, buffer_index, tensor, packed=False):
        """The constant's values (None if it has none); packed: stored as int4, returned as int8."""
        if not 0 <= buffer_index < self.model.BuffersLength():
            self.fail(f"refers to buffer {buffer_index}, but the model has {self.model.BuffersLength()}",
                      tensor=tensor.name)
        buf = self.model.Buffers(buffer_index)
        if buf.Offset() or buf.Size():
            # The >2 GB layout keeps data after the flatbuffer, found by offset/size. TFLM
            # reads only a buffer's `data` field, so it would run such a tensor without its
            # contents: no result to be exact with, hence refused.
            start, size = buf.Offset(), buf.Size()
            where = (f"past the end of the {len(self.data)}-byte file" if start + size > len(self.data)
                     else "outside the flatbuffer's data field (the >2 GB layout), which TFLM does not read")
            self.fail(f"buffer {buffer_index} lies at bytes {start}..{start + size}, {where}", tensor=tensor.name)
        if buf.DataLength():
            raw = buf.DataAsNumpy().tobytes()
        else:
            return None
        needed = (tensor.num_elements + 1) // 2 if packed else tensor.nbytes
        if len(raw) != needed:
            self.fail(f"holds {len(raw)} bytes of data, but shape {list(tensor.shape)} of "
                      f"{'int4' if packed else tensor.dtype} needs {needed}", tensor=tensor.name)
        if packed:
            return _unpack_int4(raw, tensor.num_elements).reshape(tensor.shape)
        data = np.frombuffer(raw, dtype=DTYPES[tensor.dtype][0]).reshape(tensor.shape)
        if tensor.dtype == "float32" and not np.isfinite(data).all():
            # Weights that are NaN or infinite make every result NaN or infinite: a damaged model.
            self.fail(f"float32 constant holds {int((~np.isfinite(data)).sum())} values that are NaN or infinite",
                      tensor=tensor.name)
        return data

    def op_type(self, op, i):
        """Operator i's builtin name (CUSTOM 'name' for a custom one)."""
        model = self.model
        if not 0 <= op.OpcodeIndex() < model.OperatorCodesLength():
            self.fail(f"operator {i} refers to operator code {op.OpcodeIndex()}, "
                      f"but the model has {model.OperatorCodesLength()}")
        code = model.OperatorCodes(op.OpcodeIndex())
        raw, deprecated = _raw_builtin_code(code), code.DeprecatedBuiltinCode()
        builtin = max(raw, deprecated)  # as TFLM's GetBuiltinCode
        if raw and deprecated not in (raw, _PLACEHOLDER_FOR_GREATER_OP_CODES):
            self.fail(f"operator code {op.OpcodeIndex()} has builtin_code {_OP_NAMES.get(raw, raw)} but "
                      f"deprecated_builtin_code {_OP_NAMES.get(deprecated, deprecated)}",
                      op_index=i, op_type=_OP_NAMES.get(builtin, f"builtin #{builtin}"))
        if builtin == BuiltinOperator.CUSTOM:
            return f"CUSTOM '{(code.CustomCode() or b'').decode('utf-8', 'replace')}'"
        return _OP_NAMES.get(builtin, f"builtin #{builtin}")

    def operator(self, sub, i, tensors, origin, index, base=0):
        """Operator i of `sub`, at position `index` of the inlined order; its tensors are numbered
        from `base` (where its subgraph's tensors start in `tensors`)."""
        op = sub.Operators(i)
        op_type = self.op_type(op, i)
        code = self.model.OperatorCodes(op.OpcodeIndex())
        where = dict(op_index=index, op_type=op_type)
        count = sub.TensorsLength()
        inputs = self.index_list(op.InputsAsNumpy() if op.InputsLength() else [], count, "inputs", **where)
        outputs = self.index_list(op.OutputsAsNumpy() if op.OutputsLength() else [], count, "outputs", **where)
        if any(t < 0 for t in outputs):
            self.fail("has an omitted output", **where)
        if op_type not in _NO_INPUTS and (not inputs or inputs[0] < 0):
            self.fail("has no first input (omitted or missing)", **where)
        return Operator(index, op_type, [t + base if t >= 0 else t for t in inputs], [t + base for t in outputs],
                        self.options(op, op_type, where), code.Version(), origin)

    def options(self, op, op_type, where):
        """The builtin options table as a dict of snake_case field -> value."""
        class_name, values = options_table(op)
        expected = _OPTIONS_OF.get(op_type)
        if values is None:
            if op_type in _OPTIONS_REQUIRED:
                self.fail(f"has no builtin options (needs {expected})", **where)
            return {}
        if not expected:
            return {}  # an operator that reads no options ignores any table, as in TFLM
        if class_name != expected:
            self.fail(f"carries builtin options of type {class_name}, but {op_type} takes {expected}", **where)
        return values


def options_table(op):
    """(options class name, {snake_case field: value}) of a tflite Operator; values is None
    when the operator has no options table."""
    class_name = _OPTION_CLASSES.get(op.BuiltinOptionsType(), f"#{op.BuiltinOptionsType()}")
    table = op.BuiltinOptions()
    if class_name == "NONE" or table is None:
        return class_name, None
    cls = getattr(tflite, class_name)
    opts = cls()
    opts.Init(table.Bytes, table.Pos)
    values = {}
    for attr in dir(cls):
        # (not "Init", the reader's own method; "InitSubgraphIndex" is a field)
        if attr[0].isupper() and not attr.startswith("GetRootAs") and attr != "Init" \
                and "BufferHasIdentifier" not in attr:
            method = getattr(opts, attr)
            if attr.endswith(("AsNumpy", "Length", "IsNone")):
                continue
            if hasattr(opts, attr + "AsNumpy"):
                values[_snake(attr)] = [int(v) for v in getattr(opts, attr + "AsNumpy")()] \
                    if getattr(opts, attr + "Length")() else []
            else:
                values[_snake(attr)] = method()
    return class_name, values


def _raw_builtin_code(code):
    """OperatorCode.builtin_code as stored (0 when absent). The `tflite` package's
    BuiltinCode() substitutes deprecated_builtin_code below 127, hiding a disagreement."""
    o = code._tab.Offset(10)
    return code._tab.Get(flatbuffers.number_types.Int32Flags, o + code._tab.Pos) if o else 0


def _snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _unpack_int4(raw, count):
    """count int4 values stored two a byte, the first in the low nibble, as int8 (TFLM's
    UnpackDenseInt4IntoInt8: each nibble sign-extended)."""
    stored = np.frombuffer(raw, np.uint8).astype(np.int16)
    nibbles = np.stack([stored & 0xF, stored >> 4], axis=1).reshape(-1)[:count]
    return np.where(nibbles > 7, nibbles - 16, nibbles).astype(np.int8)
