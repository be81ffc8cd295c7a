"""Resource variables and CALL_ONCE. The frontend has already resolved them
(frontend/resources.py: READ_VARIABLE and ASSIGN_VARIABLE name the variable tensor,
VAR_HANDLE has no outputs left) and inlined CALL_ONCE's init subgraph after it (a
Block the code generator guards): what remains here are byte copies."""

from tinyaot.ops.base import KernelCall, TensorRef


def lower_read_variable(ctx):
    variable, out = ctx.input(0), ctx.output()
    return [KernelCall("tinyaot_copy", [TensorRef(out.index), TensorRef(variable.index), out.nbytes])]


def lower_assign_variable(ctx):
    variable, value = ctx.input(0), ctx.input(1)
    return [KernelCall("tinyaot_copy", [TensorRef(variable.index), TensorRef(value.index), value.nbytes])]


def lower_no_code(ctx):
    """VAR_HANDLE (resolved at build time) and CALL_ONCE (its subgraph's steps follow it)."""
    return []


OPS = {"READ_VARIABLE": lower_read_variable, "ASSIGN_VARIABLE": lower_assign_variable,
       "VAR_HANDLE": lower_no_code, "CALL_ONCE": lower_no_code}
