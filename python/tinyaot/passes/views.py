"""Makes reshape-like operators views: their output shares the input's storage.

Tensors that share storage form a group led by a root tensor. A group may hold
at most one tensor whose storage is fixed from outside the arena (a model input
unless inputs live in the arena, a model output, a constant, a variable); a
view that would join two such tensors (say, a model input reshaped straight
into a model output) stays a copy.

A CONCATENATION whose inputs are contiguous blocks of its output (every dimension
before the axis is 1) is a view too when its output and inputs live in the arena and
belong to no other group: each input becomes a slice of the output, at a byte offset,
so the operators producing the inputs write straight into the output.
"""

from dataclasses import dataclass, field

import numpy as np

from tinyaot.ops import VIEW_OPS


@dataclass
class Views:
    root: dict  # tensor index -> index of the tensor whose storage it uses
    view_ops: set  # indices of operators that need no code
    slices: dict = field(default_factory=dict)  # tensor index -> byte offset in its root (concatenation)

    def root_of(self, t):
        return self.root.get(t, t)

    def offset_of(self, t):
        return self.slices.get(t, 0)


def find_views(graph, inputs_in_arena=False):
    fixed = _fixed_storage(graph, inputs_in_arena)
    root, members, view_ops = {}, {}, set()
    for op in graph.operators:
        if op.type not in VIEW_OPS or len(op.outputs) != 1 or not op.inputs:
            continue
        src, dst = op.inputs[0], op.outputs[0]
        if graph.tensors[src].nbytes != graph.tensors[dst].nbytes or \
                graph.tensors[src].dtype != graph.tensors[dst].dtype:
            continue  # a malformed reshape: its lowering reports it
        r = root.get(src, src)
        group = members.get(r, [r])
        if sum(1 for t in group + [dst] if t in fixed) > 1:
            continue
        group.append(dst)
        members[r] = group
        root[dst] = r
        view_ops.add(op.index)
    # The root must be the group's fixed-storage tensor if it has one.
    for r, group in members.items():
        anchor = next((t for t in group if t in fixed), r)
        for t in group:
            root[t] = anchor
        root.pop(anchor, None)
    views = Views(root, view_ops)
    for op in graph.operators:
        if op.type == "CONCATENATION":
            _concatenation_view(graph, op, fixed, views)
    return views


def _concatenation_view(graph, op, fixed, views):
    """Makes op's inputs slices of its output where that is safe (see the module doc);
    the lowering still validates the operator."""
    if len(op.outputs) != 1 or op.options.get("fused_activation_function", 0):
        return
    out = op.outputs[0]
    ins = list(op.inputs)
    tensor = graph.tensors[out]
    rank = len(tensor.shape)
    axis = int(op.options.get("axis", 0))
    if not ins or rank == 0 or not -rank <= axis < rank:
        return
    axis += rank if axis < 0 else 0
    grouped = set(views.root) | set(views.root.values())
    # The output may lead a group of reshapes (none fixed, or it would not lead it).
    if np.prod(tensor.shape[:axis], dtype=np.int64) != 1 or out in fixed or out in views.root:
        return
    if len(set(ins)) != len(ins) or any(t < 0 or t in fixed or t in grouped for t in ins):
        return
    if any(graph.tensors[t].dtype != tensor.dtype for t in ins) or \
            sum(graph.tensors[t].nbytes for t in ins) != tensor.nbytes:
        return  # a malformed concatenation: its lowering reports it
    offset = 0
    for t in ins:
        views.root[t] = out
        views.slices[t] = offset
        offset += graph.tensors[t].nbytes
    views.view_ops.add(op.index)


def _fixed_storage(graph, inputs_in_arena):
    fixed = set(graph.outputs) | (set() if inputs_in_arena else set(graph.inputs))
    fixed |= {t.index for t in graph.tensors if t.is_constant or t.is_variable}
    # A WHILE's loop variables: the body's last step copies into them, so none may be a slice
    # of a concatenation whose other inputs that step would then read changed.
    fixed |= {t for b in graph.blocks if b.kind == "loop" for t in graph.operators[b.owner].outputs}
    return fixed
