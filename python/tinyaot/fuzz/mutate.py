"""Structured mutations of a .tflite model: decode it into a ModelBuilder, edit one
piece (a shape, a dtype, quantization, options, a name, an operator code, a buffer,
an operator's tensor list, the model's inputs/outputs), encode it again; or edit raw
bytes. Every mutation is a pure function of the model and a numpy Generator, so a
case is replayed from (source model, seed, case number) alone."""

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions

from tinyaot.frontend.tflite_reader import _TENSOR_TYPES, _raw_builtin_code, options_table
from tinyaot.ir import DTYPES
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops import LOWERINGS, VIEW_OPS

# A dtype mutation picks among these (every dtype the reader takes); a resource handle holds no
# data to mutate.
_DTYPES = {k: v for k, v in _TENSOR_TYPES.items() if v != "resource"}
_OPTION_NAMES = sorted(k for k in vars(BuiltinOptions) if not k.startswith("_") and k != "NONE")
# Operator codes a mutation may switch to: what tinyaot lowers, and one it does not.
_SUPPORTED_OPS = sorted(set(LOWERINGS) | VIEW_OPS | {"TANH"})
_NAMES = ["void", "for", "return", "int", "const", "struct", "static", "class", "new", "bool", "true",
          "errno", "int8_t", "tinyaot_m_run", "tinyaot_m_model", "TINYAOT_M_ARENA_SIZE", "_Reserved", "__x",
          "a\x1b[31mred\x07", "line\nbreak", "*/ /*", "??/", "", "0starts_with_digit", "é"]


def decode(data):
    """A ModelBuilder holding the model's first subgraph, buffers and operator codes."""
    model = tflite.Model.GetRootAsModel(data, 0)
    mb = ModelBuilder()
    mb.buffers = []
    for i in range(model.BuffersLength()):
        buf = model.Buffers(i)
        mb.buffers.append((buf.Offset(), buf.Size()) if buf.Offset() else
                          (buf.DataAsNumpy().tobytes() if buf.DataLength() else b""))
    for i in range(model.OperatorCodesLength()):
        code = model.OperatorCodes(i)
        raw, deprecated = _raw_builtin_code(code), code.DeprecatedBuiltinCode()
        mb.opcodes.append((raw, deprecated))
    sub = model.Subgraphs(0)
    for i in range(sub.TensorsLength()):
        t = sub.Tensors(i)
        q = t.Quantization()
        quant = None
        if q is not None and q.ScaleLength():
            quant = (q.ScaleAsNumpy().astype(np.float32),
                     q.ZeroPointAsNumpy().astype(np.int64) if q.ZeroPointLength() else np.zeros(0, np.int64),
                     int(q.QuantizedDimension()))
        mb.tensors.append(dict(name=t.Name() or b"", dtype=_TENSOR_TYPES[t.Type()],
                               shape=[int(d) for d in t.ShapeAsNumpy()] if t.ShapeLength() else [],
                               buffer=t.Buffer(), quant=quant, variable=bool(t.IsVariable())))
    for i in range(sub.OperatorsLength()):
        op = sub.Operators(i)
        class_name, values = options_table(op)
        mb.operators.append(dict(opcode=op.OpcodeIndex(),
                                 inputs=[int(v) for v in op.InputsAsNumpy()] if op.InputsLength() else [],
                                 outputs=[int(v) for v in op.OutputsAsNumpy()] if op.OutputsLength() else [],
                                 options_type=None if values is None else class_name, options=values or {}))
    mb.inputs = [int(v) for v in sub.InputsAsNumpy()] if sub.InputsLength() else []
    mb.outputs = [int(v) for v in sub.OutputsAsNumpy()] if sub.OutputsLength() else []
    return mb


def _pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def _tensor(mb, rng):
    k = int(rng.integers(len(mb.tensors)))
    return k, mb.tensors[k]


def _data(mb, t):
    """The tensor's buffer entry (bytes, or an (offset, size) tuple); b"" if it points nowhere."""
    return mb.buffers[t["buffer"]] if 0 <= t["buffer"] < len(mb.buffers) else b""


def _label(t):
    name = t["name"]
    return name.decode("utf-8", "replace") if isinstance(name, bytes) else name


def m_shape(mb, rng):
    k, t = _tensor(mb, rng)
    old = list(t["shape"])
    choice = int(rng.integers(4))
    if choice == 0 and old:
        d = int(rng.integers(len(old)))
        t["shape"][d] = int(_pick(rng, [0, 1, 2, old[d] + 1, max(old[d] - 1, 0), old[d] * 2]))
    elif choice == 1:
        t["shape"] = old + [1]
    elif choice == 2 and old:
        t["shape"] = old[1:] if rng.integers(2) else old[:-1]
    else:
        t["shape"] = [1] + old if rng.integers(2) else []
    return f"shape: tensor {k} {_label(t)!r} {old} -> {t['shape']}"


def m_dtype(mb, rng):
    k, t = _tensor(mb, rng)
    old = t["dtype"]
    t["dtype"] = _pick(rng, sorted(set(_DTYPES.values()) - {old}))
    raw = _data(mb, t)
    if raw and not isinstance(raw, tuple) and rng.integers(2):
        # keep the data the right size half the time, so the dtype change itself is tested
        n = int(np.prod(t["shape"])) if t["shape"] else 1
        size = n * np.dtype(np.float32 if t["dtype"] == "float32" else t["dtype"]).itemsize
        mb.buffers.append((raw * (size // max(len(raw), 1) + 1))[:size])
        t["buffer"] = len(mb.buffers) - 1
    return f"dtype: tensor {k} {_label(t)!r} {old} -> {t['dtype']}"


def m_quant(mb, rng):
    k, t = _tensor(mb, rng)
    if t["quant"] is None:
        t["quant"] = (np.array([_pick(rng, [0.1, 1e-3, 0.0])], np.float32), np.array([0]), 0)
        return f"quant: tensor {k} {_label(t)!r} gains quantization"
    scale, zp, axis = (np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in t["quant"])
    choice = int(rng.integers(7))
    if choice == 0:
        scale[int(rng.integers(len(scale)))] = _pick(rng, [0.0, -0.5, 1e-30, 1e30, np.inf, np.nan])
        what = "scale"
    elif choice == 1 and len(zp):
        zp[int(rng.integers(len(zp)))] = _pick(rng, [-128, 127, 128, -129, 255, 32767, -32768, 1 << 40])
        what = "zero point"
    elif choice == 2:
        zp = np.zeros(0, np.int64)
        what = "zero points removed"
    elif choice == 3:
        zp = zp[:1]
        what = "zero points cut to one"
    elif choice == 4:
        axis = int(rng.integers(-1, 5))
        what = "axis"
    elif choice == 5:
        t["quant"] = None
        return f"quant: tensor {k} {_label(t)!r} quantization removed"
    else:
        scale = scale * np.float32(_pick(rng, [0.5, 2.0, 1 << 20, 1.0 / (1 << 20)]))
        what = "scale rescaled"
    t["quant"] = (scale.astype(np.float32), zp, axis)
    return f"quant: tensor {k} {_label(t)!r} {what}"


def m_options(mb, rng):
    k = int(rng.integers(len(mb.operators)))
    op = mb.operators[k]
    choice = int(rng.integers(3))
    if choice == 0 and op["options"]:
        field = _pick(rng, sorted(op["options"]))
        value = op["options"][field]
        if isinstance(value, list):
            op["options"][field] = [int(_pick(rng, [-1, 0, 1, 2, 5])) for _ in range(int(rng.integers(0, 4)))]
        elif isinstance(value, float):
            op["options"][field] = float(_pick(rng, [0.0, -1.0, 1e-9, 1e9, 2.0]))
        elif isinstance(value, bool):
            op["options"][field] = not value
        else:
            op["options"][field] = int(_pick(rng, [0, 1, 2, 3, 4, 5, 6, 7, -1, 100, 127]))
        return f"options: op {k} {field} {value} -> {op['options'][field]}"
    if choice == 1:
        old, op["options_type"], op["options"] = op["options_type"], None, {}
        return f"options: op {k} options removed (were {old})"
    old = op["options_type"]
    op["options_type"], op["options"] = _pick(rng, _OPTION_NAMES), {}
    return f"options: op {k} options {old} -> empty {op['options_type']}"


def m_name(mb, rng):
    k, t = _tensor(mb, rng)
    old = t["name"]
    t["name"] = _pick(rng, _NAMES) if rng.integers(4) else mb.tensors[int(rng.integers(len(mb.tensors)))]["name"]
    return f"name: tensor {k} {old!r} -> {t['name']!r}"


def m_opcode(mb, rng):
    k = int(rng.integers(len(mb.opcodes)))
    raw, deprecated = mb.opcodes[k]
    if rng.integers(2):
        new = getattr(BuiltinOperator, _pick(rng, _SUPPORTED_OPS))
        mb.opcodes[k] = (new, min(new, 127))
    else:
        mb.opcodes[k] = (raw, int(rng.integers(0, 128)))
    return f"opcode: code {k} ({raw}, {deprecated}) -> {mb.opcodes[k]}"


def m_buffer(mb, rng):
    k, t = _tensor(mb, rng)
    raw = _data(mb, t)
    choice = int(rng.integers(5))
    if choice == 0 and raw and not isinstance(raw, tuple):
        mb.buffers.append((int(_pick(rng, [1, 2, 16, 10**6])), len(raw)))
        what = "stored by offset"
    elif choice == 1 and raw and not isinstance(raw, tuple):
        mb.buffers.append(raw[:-int(rng.integers(1, len(raw) + 1))])
        what = "cut short"
    elif choice == 2:
        n = int(np.prod(t["shape"])) if t["shape"] else 1
        mb.buffers.append(bytes(rng.integers(0, 256, size=min(n * 8, 1 << 16), dtype=np.uint8))[:n * (
            np.dtype(DTYPES[t["dtype"]][0]).itemsize)])
        what = "gains random data"
    elif choice == 3:
        t["buffer"] = int(rng.integers(0, len(mb.buffers) + 2))
        return f"buffer: tensor {k} {_label(t)!r} -> buffer {t['buffer']}"
    else:
        t["buffer"] = 0
        return f"buffer: tensor {k} {_label(t)!r} loses its data"
    t["buffer"] = len(mb.buffers) - 1
    return f"buffer: tensor {k} {_label(t)!r} {what}"


def m_arity(mb, rng):
    k = int(rng.integers(len(mb.operators)))
    op = mb.operators[k]
    side = "inputs" if rng.integers(3) else "outputs"
    lst = op[side]
    choice = int(rng.integers(4))
    if choice == 0 and lst:
        lst[int(rng.integers(len(lst)))] = -1
        what = "omits one"
    elif choice == 1 and lst:
        del lst[int(rng.integers(len(lst)))]
        what = "drops one"
    elif choice == 2:
        lst.append(int(rng.integers(-1, len(mb.tensors))))
        what = "gains one"
    else:
        if lst:
            lst[int(rng.integers(len(lst)))] = int(rng.integers(-1, len(mb.tensors) + 1))
        what = "points one elsewhere"
    return f"arity: op {k} {side} {what}: {lst}"


def m_io(mb, rng):
    lst = mb.inputs if rng.integers(2) else mb.outputs
    choice = int(rng.integers(3))
    if choice == 0 and lst:
        lst.append(lst[0])
    elif choice == 1:
        lst.append(int(rng.integers(-1, len(mb.tensors))))
    elif lst:
        del lst[int(rng.integers(len(lst)))]
    return f"io: model list -> {lst}"


STRUCTURED = [m_shape, m_dtype, m_quant, m_options, m_name, m_opcode, m_buffer, m_arity, m_io]


def bytes_edit(data, rng):
    data = bytearray(data)
    if rng.integers(3) == 0:
        cut = int(rng.integers(8, len(data)))
        return bytes(data[:cut]), f"truncate: {len(data)} -> {cut} bytes"
    positions = [int(rng.integers(len(data))) for _ in range(int(rng.integers(1, 5)))]
    for p in positions:
        data[p] = int(rng.integers(256))
    return bytes(data), f"bytes: edited at {positions}"


def mutate(data, rng):
    """(mutated bytes, description) of one case: 1-3 structured edits, or a byte edit."""
    if rng.integers(5) == 0:
        return bytes_edit(data, rng)
    mb = decode(data)
    notes = []
    for _ in range(int(rng.integers(1, 4))):
        notes.append(_pick(rng, STRUCTURED)(mb, rng))
    try:
        return mb.build(), "; ".join(notes)
    except Exception as e:  # noqa: BLE001 - the builder refuses some edits (e.g. a huge int)
        return data, "; ".join(notes) + f" (not encodable: {type(e).__name__}; original kept)"
