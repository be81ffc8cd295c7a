"""Makes reshape-like operators views: their output shares the input's storage.

Tensors that share storage form a group led by a root tensor. A group may hold
at most one tensor whose storage is fixed from outside the arena (a model input
unless inputs live in the arena, a model output, a constant, a variable); a
view that would join two such tensors (say, a model input reshaped straight
into a model output) stays a copy.
"""

from dataclasses import dataclass

from tinyaot.ops import VIEW_OPS


@dataclass
class Views:
    root: dict  # tensor index -> index of the tensor whose storage it uses
    view_ops: set  # indices of operators that need no code

    def root_of(self, t):
        return self.root.get(t, t)


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
    return Views(root, view_ops)


def _fixed_storage(graph, inputs_in_arena):
    fixed = set(graph.outputs) | (set() if inputs_in_arena else set(graph.inputs))
    fixed |= {t.index for t in graph.tensors if t.is_constant or t.is_variable}
    return fixed
