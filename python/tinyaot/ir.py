"""The graph IR: what the frontend reads and every later stage works on.

It is deliberately small: tensors (shape, dtype, quantization, constant data)
and operators (type, tensor indices, typed options) in execution order. Other
subgraphs (CALL_ONCE's init subgraph, IF's branches, WHILE's condition and body) are inlined into that order: their tensors
follow the main subgraph's, and a Block marks the operators that run conditionally.
"""

import re
from dataclasses import dataclass, field

import numpy as np

# dtype name -> (numpy dtype, C type, tinyaot.h enum)
DTYPES = {
    "int8": (np.int8, "int8_t", "TINYAOT_INT8"),
    "uint8": (np.uint8, "uint8_t", "TINYAOT_UINT8"),
    "int16": (np.int16, "int16_t", "TINYAOT_INT16"),
    "int32": (np.int32, "int32_t", "TINYAOT_INT32"),
    "int64": (np.int64, "int64_t", "TINYAOT_INT64"),
    "uint32": (np.uint32, "uint32_t", "TINYAOT_UINT32"),  # CAST's only (TFLM has no other uint32 kernel)
    "float32": (np.float32, "float", "TINYAOT_FLOAT32"),
    # A resource variable's handle (VAR_HANDLE's output): resolved to the variable at build
    # time (frontend/resources.py), never stored; 4 bytes, as TFLM's int32 resource id.
    "resource": (np.int32, "int32_t", "TINYAOT_INT32"),
    # TFLite's bool is C++'s one-byte 0/1. Stored as uint8_t rather than C's bool: a byte an
    # application writes that is neither 0 nor 1 stays defined (kernels read nonzero as true,
    # as C's conversion to bool does), where such a byte in a `bool` object is undefined.
    "bool": (np.bool_, "uint8_t", "TINYAOT_BOOL"),
}


@dataclass
class Quantization:
    scale: np.ndarray  # float32, one per channel or a single value
    zero_point: np.ndarray  # int64, same length as scale
    axis: int = 0

    @property
    def per_channel(self):
        return len(self.scale) > 1


@dataclass
class Tensor:
    index: int
    name: str
    dtype: str
    shape: tuple
    quant: Quantization | None = None
    data: np.ndarray | None = None  # constant contents, already shaped
    is_variable: bool = False

    @property
    def is_constant(self):
        return self.data is not None and not self.is_variable

    @property
    def num_elements(self):
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def itemsize(self):
        return np.dtype(DTYPES[self.dtype][0]).itemsize

    @property
    def nbytes(self):
        return self.num_elements * self.itemsize

    @property
    def ctype(self):
        return DTYPES[self.dtype][1]

    @property
    def scale(self):
        """The per-tensor scale (first one if per-channel), as float32."""
        return np.float32(self.quant.scale[0]) if self.quant is not None else np.float32(0.0)

    @property
    def zero_point(self):
        return int(self.quant.zero_point[0]) if self.quant is not None else 0

    @property
    def c_name(self):
        return c_identifier(self.name) or f"t{self.index}"


@dataclass
class Operator:
    index: int
    type: str  # TFLite builtin name, e.g. "CONV_2D"
    inputs: list  # tensor indices; -1 marks an omitted optional input
    outputs: list
    options: dict = field(default_factory=dict)
    version: int = 1
    origin: tuple = None  # (subgraph, operator index) in the file; index is the position in the inlined order


@dataclass
class Block:
    """Operators first..last (inlined from another subgraph) that run under a condition:
    kind "once": a CALL_ONCE's init subgraph, run on the first run() only; "then" and
    "else": an IF's branches, run when its condition (a bool tensor) is true or false;
    "loop": a WHILE's condition and body subgraphs, repeated until the condition is false
    at step `test`."""
    kind: str
    first: int
    last: int
    subgraph: int
    owner: int  # the CALL_ONCE or IF operator
    cond: int | None = None  # IF, WHILE: the condition tensor
    test: int | None = None  # WHILE: the step after which the loop ends when cond is false


@dataclass
class Graph:
    source: str  # the file it came from, for error messages
    tensors: list
    operators: list
    inputs: list
    outputs: list
    blocks: list = field(default_factory=list)  # Blocks, in the order of their first operator


def c_identifier(text, max_len=48):
    """Turns a tensor name into a C identifier fragment (lower case, [a-z0-9_])."""
    ident = re.sub(r"[^0-9a-zA-Z]+", "_", text).strip("_").lower()
    if len(ident) > max_len:
        # The name's end (the most specific part), cut where a word starts, not inside one.
        tail = ident[-max_len:]
        ident = tail if ident[-max_len - 1] == "_" or "_" not in tail else tail.split("_", 1)[1]
        ident = ident.lstrip("_")
    if ident and ident[0].isdigit():
        ident = "t" + ident
    return ident
