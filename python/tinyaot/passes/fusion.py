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

    def describe(self, graph):
        t = graph.tensors[self.tensor]
        return (f"operator {self.producer} ({graph.operators[self.producer].type}) runs inside operator "
                f"{self.consumer} (FULLY_CONNECTED) in bands of {self.rows} output row"
                f"{'s' if self.rows > 1 else ''}: tensor '{t.name}' ({t.nbytes} bytes) is never stored; "
                f"scratch {self.band_bytes} + {self.accumulator_bytes} bytes (band, int32 sums)")


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


def planning_graph(graph, fusions):
    """The graph as the planner must see it: a fused convolution's step reads and writes
    nothing, its FULLY_CONNECTED's step reads the convolution's inputs and its own but X."""
    if not fusions:
        return graph
    ops = list(graph.operators)
    for f in fusions.values():
        conv, fc = ops[f.producer], ops[f.consumer]
        ops[f.producer] = Operator(conv.index, conv.type, [], [], conv.options, conv.version)
        ops[f.consumer] = Operator(fc.index, fc.type, [*conv.inputs, *(t for t in fc.inputs if t != f.tensor)],
                                   fc.outputs, fc.options, fc.version)
    return Graph(graph.source, graph.tensors, ops, graph.inputs, graph.outputs)
