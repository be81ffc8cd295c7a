"""Buffers the arena must hold, and the steps during which each one is live.

A step is an operator's position in the execution order. A buffer is live from
the step that writes it to the last step that reads it, both included, so an
operator's inputs and outputs share no bytes, unless the operator's kernel
declares that its output may overlap an input (see Buffer.overlaps).
"""

from dataclasses import dataclass, field

from tinyaot.ops.overlap import EXACT


@dataclass
class Buffer:
    name: str
    size: int  # bytes, before alignment
    first: int
    last: int
    tensor: int | None = None  # root tensor index, None for scratch
    offset: int | None = None  # set by the planner
    # {input buffer's root tensor: D}: this buffer, written by the step at which that input
    # is read for the last time, may share bytes with it if offset - input's offset <= D.
    overlaps: dict = field(default_factory=dict)
    # Those of the overlaps' inputs that this buffer may share bytes with only starting exactly at
    # them (ops/overlap.py EXACT; recorded in overlaps with D = 0, which bounds and searches may use).
    exact: set = field(default_factory=set)

    def live_with(self, other):
        return self.first <= other.last and other.first <= self.last


def offset_words(d):
    """Where a buffer starting d bytes after another is, in words."""
    return "at it" if d == 0 else f"{-d} bytes below it" if d < 0 else f"{d} bytes above it"


def limit_words(limit, exact=False):
    """Where an output must start to overlap its input within a declared limit (<= 0), or
    exactly at it."""
    return "exactly at it" if exact else "at or below it" if limit == 0 else f"at least {-limit} bytes below it"


def arena_buffers(graph, views, scratch_by_step, inputs_in_arena=False, overlaps_by_step=None):
    """Returns Buffers for every arena-resident tensor group and scratch buffer.

    scratch_by_step: {step: [bytes, ...]} from the lowered kernel calls.
    overlaps_by_step: {step: [(input tensor, output tensor, D), ...]}: the step's kernel
    may write the output at most D bytes after the input's start over the input.
    Inputs in the arena are live from step 0: they are written before run().
    """
    external = set(graph.outputs) | (set() if inputs_in_arena else set(graph.inputs))
    spans = {views.root_of(t): (0, 0) for t in graph.inputs if inputs_in_arena}
    spans = {r: span for r, span in spans.items() if r not in external}
    for op in graph.operators:
        for t in list(op.inputs) + list(op.outputs):
            if t < 0:
                continue
            tensor = graph.tensors[t]
            if tensor.is_constant or tensor.is_variable:
                continue
            r = views.root_of(t)
            if r in external:
                continue
            first, last = spans.get(r, (op.index, op.index))
            spans[r] = (min(first, op.index), max(last, op.index))
    buffers = [Buffer(graph.tensors[r].name, graph.tensors[r].nbytes, first, last, tensor=r)
               for r, (first, last) in sorted(spans.items())]
    _allow_overlaps(buffers, graph, views, overlaps_by_step or {})
    for step, sizes in sorted(scratch_by_step.items()):
        for k, size in enumerate(sizes):
            buffers.append(Buffer(f"scratch:op{step}:{k}", size, step, step))
    return buffers


def _allow_overlaps(buffers, graph, views, overlaps_by_step):
    """Records a declared overlap where it is safe for the whole buffer: the input's
    storage is read for the last time at that step, only through declared inputs (not
    also as a view read another way), and the output's is first written there (views
    share their root's storage, so lifetimes are per root). D is capped at 0 (output at
    or below the input), the only case the planner's search relies on."""
    by_root = {b.tensor: b for b in buffers if b.tensor is not None}
    for step, pairs in overlaps_by_step.items():
        declared = {inp for inp, _, _ in pairs}
        readers = [t for t in graph.operators[step].inputs if t >= 0]
        for inp, out, limit in pairs:
            a, b = by_root.get(views.root_of(inp)), by_root.get(views.root_of(out))
            if a is None or b is None or a is b or a.last != step or b.first != step:
                continue
            if inp in views.slices or out in views.slices:
                continue  # a slice of a concatenation: its kernel's limit speaks of the slice alone
            if any(views.root_of(t) == a.tensor and t not in declared for t in readers):
                continue
            if limit == EXACT:
                b.exact.add(a.tensor)
                limit = 0
            b.overlaps[a.tensor] = min(limit, 0, b.overlaps.get(a.tensor, 0))
