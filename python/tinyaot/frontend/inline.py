"""Inlines the subgraphs CALL_ONCE, IF and WHILE run into the main subgraph's execution order.

A subgraph's tensors are appended after those read so far and its operators follow
the operator that runs it, inside a Block the code generator guards (a flag for
CALL_ONCE, the condition for IF's two branches, a loop for WHILE). A subgraph reads the
tensors it is given directly (its own input tensors are replaced by them, so their
signatures must match), and a SUBGRAPH_OUTPUTS step at its end copies its outputs where
TFLM's CopySubgraphOutputsToOpOutputs copies them.

WHILE: its outputs hold the loop variables. The WHILE step copies its inputs into them;
then, in a loop, the condition subgraph reads them, a LOOP_TEST step leaves the loop
when its output 0 is false, and the body reads them and ends by copying its outputs
back into them; a LOOP_END step reads them all. Every value carried from one iteration
to the next is in those outputs, live from before the loop to its end at least, so plain
first-write..last-read lifetimes plan the loop correctly. Nested control flow (a CALL_ONCE, IF or WHILE inside another
subgraph) is refused.
"""

import numpy as np

from tinyaot.ir import Block, Operator
from tinyaot.ops import VIEW_OPS

CONTROL_FLOW = {"CALL_ONCE", "IF", "WHILE"}


def inline_init(reader, op, tensors, operators):
    """CALL_ONCE `op`'s init subgraph; returns its Blocks."""
    where = dict(op_index=op.index, op_type=op.type)
    if op.inputs or op.outputs:
        reader.fail("CALL_ONCE takes no inputs and no outputs", **where)
    k = _subgraph_index(reader, op, "init_subgraph_index", "init")
    sub = reader.model.Subgraphs(k)
    if sub.InputsLength() or sub.OutputsLength():
        reader.fail(f"init subgraph {k} has inputs or outputs; CALL_ONCE passes none", **where)
    first = len(operators)
    _append_subgraph(reader, k, tensors, operators, {})
    return [Block("once", first, len(operators) - 1, k, op.index)] if len(operators) > first else []


def inline_if(reader, op, tensors, operators):
    """IF `op`'s then and else subgraphs; returns their Blocks."""
    where = dict(op_index=op.index, op_type=op.type)
    if any(t < 0 for t in op.inputs):
        reader.fail("has an omitted input", **where)
    cond = tensors[op.inputs[0]]
    if cond.dtype != "bool" or cond.num_elements != 1:
        reader.fail(f"condition (input 0) must be one bool, not {cond.dtype} {list(cond.shape)}",
                    tensor=cond.name, **where)
    blocks = []
    for kind in ("then", "else"):
        k = _subgraph_index(reader, op, f"{kind}_subgraph_index", kind)
        sub = reader.model.Subgraphs(k)
        base = len(tensors)
        ins = [int(t) for t in (sub.InputsAsNumpy() if sub.InputsLength() else [])]
        outs = [int(t) for t in (sub.OutputsAsNumpy() if sub.OutputsLength() else [])]
        if len(ins) != len(op.inputs) - 1 or len(outs) != len(op.outputs):
            reader.fail(f"{kind} subgraph {k} takes {len(ins)} inputs and gives {len(outs)} outputs; the IF "
                        f"passes {len(op.inputs) - 1} and takes {len(op.outputs)}", **where)
        if any(not 0 <= t < sub.TensorsLength() for t in ins + outs):
            reader.fail(f"{kind} subgraph {k} lists a tensor it does not have as an input or output", **where)
        first = len(operators)
        _append_subgraph(reader, k, tensors, operators, {base + t: op.inputs[1 + j] for j, t in enumerate(ins)})
        for j, t in enumerate(ins):
            _expect_same(reader, tensors[base + t], tensors[op.inputs[1 + j]],
                         f"{kind} subgraph {k}'s input {j}", f"IF input {1 + j}", where, quant=True)
        branch_outs = [op.inputs[1 + ins.index(t)] if t in ins else base + t for t in outs]
        for j, t in enumerate(branch_outs):
            _expect_same(reader, tensors[t], tensors[op.outputs[j]], f"{kind} subgraph {k}'s output {j}",
                         f"IF output {j}", where)
        if outs:
            _append_internal(operators, "SUBGRAPH_OUTPUTS", branch_outs, list(op.outputs), k)
        if len(operators) > first:
            blocks.append(Block(kind, first, len(operators) - 1, k, op.index, cond=cond.index))
    op.outputs = []  # the branches' SUBGRAPH_OUTPUTS write them
    return blocks


def inline_while(reader, op, tensors, operators):
    """WHILE `op`'s condition and body subgraphs, as one loop Block (see the module doc)."""
    where = dict(op_index=op.index, op_type=op.type)
    n = len(op.inputs)
    if any(t < 0 for t in op.inputs) or len(op.outputs) != n:
        reader.fail(f"needs as many outputs as inputs, none omitted; has {n} inputs and {len(op.outputs)} outputs",
                    **where)
    for j, (i, o) in enumerate(zip(op.inputs, op.outputs)):
        _expect_same(reader, tensors[i], tensors[o], f"input {j}", f"output {j}", where)
    first = len(operators)
    loop_vars = dict(enumerate(op.outputs))
    for kind in ("cond", "body"):
        k = _subgraph_index(reader, op, f"{kind}_subgraph_index", kind)
        sub = reader.model.Subgraphs(k)
        ins = [int(t) for t in (sub.InputsAsNumpy() if sub.InputsLength() else [])]
        outs = [int(t) for t in (sub.OutputsAsNumpy() if sub.OutputsLength() else [])]
        wanted = (n, n) if kind == "body" else (n, len(outs) or 1)
        if (len(ins), len(outs)) != wanted:
            reader.fail(f"{kind} subgraph {k} takes {len(ins)} inputs and gives {len(outs)} outputs; the WHILE "
                        f"passes {n} and takes {wanted[1]}", **where)
        if any(not 0 <= t < sub.TensorsLength() for t in ins + outs):
            reader.fail(f"{kind} subgraph {k} lists a tensor it does not have as an input or output", **where)
        base, base_op = len(tensors), len(operators)
        _append_subgraph(reader, k, tensors, operators, {base + t: loop_vars[j] for j, t in enumerate(ins)})
        for j, t in enumerate(ins):
            _expect_same(reader, tensors[base + t], tensors[loop_vars[j]], f"{kind} subgraph {k}'s input {j}",
                         f"WHILE output {j}", where, quant=True)
        results = [loop_vars[ins.index(t)] if t in ins else base + t for t in outs]
        if kind == "cond":
            test = tensors[results[0]]
            if test.dtype != "bool" or test.num_elements != 1:
                reader.fail(f"cond subgraph {k}'s output 0 must be one bool, not {test.dtype} {list(test.shape)}",
                            tensor=test.name, **where)
            split = _append_internal(operators, "LOOP_TEST", [test.index], [], k)
            continue
        made_by = {t: inner for inner in operators[base_op:] for t in inner.outputs}
        for j, t in enumerate(results):
            _expect_same(reader, tensors[t], tensors[loop_vars[j]], f"body subgraph {k}'s output {j}",
                         f"WHILE output {j}", where)
            while t in made_by and made_by[t].type in VIEW_OPS:  # may share the storage of its input
                t = made_by[t].inputs[0]
            if t in op.outputs and t != loop_vars[j]:
                # Copied in order, one would overwrite what a later one reads.
                reader.fail(f"body subgraph {k} gives its input {op.outputs.index(t)} (or a reshape of it) as "
                            f"output {j}; only an input given back at its own position is supported", **where)
        moved = [(t, loop_vars[j]) for j, t in enumerate(results) if t != loop_vars[j]]
        if moved:
            _append_internal(operators, "SUBGRAPH_OUTPUTS", [t for t, _ in moved], [o for _, o in moved], k)
    # Reads every loop variable at the loop's end: each stays live over the whole loop, those the
    # body gives back unchanged too.
    _append_internal(operators, "LOOP_END", list(op.outputs), [], k)
    return [Block("loop", first, len(operators) - 1, k, op.index, cond=test.index, test=split)]


def _append_internal(operators, op_type, inputs, outputs, k):
    """Appends a step the inlining needs (ops/subgraphs.py INTERNAL_OPS); returns its index."""
    operators.append(Operator(len(operators), op_type, inputs, outputs, origin=(k, None)))
    return len(operators) - 1


def _subgraph_index(reader, op, option, what):
    where = dict(op_index=op.index, op_type=op.type)
    k = int(op.options.get(option, 0))
    count = reader.model.SubgraphsLength()
    if not 0 < k < count:
        reader.fail(f"{what} subgraph index {k} is out of range (the model has subgraphs 0..{count - 1}, "
                    "and 0 is the main one)", **where)
    if op.origin[0] != 0:
        reader.fail(f"a {op.type} inside another subgraph is not supported", **where)
    return k


def _append_subgraph(reader, k, tensors, operators, aliases):
    """Appends subgraph k's tensors and operators; `aliases` maps its (renumbered) tensors
    to those that stand in for them."""
    sub = reader.model.Subgraphs(k)
    base = len(tensors)
    reader.intermediate_only |= {base + i for i in reader.intermediate_only_tensors(sub)}
    tensors += [reader.tensor_of_users(sub, i, base) for i in range(sub.TensorsLength())]
    for i in range(sub.OperatorsLength()):
        inner = reader.operator(sub, i, tensors, origin=(k, i), index=len(operators), base=base)
        if inner.type in CONTROL_FLOW:
            reader.fail(f"a {inner.type} inside another subgraph is not supported",
                        op_index=inner.index, op_type=inner.type)
        inner.inputs = [aliases.get(t, t) for t in inner.inputs]
        inner.outputs = [aliases.get(t, t) for t in inner.outputs]
        operators.append(inner)


def _expect_same(reader, got, want, what, other, where, quant=False):
    """The branch's tensor `got` must hold what `want` holds (with quant: be read as it too)."""
    same = got.dtype == want.dtype and got.shape == want.shape
    if quant and same:
        same = (got.quant is None) == (want.quant is None) and (got.quant is None or (
            np.array_equal(got.quant.scale, want.quant.scale)
            and np.array_equal(got.quant.zero_point, want.quant.zero_point)))
    if not same:
        reader.fail(f"mismatched branch signature: {what} is {_describe(got)}, {other} is {_describe(want)}",
                    tensor=got.name, **where)


def _describe(t):
    q = f" (scale {float(t.scale):g}, zero point {t.zero_point})" if t.quant is not None else ""
    return f"{t.dtype} {list(t.shape)}{q}"
