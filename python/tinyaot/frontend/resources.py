"""Resource variables resolved at build time: each (container, shared_name) a VAR_HANDLE names
becomes one variable tensor (static state beside the arena, kept between runs), which
READ_VARIABLE and ASSIGN_VARIABLE then name directly; VAR_HANDLE itself leaves no code.

As TFLM (micro_resource_variable.cc): a variable's size and initial value come from the
first ASSIGN_VARIABLE in preparation order (subgraph by subgraph), whose value tensor's
bytes it holds; it starts, and restarts on reset, as every byte = that tensor's zero point
(0 when unquantized); reads and assignments copy its bytes.
"""

from tinyaot.ir import Tensor


def resolve_resources(tensors, operators, fail):
    """Rewrites the operators in place and appends a variable tensor per resource to `tensors`;
    fail(message, **where) reports a model that TFLM would not run as written."""
    handles = {}  # resource tensor index -> (container, shared_name)
    for op in operators:
        if op.type == "VAR_HANDLE":
            where = dict(op_index=op.index, op_type=op.type)
            if op.inputs or len(op.outputs) != 1:
                fail(f"needs no inputs and 1 output, has {len(op.inputs)} and {len(op.outputs)}", **where)
            if tensors[op.outputs[0]].dtype != "resource":
                fail(f"output is {tensors[op.outputs[0]].dtype}, not a resource handle",
                     tensor=tensors[op.outputs[0]].name, **where)
            handles[op.outputs[0]] = tuple(_text(op.options.get(k)) for k in ("container", "shared_name"))
            op.outputs = []  # resolved: nothing to compute

    accesses = [op for op in operators if op.type in ("READ_VARIABLE", "ASSIGN_VARIABLE")]
    for op in accesses:
        where = dict(op_index=op.index, op_type=op.type)
        want = (1, 1) if op.type == "READ_VARIABLE" else (2, 0)
        if (len(op.inputs), len(op.outputs)) != want:
            fail(f"needs {want[0]} input{'s' * (want[0] > 1)} and {want[1]} output{'s' * (want[1] != 1)}, has "
                 f"{len(op.inputs)} and {len(op.outputs)}", **where)
        if op.inputs[0] not in handles:
            fail("input 0 is not a resource handle made by a VAR_HANDLE", tensor=tensors[op.inputs[0]].name, **where)

    variables = {}  # (container, shared_name) -> variable tensor index
    for op in sorted((op for op in accesses if op.type == "ASSIGN_VARIABLE"), key=lambda op: op.origin):
        key = handles[op.inputs[0]]
        if key not in variables:
            variables[key] = _variable(tensors, key, tensors[op.inputs[1]], op, fail)
    for op in accesses:
        key = handles[op.inputs[0]]
        where = dict(op_index=op.index, op_type=op.type)
        if key not in variables:
            fail(f"reads resource variable '{key[1]}', which no ASSIGN_VARIABLE assigns: TFLM gives a "
                 "variable its storage at its first assignment", **where)
        variable = tensors[variables[key]]
        value = tensors[op.outputs[0] if op.type == "READ_VARIABLE" else op.inputs[1]]
        if value.nbytes != variable.nbytes:
            fail(f"{value.dtype} {list(value.shape)} ({value.nbytes} bytes) does not fit resource variable "
                 f"'{key[1]}' ({variable.nbytes} bytes: {variable.dtype} {list(variable.shape)}, from its first "
                 "assignment)", tensor=value.name, **where)
        op.inputs[0] = variable.index


def _variable(tensors, key, value, op, fail):
    """Appends the variable tensor of resource `key`, shaped as its first assigned `value`."""
    zero_point = value.zero_point
    if value.dtype != "int8" and zero_point & 0xFF:
        # TFLM fills with the zero point's low byte whatever the dtype; only int8 state starts so here.
        fail(f"resource variable '{key[1]}' of {value.dtype} with zero point {zero_point} is not supported "
             f"(TFLM would start it at bytes of value 0x{zero_point & 0xFF:02x})",
             tensor=value.name, op_index=op.index, op_type=op.type)
    if value.dtype == "resource":
        fail(f"a resource variable holding {value.dtype} is not supported", tensor=value.name,
             op_index=op.index, op_type=op.type)
    tensors.append(Tensor(len(tensors), key[1] or "resource_variable", value.dtype, value.shape, quant=value.quant,
                          is_variable=True))
    return len(tensors) - 1


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else (value or "")
