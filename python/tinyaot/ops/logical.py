"""LOGICAL_AND, LOGICAL_OR (with TFLite's broadcasting) and LOGICAL_NOT over bool tensors,
TFLM's logical.cc and elementwise.cc (kernels/tinyaot_logical.h)."""

from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.compare import binary_bool_walk
from tinyaot.ops.math_f32 import unary


def _lower_binary(ctx, any_true):
    a, b, out, walk = binary_bool_walk(ctx, ("bool",))
    params = ParamStruct("struct tinyaot_logical_params", {
        "size": out.num_elements, "rank": len(walk[0].values), "any": int(any_true)})
    return [KernelCall("tinyaot_logical", [params, *walk, TensorRef(a.index), TensorRef(b.index),
                                           TensorRef(out.index)])]


def _lower_not(ctx):
    inp, out = unary(ctx, "bool")
    return [KernelCall("tinyaot_logical_not", [inp.num_elements, TensorRef(inp.index), TensorRef(out.index)],
                       header="tinyaot_logical.h")]


OPS = {"LOGICAL_AND": lambda ctx: _lower_binary(ctx, any_true=False),
       "LOGICAL_OR": lambda ctx: _lower_binary(ctx, any_true=True),
       "LOGICAL_NOT": _lower_not}
