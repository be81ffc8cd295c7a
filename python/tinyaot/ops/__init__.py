"""Operator registry: TFLite builtin name -> lowering function.

Each lowering takes a LowerContext and returns a list of KernelCalls. Operators
in VIEW_OPS only reinterpret their input's shape; the views pass makes their
output share the input's storage, so they cost no code and no memory.
"""

from tinyaot.ops import fully_connected

LOWERINGS = {
    "FULLY_CONNECTED": fully_connected.lower,
}

VIEW_OPS = {"RESHAPE", "SQUEEZE", "EXPAND_DIMS"}
