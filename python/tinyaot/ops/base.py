"""What an operator lowering hands to codegen: kernel calls with typed arguments.

A lowering validates one operator, computes everything that can be known at
compile time (multipliers, shifts, loop bounds) and returns KernelCalls. Codegen
turns TensorRef/ScratchRef into pointers once the planner has placed buffers,
and ParamStruct/ParamArray into named `static const` data in flash.
"""

from dataclasses import dataclass, field

import numpy as np

from tinyaot.cores import DSP_ARCHS
from tinyaot.errors import TinyAotError, UnsupportedError
from tinyaot.quant import activation_range


@dataclass(frozen=True)
class TensorRef:
    """Pointer to a tensor's data (wherever the planner put it)."""
    tensor: int


@dataclass(frozen=True)
class TensorList:
    """Pointers to several tensors' data as one `const ctype *const[]` argument, for kernels
    that take any number of inputs (ADD_N)."""
    tensors: tuple
    ctype: str


def optional_ref(tensor):
    """TensorRef of an optional input (a bias), or NULL when the operator omits it."""
    return TensorRef(tensor.index) if tensor is not None else "NULL"


@dataclass(frozen=True)
class ScratchRef:
    """Pointer to the call's index-th scratch buffer, typed as `ctype *`."""
    index: int
    ctype: str = "int32_t"


@dataclass
class ParamStruct:
    """A `static const <ctype>` initialised field by field, passed by address."""
    ctype: str
    fields: dict


@dataclass
class ParamArray:
    """A `static const <ctype>[]` table, passed as a pointer; weights=True for a
    weights tensor re-laid out for its kernel (reported with the weights)."""
    ctype: str
    values: np.ndarray
    weights: bool = False


@dataclass
class KernelCall:
    kernel: str  # function name
    args: list  # TensorRef | ScratchRef | ParamStruct | ParamArray | int | "NULL"
    scratch: list = field(default_factory=list)  # bytes of each scratch buffer
    header: str | None = None  # kernels/<header> declares it; default <kernel>.h
    # [(input tensor, output tensor, D)]: from the kernel's read/write order, the output may
    # share bytes with the input when it starts at most D bytes after it (see ops/overlap.py).
    overlaps: list = field(default_factory=list)
    # File-scope C the call's parameters name: kernel loops instantiated for this model's
    # shapes (e.g. TINYAOT_CONV2D_PAIR4_STEP(16)).
    instances: list = field(default_factory=list)
    # The kernel returns TINYAOT_OK or an error code (e.g. an index read at run time out of
    # range, which TFLM fails the inference on): run() stops there and returns it.
    checked: bool = False

    @property
    def header_file(self):
        return self.header or f"{self.kernel}.h"


@dataclass(frozen=True)
class BandInput:
    """In a BandLoop's (or ResidualLoop's) calls: a tensor from the band's row `first` on."""
    tensor: int
    row_elements: int  # elements of one row
    first: str = "first"  # the C variable holding the row


@dataclass
class BandLoop:
    """A convolution run band by band inside another operator's step (passes/fusion.py),
    emitted as a C loop: `before`, then per band of `rows` output rows `body`, then `after`.
    The generated code names the band's state: `band` (the convolution's parameters
    `params`, cut to the band by tinyaot_band_window() from the `window` fields), `first`
    (the band's first input row), `row` (its first output row) and `band.output_h` (its
    rows). Scratch indices in all three lists count in `scratch`."""
    kernel: str  # what inspect, the JSON and the profile call it
    params: ParamStruct
    window: dict  # output_h, input_h, stride_h, dilation_h, filter_h, pad_h of the whole image
    rows: int
    before: list
    body: list
    after: list
    scratch: list
    overlaps: list = field(default_factory=list)


@dataclass
class ResidualLoop:
    """A residual block run band by band inside its ADD's step (passes/fusion.py
    ResidualFusion), emitted as a C loop over bands of `rows` output rows (see
    kernels/tinyaot_band_residual.h). The calls' arguments name the loop's state:
    `band_a`, `band_b`, `band_s` and `band_add` (copies of each call's parameters, cut to
    the band), `row` (the band's first output row), `first` (the first T row CONV_b reads,
    at the start of the `window`), `first_a` and `first_s` (the first X rows CONV_a and
    CONV_s read) and `computed` (the T rows computed so far). `conv` holds (call, its
    parameters, filter_h, pad_h, stride_h) of CONV_a, CONV_b and CONV_s (if any).
    Scratch 0 is the T window, 1 the band of U, 2 the band of S. A chain (passes/fusion.py
    ChainFusion) has no ADD (`add` None): its CONV_b (a convolution or pooling) writes U's rows,
    and T has `t_height` rows (U `height`)."""
    kernel: str  # what inspect, the JSON and the profile call it
    conv: tuple
    add: KernelCall
    add_params: ParamStruct
    height: int  # rows of T, U, (S) and O
    input_height: int  # rows of X
    rows: int
    ctype: str  # of X, T, U, (S) and O's elements: int8_t or int16_t
    t_row: int  # elements of one T row
    o_row: int  # elements of one O row
    scratch: list
    overlaps: list = field(default_factory=list)
    t_height: int | None = None  # rows of T where they differ from `height` (a chain)


class LowerContext:
    """One operator and its graph, with checks that fail naming the operator. optimize
    (compiler.OPTIMIZE): whether lowerings may name specialised kernel paths (speed) or not
    (size); arch: the core's ISA level (cores.CPU_ARCH), which picks kernels and their
    weight layouts; long_multiply: whether the core has a 32 x 32 -> 64-bit multiply
    (not Armv6-M, cores.NO_LONG_MULTIPLY), which some weight layouts need to pay off."""

    def __init__(self, graph, op, optimize="speed", arch="scalar", long_multiply=True):
        self.graph = graph
        self.op = op
        self.optimize = optimize
        self.arch = arch
        self.long_multiply = long_multiply

    @property
    def dsp(self):
        """Whether the core has the DSP extension's SIMD instructions (kernels/dsp/)."""
        return self.arch in DSP_ARCHS

    def error(self, message, tensor=None):
        name = self.graph.tensors[tensor].name if isinstance(tensor, int) else tensor
        return TinyAotError(message, file=self.graph.source, op_index=self.op.index,
                            op_type=self.op.type, tensor=name)

    def expect(self, condition, message, tensor=None):
        if not condition:
            raise self.error(message, tensor)

    def input(self, k, optional=False):
        """The k-th input tensor (None if optional and omitted)."""
        ins = self.op.inputs
        if k >= len(ins) or ins[k] < 0:
            if optional:
                return None
            raise self.error(f"input {k} is missing (has {len(ins)} inputs)")
        return self.graph.tensors[ins[k]]

    def output(self, k=0):
        self.expect(k < len(self.op.outputs), f"output {k} is missing")
        return self.graph.tensors[self.op.outputs[k]]

    def expect_dtype(self, tensor, *dtypes):
        if tensor.dtype not in dtypes:
            same = sorted({i for i in (*self.op.inputs, *self.op.outputs)
                           if i >= 0 and self.graph.tensors[i].dtype == tensor.dtype})
            raise UnsupportedError(f"dtype {tensor.dtype} is not supported here (supported: {', '.join(dtypes)})",
                                   dtype=tensor.dtype, supported=dtypes, dtype_tensors=same, file=self.graph.source,
                                   op_index=self.op.index, op_type=self.op.type, tensor=tensor.name)

    def expect_quantized(self, tensor, per_channel_ok=False):
        self.expect(tensor.quant is not None, "tensor is not quantized", tensor.index)
        self.expect(per_channel_ok or not tensor.quant.per_channel,
                    "per-channel quantization is not supported here", tensor.index)

    def expect_same_quantization(self, tensor, out, what, why):
        """tensor's scale and zero point equal out's: for operators that move stored values."""
        self.expect_quantized(tensor)
        self.expect(float(tensor.scale) == float(out.scale) and tensor.zero_point == out.zero_point,
                    f"{what} quantization (scale {tensor.scale!s}, zero point {tensor.zero_point}) differs from "
                    f"the output's (scale {out.scale!s}, zero point {out.zero_point}); {why}", tensor.index)

    def expect_constant(self, tensor):
        self.expect(tensor.is_constant, "must be a constant tensor (it is computed at run time)", tensor.index)

    def activation(self, output):
        """(act_min, act_max) of the fused activation option."""
        return activation_range(self.op.options.get("fused_activation_function", 0), output,
                                lambda message: self.error(message))


def window_fields(inp, geometry):
    """What every convolution kernel's parameters hold first: batches, the input's
    size, and the window geometry (conv.window_geometry) but the output size."""
    return {
        "batches": inp.shape[0], "input_h": inp.shape[1], "input_w": inp.shape[2], "input_ch": inp.shape[3],
        "filter_h": geometry["filter_h"], "filter_w": geometry["filter_w"],
        **{k: geometry[k] for k in ("stride_h", "stride_w", "dilation_h", "dilation_w", "pad_h", "pad_w")},
    }
