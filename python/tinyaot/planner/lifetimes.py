"""Buffers the arena must hold, and the steps during which each one is live.

A step is an operator's position in the execution order. A buffer is live from
the step that writes it to the last step that reads it, both included, so an
operator's inputs and outputs never share bytes.
"""

from dataclasses import dataclass


@dataclass
class Buffer:
    name: str
    size: int  # bytes, before alignment
    first: int
    last: int
    tensor: int | None = None  # root tensor index, None for scratch
    offset: int | None = None  # set by the planner

    def live_with(self, other):
        return self.first <= other.last and other.first <= self.last


def arena_buffers(graph, views, scratch_by_step, inputs_in_arena=False):
    """Returns Buffers for every arena-resident tensor group and scratch buffer.

    scratch_by_step: {step: [bytes, ...]} from the lowered kernel calls.
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
    for step, sizes in sorted(scratch_by_step.items()):
        for k, size in enumerate(sizes):
            buffers.append(Buffer(f"scratch:op{step}:{k}", size, step, step))
    return buffers
