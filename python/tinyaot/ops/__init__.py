"""Operator registry: TFLite builtin name -> lowering function.

Every module in this package that defines `OPS = {"NAME": lower, ...}` is
registered, so adding an operator is adding one module. A lowering takes a
LowerContext and returns a list of KernelCalls. Operators in VIEW_OPS only
reinterpret their input's shape; the views pass makes their output share the
input's storage, so they cost no code and no memory.
"""

import importlib
import pkgutil

VIEW_OPS = {"RESHAPE", "SQUEEZE", "EXPAND_DIMS"}


def _discover():
    lowerings = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for op_type, lower in getattr(module, "OPS", {}).items():
            if op_type in lowerings:
                raise RuntimeError(f"{op_type} is lowered by two modules")
            lowerings[op_type] = lower
    return lowerings


LOWERINGS = _discover()
