"""Band fusion: a convolution whose output only a FULLY_CONNECTED layer reads is
computed a few output rows at a time and consumed at once, so its output is
never stored.

A CONV_2D or DEPTHWISE_CONV_2D (int8, batch 1) whose output tensor X has one
reader, a FULLY_CONNECTED (int8, batch 1) taking X flattened as its input, is
run inside the FULLY_CONNECTED's step (ops/band_fc.py): per band of output
rows, the convolution kernel (portable or CMSIS-NN) writes the band into a scratch buffer and the
fully connected layer adds that slice of its dot products (weights columns of
the band's rows) to N int32 accumulators, which are requantized once at the end.
The int8 values of X and the integer sums are those of the unfused pair, so the
result is bit-exact. The convolution's own step runs no code.

RAM: X (its bytes) leaves the arena; the step holds a band scratch and the
accumulators (4 N bytes) instead, both planned in the arena. A pair is fused
only when those take fewer aligned bytes than X; the convolution's input then
lives until the FULLY_CONNECTED's step. That can cost more than it saves where the
unfused convolution writes its output over its input (a strided convolution with
the input in the arena), so the compiler plans both and keeps the smaller arena.

Residual fusion (ResidualFusion, ops/band_residual.py): O = ADD(X, U), U = CONV_2D_b(T),
T = CONV_2D_a(X) (int8, or int16 activations with int8 weights), or a downsampling block
O = ADD(S, U), S = CONV_2D_s(X), CONV_a and CONV_s with strides 2, runs in the ADD's step in
bands of O's rows: the T rows a band of U needs are kept in a window scratch (each
computed once), U's (and S's) band goes to a band scratch, and the ADD writes O's rows
from X's start on, where a walk over the bands proves that no later band reads what a
band's O overwrites. T, U (and S) leave the arena and O may start at X: the block needs
X plus the scratch instead of X plus T plus U.

Chain fusion (ChainFusion, ops/band_residual.py's loop without the ADD): U = B(T), T = CONV_a(X)
with X a model input (the first convolution), B a convolution or pooling that alone reads T
(int8 or float32), runs in B's step in bands of U's rows: the T rows a band of U needs are kept
in a window scratch (each computed once) and B writes U's rows. The first convolution's output,
often the model's largest tensor (cnn_kws_small's 7840 bytes, magic_wand_float32's 12288), is
never stored. Tried only on a model input and kept only where the whole arena comes out smaller
(compiler.py): a chain that does not lower the peak only costs the bands' calls.
"""

from dataclasses import dataclass

from tinyaot.ir import Graph, Operator
from tinyaot.ops.conv import PADDING_SAME, out_size, padding_before
from tinyaot.planner.greedy import align_up

PRODUCERS = ("CONV_2D", "DEPTHWISE_CONV_2D")
# A band holds at least this many multiply-accumulates: each band pays the convolution
# kernel's per-call work once more (measured: about 5 k instructions per band for
# micro_speech's depthwise on Cortex-M3, 4.4 per MAC), which then stays near 2% of it...
MIN_BAND_MACS = 49152
# ...unless that takes more than a quarter of the output it replaces: most of the RAM saving is kept.
MAX_BAND_SHARE = 4

class _OneProducer:
    """What the fusions of one convolution (producer, its output tensor) into the step of the
    operator reading it (consumer) share."""

    @property
    def producers(self):
        return (self.producer,)

    def _never_stored(self, graph):
        t = graph.tensors[self.tensor]
        return (f"operator {self.producer} ({graph.operators[self.producer].type}) runs inside operator "
                f"{self.consumer} ({graph.operators[self.consumer].type}) in bands of {self.rows} output row"
                f"{'s' if self.rows > 1 else ''}: tensor '{t.name}' ({t.nbytes} bytes) is never stored")

    def planned(self, graph, ops):
        """The planner's view: the convolution's step reads and writes nothing, the consumer's
        reads the convolution's inputs and its own but the tensor."""
        conv, b = graph.operators[self.producer], graph.operators[self.consumer]
        ops[self.producer] = Operator(conv.index, conv.type, [], [], conv.options, conv.version)
        ops[self.consumer] = Operator(b.index, b.type, [*conv.inputs, *(t for t in b.inputs if t != self.tensor)],
                                      b.outputs, b.options, b.version)


@dataclass(frozen=True)
class Fusion(_OneProducer):
    producer: int  # operator index of the convolution
    consumer: int  # operator index of the FULLY_CONNECTED
    tensor: int  # the convolution's output, never stored
    rows: int  # output rows per band
    band_bytes: int  # the band scratch
    accumulator_bytes: int  # N int32 sums

    def describe(self, graph):
        return (f"{self._never_stored(graph)}; scratch {self.band_bytes} + {self.accumulator_bytes} bytes "
                "(band, int32 sums)")

    def summary(self, graph):
        """The JSON's entry."""
        return {"kind": "fully_connected", "producer": self.producer, "consumer": self.consumer,
                "tensor": graph.tensors[self.tensor].name, "tensor_bytes": graph.tensors[self.tensor].nbytes,
                "band_rows": self.rows, "band_bytes": self.band_bytes, "accumulator_bytes": self.accumulator_bytes}


@dataclass(frozen=True)
class ResidualFusion:
    conv_a: int  # operator index of CONV_2D_a (X -> T)
    conv_b: int  # operator index of CONV_2D_b (T -> U)
    consumer: int  # operator index of the ADD (X or S, U -> O)
    block_input: int  # X, overwritten by O band by band
    tensors: tuple  # (T, U), or (T, U, S), never stored
    rows: int  # O rows per band
    window_bytes: int  # the T window: rows + filter_b - 1 rows of T
    band_bytes: int  # a band of U (and one of S)
    shortcut: int | None = None  # CONV_2D_s (X -> S) of a downsampling block; None: O = ADD(X, U)

    @property
    def producers(self):
        return (self.conv_a, self.conv_b) + (() if self.shortcut is None else (self.shortcut,))

    def describe(self, graph):
        named = " and ".join(f"'{graph.tensors[t].name}' ({graph.tensors[t].nbytes} bytes)" for t in self.tensors)
        ops = ", ".join(map(str, self.producers[:-1])) + f" and {self.producers[-1]}"
        bands = " + ".join([str(self.window_bytes)] + [str(self.band_bytes)] * (len(self.tensors) - 1))
        return (f"operators {ops} (CONV_2D) run inside operator {self.consumer} (ADD) "
                f"in bands of {self.rows} output row{'s' if self.rows > 1 else ''}: tensors {named} are never "
                f"stored, the output is written over '{graph.tensors[self.block_input].name}'; scratch {bands} "
                f"bytes (window, band{'s' if self.shortcut is not None else ''})")

    def summary(self, graph):
        return {"kind": "residual", "producers": list(self.producers), "consumer": self.consumer,
                "tensors": [graph.tensors[t].name for t in self.tensors],
                "tensor_bytes": sum(graph.tensors[t].nbytes for t in self.tensors), "band_rows": self.rows,
                "window_bytes": self.window_bytes, "band_bytes": self.band_bytes}

    def planned(self, graph, ops):
        """The planner's view: the convolutions' steps read and write nothing, the ADD's reads X and
        the convolutions' weights and writes O (which its declaration lets start at X)."""
        weights = []
        for k in self.producers:
            conv = graph.operators[k]
            ops[k] = Operator(conv.index, conv.type, [], [], conv.options, conv.version)
            weights += conv.inputs[1:]
        add = graph.operators[self.consumer]
        ops[self.consumer] = Operator(add.index, add.type, [self.block_input, *weights], add.outputs, add.options,
                                      add.version)


@dataclass(frozen=True)
class ChainFusion(_OneProducer):
    producer: int  # operator index of CONV_a (X -> T), X a model input
    consumer: int  # operator index of B (T -> U): a convolution or pooling
    tensor: int  # T, never stored
    rows: int  # U rows per band
    window_bytes: int  # the T window: (rows - 1) * stride_b + filter_b rows of T

    def describe(self, graph):
        return f"{self._never_stored(graph)}; scratch {self.window_bytes} bytes (window)"

    def summary(self, graph):
        t = graph.tensors[self.tensor]
        return {"kind": "chain", "producer": self.producer, "consumer": self.consumer, "tensor": t.name,
                "tensor_bytes": t.nbytes, "band_rows": self.rows, "window_bytes": self.window_bytes}


def find_fusions(graph, views, alignment):
    """{consumer operator index: Fusion} for every pair that can be fused and saves RAM."""
    readers = {}
    for op in graph.operators:
        for t in op.inputs:
            if t >= 0:
                readers.setdefault(t, []).append(op)
    fusions = {}
    for op in graph.operators:
        fusion = _fusion(graph, views, op, readers, alignment)
        if fusion is not None:
            fusions[fusion.consumer] = fusion
    taken = {k for f in fusions.values() for k in (*f.producers, f.consumer)}
    for op in graph.operators:
        fusion = _residual(graph, views, op, readers, alignment)
        if fusion is not None and not taken & {*fusion.producers, fusion.consumer}:
            fusions[fusion.consumer] = fusion
            taken |= {*fusion.producers, fusion.consumer}
    for op in graph.operators:
        fusion = _chain(graph, views, op, readers, alignment)
        if fusion is not None and not taken & {fusion.producer, fusion.consumer}:
            fusions[fusion.consumer] = fusion
            taken |= {fusion.producer, fusion.consumer}
    return fusions


def _fusion(graph, views, op, readers, alignment):
    if op.type not in PRODUCERS or len(op.inputs) < 2 or len(op.outputs) != 1:
        return None
    x = op.outputs[0]
    fc = readers.get(x, [])
    if len(fc) != 1 or fc[0].type != "FULLY_CONNECTED" or fc[0].index <= op.index or fc[0].inputs[0] != x or \
            fc[0].inputs.count(x) != 1 or len(fc[0].inputs) < 2 or len(fc[0].outputs) != 1:
        return None
    fc = fc[0]
    out, inp, weights = graph.tensors[x], graph.tensors[op.inputs[0]], graph.tensors[op.inputs[1]]
    fc_weights, fc_out = graph.tensors[fc.inputs[1]], graph.tensors[fc.outputs[0]]
    if x in graph.outputs or x in views.root or x in views.root.values():
        return None  # stored anyway, or shared with a view
    if any(t.dtype != "int8" for t in (inp, out, weights, fc_weights, fc_out)) or \
            len(out.shape) != 4 or out.shape[0] != 1 or len(fc_weights.shape) != 2 or \
            fc_weights.shape[1] != out.num_elements or fc_out.num_elements != fc_weights.shape[0] or \
            not fc_weights.is_constant or len(weights.shape) != 4:
        return None  # not batch 1 over the whole output; a malformed pair is left to the lowerings to report
    _, out_h, out_w, out_ch = out.shape
    row_bytes = out_w * out_ch
    taps = weights.shape[1] * weights.shape[2] * (weights.shape[3] if op.type == "CONV_2D" else 1)
    by_work = -(-MIN_BAND_MACS // max(1, row_bytes * taps))
    by_ram = out.nbytes // MAX_BAND_SHARE // row_bytes
    rows = max(1, min(out_h, by_work, by_ram))
    fusion = Fusion(op.index, fc.index, x, rows, rows * row_bytes, 4 * fc_weights.shape[0])
    scratch = align_up(fusion.band_bytes, alignment) + align_up(fusion.accumulator_bytes, alignment)
    return fusion if scratch < align_up(out.nbytes, alignment) else None


def _conv_rows(graph, op, x):
    """(filter_h, pad_h, stride) of a CONV_2D reading x (int8, or int16 activations with int8
    weights), batch 1, ungrouped, dilation 1, strides 1x1 or 2x2, else None."""
    o = op.options
    stride = o.get("stride_h", 1)
    if op.type != "CONV_2D" or len(op.inputs) < 2 or op.inputs[0] != x or op.inputs.count(x) != 1 or \
            len(op.outputs) != 1 or stride not in (1, 2) or o.get("stride_w", 1) != stride or \
            (o.get("dilation_h_factor", 1), o.get("dilation_w_factor", 1)) != (1, 1):
        return None
    inp, weights, out = graph.tensors[x], graph.tensors[op.inputs[1]], graph.tensors[op.outputs[0]]
    if inp.dtype not in ("int8", "int16") or out.dtype != inp.dtype or weights.dtype != "int8" or \
            len(inp.shape) != 4 or len(out.shape) != 4 or len(weights.shape) != 4 or inp.shape[0] != 1 or \
            out.shape[0] != 1 or weights.shape[3] != inp.shape[3] or out.shape[3] != weights.shape[0]:
        return None  # grouped, batched or malformed: left unfused (the lowerings report what is wrong)
    padding, (h, w) = o.get("padding", PADDING_SAME), weights.shape[1:3]
    if (out_size(padding, inp.shape[1], h, stride, 1), out_size(padding, inp.shape[2], w, stride, 1)) != \
            tuple(out.shape[1:3]):
        return None
    return h, padding_before(inp.shape[1], h, stride, 1, out.shape[1]), stride


def _block(graph, add, readers, writer):
    """(X, [T, U, S or X], conv_a, conv_b, conv_s or None) of the residual block ending in `add`, or None."""
    for p, u in (add.inputs, add.inputs[::-1]):
        conv_b = writer.get(u)
        t = conv_b.inputs[0] if conv_b is not None and conv_b.inputs else -1
        conv_a = writer.get(t)
        x = conv_a.inputs[0] if conv_a is not None and conv_a.inputs else -1
        conv_s = None if p == x else writer.get(p)
        if conv_a is None or (p != x and (conv_s is None or not conv_s.inputs or conv_s.inputs[0] != x)):
            continue
        x_readers = sorted((conv_a.index, add.index if conv_s is None else conv_s.index))
        if [r.index for r in readers.get(u, [])] == [add.index] and \
                [r.index for r in readers.get(t, [])] == [conv_b.index] and \
                [r.index for r in readers.get(p, [])] == ([add.index] if conv_s is not None else x_readers) and \
                sorted(r.index for r in readers.get(x, [])) == x_readers:
            return x, [t, u] + ([p] if conv_s is not None else []), conv_a, conv_b, conv_s
    return None


def _o_over_x_is_safe(h_out, rows, o_row, x_row, a, b, s):
    """Whether O's bands, written from X's first byte on, never land on X bytes a later band
    still reads: the T rows computed later (from the stride times their row less CONV_a's top
    padding on), S's later rows (likewise), or X's later rows the ADD reads (s None)."""
    (_, pad_a, stride), (filter_b, pad_b, _) = a, b
    for row in range(0, h_out, rows):
        end = min(h_out, row + rows)
        computed = min(h_out, end - 1 - pad_b + filter_b)  # T rows computed by the end of this band
        later = [computed * stride - pad_a] if computed < h_out else []
        if end < h_out:
            later.append(end if s is None else end * stride - s[1])
        if later and end * o_row > max(0, min(later)) * x_row:
            return False
    return True


def _residual(graph, views, add, readers, alignment):
    """The ResidualFusion whose ADD is `add`, or None (see the module doc)."""
    if add.type != "ADD" or len(add.inputs) != 2 or len(add.outputs) != 1 or add.inputs[0] == add.inputs[1]:
        return None
    writer = {t: op for op in graph.operators for t in op.outputs}
    block = _block(graph, add, readers, writer)
    if block is None:
        return None
    x, inner, conv_a, conv_b, conv_s = block
    a, b = _conv_rows(graph, conv_a, x), _conv_rows(graph, conv_b, inner[0])
    s = None if conv_s is None else _conv_rows(graph, conv_s, x)
    xt, (tt, ut), ot = graph.tensors[x], (graph.tensors[i] for i in inner[:2]), graph.tensors[add.outputs[0]]
    if a is None or b is None or b[2] != 1 or (conv_s is not None and (s is None or s[2] != a[2])) or \
            tuple(ut.shape[:3]) != tuple(tt.shape[:3]) or \
            any(tuple(graph.tensors[i].shape) != tuple(ot.shape) for i in (inner[1], add.inputs[0], add.inputs[1])) or \
            ot.dtype != xt.dtype:
        return None
    if any(i in graph.outputs or i in views.root or i in views.root.values() or graph.tensors[i].is_constant
           or graph.tensors[i].is_variable for i in (x, *inner)) or add.outputs[0] in views.root:
        return None  # stored anyway, or shared with a view
    _, h, w, ch = ot.shape
    t_row, o_row = (w * c * ot.itemsize for c in (tt.shape[3], ch))  # bytes
    filter_b = b[0]
    taps = graph.tensors[conv_b.inputs[1]].shape[1:]
    by_work = -(-MIN_BAND_MACS // max(1, w * ch * taps[0] * taps[1] * taps[2]))
    by_ram = (xt.nbytes // MAX_BAND_SHARE - (filter_b - 1) * t_row) // (t_row + (len(inner) - 1) * o_row)
    rows = max(1, min(h, by_work, by_ram))
    if not _o_over_x_is_safe(h, rows, o_row, xt.shape[2] * xt.shape[3] * xt.itemsize, a, b, s):
        return None  # a later band would read X bytes the band's O has overwritten
    window = min(h, rows + filter_b - 1) * t_row
    fusion = ResidualFusion(conv_a.index, conv_b.index, add.index, x, tuple(inner), rows, window, rows * o_row,
                            None if conv_s is None else conv_s.index)
    scratch = align_up(window, alignment) + (len(inner) - 1) * align_up(fusion.band_bytes, alignment)
    if scratch < sum(align_up(graph.tensors[i].nbytes, alignment) for i in inner):
        return fusion
    return None


CHAIN_CONSUMERS = ("CONV_2D", "DEPTHWISE_CONV_2D", "MAX_POOL_2D", "AVERAGE_POOL_2D")


def _window_rows(graph, op):
    """(filter_h, pad_h, stride_h) of a convolution or pooling over rows (batch 1, dilation 1,
    rank 4, its output size the one its options give), else None."""
    o = op.options
    if op.type not in CHAIN_CONSUMERS or not op.inputs or len(op.outputs) != 1 or \
            (o.get("dilation_h_factor", 1), o.get("dilation_w_factor", 1)) != (1, 1):
        return None
    inp, out = graph.tensors[op.inputs[0]], graph.tensors[op.outputs[0]]
    if op.type.endswith("POOL_2D"):
        filter_h = o.get("filter_height", 0)
    elif len(op.inputs) >= 2 and len(graph.tensors[op.inputs[1]].shape) == 4:
        filter_h = graph.tensors[op.inputs[1]].shape[1]
    else:
        return None
    stride = o.get("stride_h", 1)
    if len(inp.shape) != 4 or len(out.shape) != 4 or inp.shape[0] != 1 or out.shape[0] != 1 or \
            min(filter_h, stride) < 1 or \
            out_size(o.get("padding", PADDING_SAME), inp.shape[1], filter_h, stride, 1) != out.shape[1]:
        return None  # malformed: left unfused (the lowerings report what is wrong)
    return filter_h, padding_before(inp.shape[1], filter_h, stride, 1, out.shape[1]), stride


def _chain(graph, views, op, readers, alignment):
    """The ChainFusion whose CONV_a is `op`, or None (see the module doc)."""
    if op.type not in PRODUCERS or not op.inputs or op.inputs[0] not in graph.inputs or len(op.outputs) != 1:
        return None
    t = op.outputs[0]
    b = readers.get(t, [])
    if len(b) != 1 or b[0].index <= op.index or b[0].inputs[0] != t or b[0].inputs.count(t) != 1:
        return None
    b = b[0]
    a_rows, b_rows = _window_rows(graph, op), _window_rows(graph, b)
    x, tt, u = graph.tensors[op.inputs[0]], graph.tensors[t], graph.tensors[b.outputs[0]]
    if a_rows is None or b_rows is None or x.dtype not in ("int8", "float32") or \
            any(i.dtype != x.dtype for i in (tt, u)):
        return None
    if t in graph.outputs or t in views.root or t in views.root.values() or tt.is_variable or \
            b.outputs[0] in views.root:
        return None  # stored anyway, or shared with a view
    filter_b, _, stride_b = b_rows
    if filter_b < stride_b:
        return None  # T rows no band reads: the window's rows would not be contiguous
    t_h, t_row = tt.shape[1], tt.nbytes // tt.shape[1]
    a_taps = graph.tensors[op.inputs[1]].shape[1:]
    a_row_macs = tt.shape[2] * tt.shape[3] * a_taps[0] * a_taps[1] * (a_taps[2] if op.type == "CONV_2D" else 1)
    b_row_macs = u.shape[2] * u.shape[3] * filter_b * (
        graph.tensors[b.inputs[1]].shape[2] * (tt.shape[3] if b.type == "CONV_2D" else 1) if b.type.endswith("CONV_2D")
        else b.options.get("filter_width", 1))
    by_work = -(-MIN_BAND_MACS // max(1, b_row_macs + stride_b * a_row_macs))
    by_ram = (tt.nbytes // MAX_BAND_SHARE // t_row - filter_b) // stride_b + 1
    rows = max(1, min(u.shape[1], by_work, by_ram))
    window = min(t_h, (rows - 1) * stride_b + filter_b) * t_row
    if align_up(window, alignment) >= align_up(tt.nbytes, alignment):
        return None
    return ChainFusion(op.index, b.index, t, rows, window)


def planning_graph(graph, fusions):
    """The graph as the planner must see it (each fusion's planned())."""
    if not fusions:
        return graph
    ops = list(graph.operators)
    for f in fusions.values():
        f.planned(graph, ops)
    return Graph(graph.source, graph.tensors, ops, graph.inputs, graph.outputs)
