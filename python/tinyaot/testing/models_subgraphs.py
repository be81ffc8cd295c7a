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
