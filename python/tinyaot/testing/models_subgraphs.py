"""Test models: resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) and
CALL_ONCE, as streaming models keep their state: read the state, update it with the
input, assign it back, every call.

Host-only: the code is byte copies and a flag, the same C on every core.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import test_model

Q8 = dict(scale=0.05, zero_point=-3)


def handle(mb, name):
    """A VAR_HANDLE of resource variable `name` in builder mb (the main graph or a subgraph)."""
    h = mb.tensor(f"{name}_handle{len(mb.tensors)}", "resource", [])
    mb.op("VAR_HANDLE", [], [h], "VarHandleOptions", shared_name=name)
    return h


def running_state_model():
    """Two variables set by an init subgraph (CALL_ONCE), and one that starts at its zero point:
      acc (int8)    += x              -> y
      decay (float) = 0.5 * decay + f -> g
      count (int8, zero point 5, never initialised) += x, read before it is assigned
    """
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 6], **Q8)
    f = mb.input("f", "float32", [1, 6])
    sub, k = mb.subgraph("init")
    sub.op("ASSIGN_VARIABLE", [handle(sub, "acc"), sub.const(
        "acc_init", np.array([[10, -20, 30, 5, 127, -128]], np.int8), **Q8)], [])
    sub.op("ASSIGN_VARIABLE", [handle(sub, "decay"), sub.const(
        "decay_init", np.array([[1.5, -2.0, 0.25, 8.0, -0.125, 3.0]], np.float32))], [])
    mb.op("CALL_ONCE", [], [], "CallOnceOptions", init_subgraph_index=k)

    acc = handle(mb, "acc")
    acc_now = mb.tensor("acc_now", "int8", [1, 6], **Q8)
    mb.op("READ_VARIABLE", [acc], [acc_now])
    y = mb.output(mb.tensor("y", "int8", [1, 6], **Q8))
    mb.op("ADD", [acc_now, x], [y], "AddOptions")
    mb.op("ASSIGN_VARIABLE", [acc, y], [])

    decay = handle(mb, "decay")
    decay_now = mb.tensor("decay_now", "float32", [1, 6])
    mb.op("READ_VARIABLE", [decay], [decay_now])
    half = mb.tensor("half", "float32", [1, 6])
    mb.op("MUL", [decay_now, mb.const("one_half", np.array([0.5], np.float32))], [half], "MulOptions")
    g = mb.output(mb.tensor("g", "float32", [1, 6]))
    mb.op("ADD", [half, f], [g], "AddOptions")
    mb.op("ASSIGN_VARIABLE", [decay, g], [])

    count = handle(mb, "count")
    count_now = mb.tensor("count_now", "int8", [1, 6], scale=0.05, zero_point=5)
    mb.op("READ_VARIABLE", [count], [count_now])
    counted = mb.output(mb.tensor("counted", "int8", [1, 6], scale=0.05, zero_point=5))
    mb.op("ADD", [count_now, x], [counted], "AddOptions")
    mb.op("ASSIGN_VARIABLE", [count, counted], [])
    return mb.build()


@test_model("resource_variables", targets=False)
def resource_variables():
    return running_state_model()


def if_model():
    """IF (cond: a bool input) over an int8 and a float32 value, each branch with its own steps:
      then: y = x + c (int8), g = f * f
      else: y = x (a branch output that is its input: a copy only), g = f + f
    and after the IF, z = y + x reads its output. Not in the catalog: TFLM takes the bool
    input as numpy bool, the catalog's random inputs are the C side's uint8."""
    mb = ModelBuilder()
    cond = mb.input("cond", "bool", [1])
    x = mb.input("x", "int8", [1, 6], **Q8)
    f = mb.input("f", "float32", [1, 6])
    y = mb.tensor("y", "int8", [1, 6], **Q8)
    g = mb.output(mb.tensor("g", "float32", [1, 6]))
    branches = []
    for kind in ("then", "else"):
        sub, k = mb.subgraph(kind)
        branches.append(k)
        a = sub.input("a", "int8", [1, 6], **Q8)
        b = sub.input("b", "float32", [1, 6])
        if kind == "then":
            ya = sub.tensor("ya", "int8", [1, 6], **Q8)
            sub.op("ADD", [a, sub.const("c", np.array([[40, -40, 100, -100, 1, 0]], np.int8), **Q8)], [ya],
                   "AddOptions")
            gb = sub.tensor("gb", "float32", [1, 6])
            sub.op("MUL", [b, b], [gb], "MulOptions")
        else:
            ya = a
            gb = sub.tensor("gb", "float32", [1, 6])
            sub.op("ADD", [b, b], [gb], "AddOptions")
        sub.output(ya)
        sub.output(gb)
    mb.op("IF", [cond, x, f], [y, g], "IfOptions", then_subgraph_index=branches[0], else_subgraph_index=branches[1])
    z = mb.output(mb.tensor("z", "int8", [1, 6], **Q8))
    mb.op("ADD", [y, x], [z], "AddOptions")
    return mb.build()


def while_model(flags=3):
    """WHILE over loop variables acc (float32), f (float32, given back unchanged) and x (int8):
    the body sets acc = acc * 0.5 + f and x = x + x (saturating). It runs as many times as the
    bool inputs go0, go1, ... start with true: they are assigned to resource variables that the
    condition reads (the first) and the body shifts down by one, with false coming in last
    (no comparison operators needed)."""
    mb = ModelBuilder()
    go = [mb.input(f"go{k}", "bool", [1]) for k in range(flags)]
    acc = mb.input("acc", "float32", [1, 6])
    f = mb.input("f", "float32", [1, 6])
    x = mb.input("x", "int8", [1, 6], **Q8)
    for k, t in enumerate(go):
        mb.op("ASSIGN_VARIABLE", [handle(mb, f"flag{k}"), t], [])
    outs = [mb.tensor("acc_out", "float32", [1, 6]), mb.tensor("f_out", "float32", [1, 6]),
            mb.tensor("x_out", "int8", [1, 6], **Q8)]

    cond, cond_k = mb.subgraph("cond")
    for name in ("acc", "f"):
        cond.input(name, "float32", [1, 6])
    cond.input("x", "int8", [1, 6], **Q8)
    going = cond.output(cond.tensor("going", "bool", [1]))
    cond.op("READ_VARIABLE", [handle(cond, "flag0")], [going])

    body, body_k = mb.subgraph("body")
    b_acc, b_f = body.input("acc", "float32", [1, 6]), body.input("f", "float32", [1, 6])
    b_x = body.input("x", "int8", [1, 6], **Q8)
    half = body.tensor("half", "float32", [1, 6])
    body.op("MUL", [b_acc, body.const("one_half", np.array([0.5], np.float32))], [half], "MulOptions")
    new_acc = body.tensor("new_acc", "float32", [1, 6])
    body.op("ADD", [half, b_f], [new_acc], "AddOptions")
    new_x = body.tensor("new_x", "int8", [1, 6], **Q8)
    body.op("ADD", [b_x, b_x], [new_x], "AddOptions")
    for k in range(flags):
        if k + 1 < flags:
            next_flag = body.tensor(f"next{k}", "bool", [1])
            body.op("READ_VARIABLE", [handle(body, f"flag{k + 1}")], [next_flag])
        else:
            next_flag = body.const("stop", np.array([False]))
        body.op("ASSIGN_VARIABLE", [handle(body, f"flag{k}"), next_flag], [])
    for t in (new_acc, b_f, new_x):
        body.output(t)

    mb.op("WHILE", [acc, f, x], outs, "WhileOptions", cond_subgraph_index=cond_k, body_subgraph_index=body_k)
    for t in outs:
        if t != outs[1]:
            mb.output(t)
    return mb.build()
