"""Resource variables, CALL_ONCE, IF and WHILE. The frontend has already resolved them
(frontend/resources.py: READ_VARIABLE and ASSIGN_VARIABLE name the variable tensor,
VAR_HANDLE has no outputs left) and inlined the subgraphs CALL_ONCE, IF and WHILE run after
them (frontend/inline.py: Blocks the code generator guards): what remains here are
byte copies."""

from tinyaot.ops.base import KernelCall, TensorRef


def lower_read_variable(ctx):
    variable, out = ctx.input(0), ctx.output()
    return [KernelCall("tinyaot_copy", [TensorRef(out.index), TensorRef(variable.index), out.nbytes])]


def lower_assign_variable(ctx):
    variable, value = ctx.input(0), ctx.input(1)
    return [KernelCall("tinyaot_copy", [TensorRef(variable.index), TensorRef(value.index), value.nbytes])]


def lower_copies(ctx):
    """Input k copied into output k: WHILE's inputs into its loop variables, and SUBGRAPH_OUTPUTS,
    the end of an IF branch or WHILE body (same sizes, distinct tensors: checked when inlined)."""
    return [KernelCall("tinyaot_copy", [TensorRef(out), TensorRef(src), ctx.graph.tensors[out].nbytes])
            for src, out in zip(ctx.op.inputs, ctx.op.outputs)]


def lower_no_code(ctx):
    """VAR_HANDLE (resolved at build time), CALL_ONCE and IF (their subgraphs' steps follow them),
    LOOP_TEST and LOOP_END (where the code generator's loop exits and repeats)."""
    return []


OPS = {"READ_VARIABLE": lower_read_variable, "ASSIGN_VARIABLE": lower_assign_variable,
       "VAR_HANDLE": lower_no_code, "CALL_ONCE": lower_no_code, "IF": lower_no_code, "WHILE": lower_copies}
# Steps the frontend adds, not operators of a file.
INTERNAL_OPS = {"SUBGRAPH_OUTPUTS": lower_copies, "LOOP_TEST": lower_no_code, "LOOP_END": lower_no_code}
