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

@dataclass(frozen=True)
class Fusion:
    producer: int  # operator index of the convolution
    consumer: int  # operator index of the FULLY_CONNECTED
    tensor: int  # the convolution's output, never stored
    rows: int  # output rows per band
    band_bytes: int  # the band scratch
    accumulator_bytes: int  # N int32 sums

    @property
    def producers(self):
        return (self.producer,)

    def describe(self, graph):
        t = graph.tensors[self.tensor]
        return (f"operator {self.producer} ({graph.operators[self.producer].type}) runs inside operator "
                f"{self.consumer} (FULLY_CONNECTED) in bands of {self.rows} output row"
                f"{'s' if self.rows > 1 else ''}: tensor '{t.name}' ({t.nbytes} bytes) is never stored; "
                f"scratch {self.band_bytes} + {self.accumulator_bytes} bytes (band, int32 sums)")

    def summary(self, graph):
        """The JSON's entry."""
        return {"kind": "fully_connected", "producer": self.producer, "consumer": self.consumer,
                "tensor": graph.tensors[self.tensor].name, "tensor_bytes": graph.tensors[self.tensor].nbytes,
                "band_rows": self.rows, "band_bytes": self.band_bytes, "accumulator_bytes": self.accumulator_bytes}

    def planned(self, graph, ops):
        """The planner's view: the convolution's step reads and writes nothing, the FULLY_CONNECTED's
        reads the convolution's inputs and its own but X."""
        conv, fc = graph.operators[self.producer], graph.operators[self.consumer]
        ops[self.producer] = Operator(conv.index, conv.type, [], [], conv.options, conv.version)
        ops[self.consumer] = Operator(fc.index, fc.type, [*conv.inputs, *(t for t in fc.inputs if t != self.tensor)],
                                      fc.outputs, fc.options, fc.version)


@dataclass(frozen=True)
class ResidualFusion:
    conv_a: int  # operator index of CONV_2D_a (X -> T)
    conv_b: int  # operator index of CONV_2D_b (T -> U)
    consumer: int  # operator index of the ADD (X, U -> O)
    block_input: int  # X, overwritten by O band by band
    tensors: tuple  # (T, U), never stored
    rows: int  # O rows per band
    window_bytes: int  # the T window: rows + filter_b - 1 rows of T
    band_bytes: int  # a band of U

    @property
    def producers(self):
        return (self.conv_a, self.conv_b)

    def describe(self, graph):
        t, u = (graph.tensors[i] for i in self.tensors)
        return (f"operators {self.conv_a} and {self.conv_b} (CONV_2D) run inside operator {self.consumer} (ADD) "
                f"in bands of {self.rows} output row{'s' if self.rows > 1 else ''}: tensors '{t.name}' "
                f"({t.nbytes} bytes) and '{u.name}' ({u.nbytes} bytes) are never stored, the output is written "
                f"over '{graph.tensors[self.block_input].name}'; scratch {self.window_bytes} + {self.band_bytes} "
                "bytes (window, band)")

    def summary(self, graph):
        return {"kind": "residual", "producers": list(self.producers), "consumer": self.consumer,
                "tensors": [graph.tensors[t].name for t in self.tensors],
                "tensor_bytes": sum(graph.tensors[t].nbytes for t in self.tensors), "band_rows": self.rows,
                "window_bytes": self.window_bytes, "band_bytes": self.band_bytes}

    def planned(self, graph, ops):
        """The planner's view: both convolutions' steps read and write nothing, the ADD's reads X and
        the convolutions' weights and writes O (which its declaration lets start at X)."""
        weights = []
        for k in self.producers:
            conv = graph.operators[k]
            ops[k] = Operator(conv.index, conv.type, [], [], conv.options, conv.version)
            weights += conv.inputs[1:]
        add = graph.operators[self.consumer]
        ops[self.consumer] = Operator(add.index, add.type, [self.block_input, *weights], add.outputs, add.options,
                                      add.version)


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
    """(filter_h, pad_h) of an int8 CONV_2D reading x with stride 1 and dilation 1 that keeps
    x's height and width, else None."""
    o = op.options
    if op.type != "CONV_2D" or len(op.inputs) < 2 or op.inputs[0] != x or op.inputs.count(x) != 1 or \
            len(op.outputs) != 1 or (o.get("stride_h", 1), o.get("stride_w", 1)) != (1, 1) or \
            (o.get("dilation_h_factor", 1), o.get("dilation_w_factor", 1)) != (1, 1):
        return None
    inp, weights, out = graph.tensors[x], graph.tensors[op.inputs[1]], graph.tensors[op.outputs[0]]
    if inp.dtype not in ("int8", "int16") or out.dtype != inp.dtype or weights.dtype != "int8" or \
            len(inp.shape) != 4 or len(out.shape) != 4 or \
            len(weights.shape) != 4 or inp.shape[0] != 1 or weights.shape[3] != inp.shape[3] or \
            tuple(out.shape[:3]) != tuple(inp.shape[:3]) or out.shape[3] != weights.shape[0]:
        return None  # grouped, batched or malformed: left unfused (the lowerings report what is wrong)
    padding, (h, w) = o.get("padding", PADDING_SAME), weights.shape[1:3]
    if (out_size(padding, inp.shape[1], h, 1, 1), out_size(padding, inp.shape[2], w, 1, 1)) != tuple(out.shape[1:3]):
        return None
    return h, padding_before(inp.shape[1], h, 1, 1, out.shape[1])


def _residual(graph, views, add, readers, alignment):
    """The ResidualFusion whose ADD is `add`, or None (see the module doc)."""
    if add.type != "ADD" or len(add.inputs) != 2 or len(add.outputs) != 1 or add.inputs[0] == add.inputs[1]:
        return None
    writer = {t: op for op in graph.operators for t in op.outputs}
    for x, u in (add.inputs, add.inputs[::-1]):
        conv_b = writer.get(u)
        t = conv_b.inputs[0] if conv_b is not None and conv_b.inputs else -1
        conv_a = writer.get(t)
        if conv_a is None or [r.index for r in readers.get(u, [])] != [add.index] or \
                [r.index for r in readers.get(t, [])] != [conv_b.index] or \
                sorted(r.index for r in readers.get(x, [])) != sorted((conv_a.index, add.index)):
            continue
        a, b = _conv_rows(graph, conv_a, x), _conv_rows(graph, conv_b, t)
        tensors = [graph.tensors[i] for i in (x, t, u, add.outputs[0])]
        if a is None or b is None or tensors[2].shape != tensors[0].shape or tensors[3].shape != tensors[0].shape \
                or tensors[3].dtype != tensors[0].dtype:
            continue
        if any(i in graph.outputs or i in views.root or i in views.root.values() or graph.tensors[i].is_constant
               or graph.tensors[i].is_variable for i in (x, t, u)) or add.outputs[0] in views.root:
            continue  # stored anyway, or shared with a view
        (filter_a, pad_a), (filter_b, pad_b) = a, b
        if filter_b - 1 - pad_b < pad_a:
            continue  # a later T row would read X rows the band's O has overwritten
        _, h, w, ch = tensors[0].shape
        t_row, x_row = (w * c * tensors[0].itemsize for c in (tensors[1].shape[3], ch))  # bytes
        taps = graph.tensors[conv_b.inputs[1]].shape[1:]
        by_work = -(-MIN_BAND_MACS // max(1, w * ch * taps[0] * taps[1] * taps[2]))
        by_ram = (tensors[0].nbytes // MAX_BAND_SHARE - (filter_b - 1) * t_row) // (t_row + x_row)
        rows = max(1, min(h, by_work, by_ram))
        window = min(h, rows + filter_b - 1) * t_row
        fusion = ResidualFusion(conv_a.index, conv_b.index, add.index, x, (t, u), rows, window, rows * x_row)
        scratch = align_up(window, alignment) + align_up(fusion.band_bytes, alignment)
        if scratch < align_up(tensors[1].nbytes, alignment) + align_up(tensors[2].nbytes, alignment):
            return fusion
    return None


def planning_graph(graph, fusions):
    """The graph as the planner must see it (each fusion's planned())."""
    if not fusions:
        return graph
    ops = list(graph.operators)
    for f in fusions.values():
        f.planned(graph, ops)
    return Graph(graph.source, graph.tensors, ops, graph.inputs, graph.outputs)
