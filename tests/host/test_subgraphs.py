"""Resource variables, CALL_ONCE, IF and WHILE: state kept across calls, and reset() giving a
fresh start (the next run() matches a new TFLM interpreter: CALL_ONCE's init subgraph runs
again, where TFLM's own Reset() only zeroes the variables), both IF branches, WHILE loops
of 0 to 3 iterations, under ASan/UBSan; and the models tinyaot refuses, each with one line
naming the operator or tensor."""

from pathlib import Path

import numpy as np
import pytest

from sanitized import run_sanitized
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import random_inputs, tflm_interpreter
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.models_subgraphs import Q8, handle, if_model, running_state_model, while_model

# Calls, then reset() (against a new TFLM interpreter), then calls.
SEQUENCE = (4, 3)


def mismatches_around_reset(path, out_dir, sanitize):
    """Runs TFLM and tinyaot through SEQUENCE on the same random inputs; returns the differing outputs."""
    model = compile_model(path, Options("m"))
    emit(model, out_dir)
    tflm = tflm_interpreter(path)
    rng = np.random.default_rng(7)
    found = []
    with HostModel(out_dir, "m", sanitize=sanitize) as host:
        for part, calls in enumerate(SEQUENCE):
            if part:
                tflm = tflm_interpreter(path)
                host.reset()
            for call in range(calls):
                inputs = random_inputs(host.inputs, rng)
                for i, x in enumerate(inputs):
                    tflm.set_input(x, i)
                    host.set_input(i, x)
                tflm.invoke()
                host.run()
                for i in range(len(host.outputs)):
                    if tflm.get_output(i).tobytes() != np.asarray(host.get_output(i)).tobytes():
                        found.append((part, call, i))
    return found


def check_around_reset(path):
    found = mismatches_around_reset(Path(path), Path(path).parent / "out", sanitize=True)
    assert not found, (path, found)


def test_state_if_and_while_match_tflm_under_sanitizers(tmp_path):
    """int8 and float32 variables set by an init subgraph, and one that starts at its zero point;
    an IF over int8 and float32 values, both branches taken over the calls; a WHILE over int8
    and float32 loop variables whose condition and body read and assign resource variables."""
    paths = []
    for name, build in (("state", running_state_model), ("if", if_model), ("while", while_model)):
        (tmp_path / name).mkdir()
        path = tmp_path / name / "m.tflite"
        path.write_bytes(build())
        paths.append(str(path))
    run_sanitized("test_subgraphs", "check_around_reset", [dict(path=p) for p in paths])


def test_variables_are_state_beside_the_arena(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(running_state_model())
    model = compile_model(path, Options("m"))
    variables = {model.graph.tensors[t].name: model.graph.tensors[t].nbytes for t in model.state}
    assert variables == {"acc": 6, "decay": 24, "count": 6}
    assert model.state_size == 16 + 32 + 16  # each aligned to 16
    assert not any(model.graph.tensors[b.tensor].is_variable for b in model.buffers if b.tensor is not None)


def _model(tmp_path, build):
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 6], **Q8)
    build(mb, x)
    path = tmp_path / "bad.tflite"
    path.write_bytes(mb.build())
    return path


def _read_add(mb, x, name="v", shape=(1, 6)):
    """y = variable `name` (read as `shape`) + x."""
    now = mb.tensor("now", "int8", list(shape), **Q8)
    mb.op("READ_VARIABLE", [handle(mb, name)], [now])
    y = mb.output(mb.tensor("y", "int8", [1, 6], **Q8))
    mb.op("ADD", [now, x], [y], "AddOptions")
    return y


def _never_assigned(mb, x):
    _read_add(mb, x)


def _init_out_of_range(mb, x):
    mb.op("CALL_ONCE", [], [], "CallOnceOptions", init_subgraph_index=3)
    y = _read_add(mb, x)
    mb.op("ASSIGN_VARIABLE", [handle(mb, "v"), y], [])


def _size_mismatch(mb, x):
    wide = mb.tensor("wide", "int8", [1, 12], **Q8)
    mb.op("CONCATENATION", [x, x], [wide], "ConcatenationOptions", axis=1)
    mb.op("ASSIGN_VARIABLE", [handle(mb, "v"), wide], [])
    _read_add(mb, x)


def _not_a_handle(mb, x):
    y = mb.output(mb.tensor("y", "int8", [1, 6], **Q8))
    mb.op("READ_VARIABLE", [x], [y])


def _if(mb, x, cond_dtype="bool", branch_scale=Q8["scale"], else_index=None):
    """y = IF(cond, x) with both branches passing x through (branch input scale `branch_scale`)."""
    cond = mb.input("cond", cond_dtype, [1])
    k = None
    for kind in ("then", "else"):
        sub, k = mb.subgraph(kind)
        sub.output(sub.input("a", "int8", [1, 6], scale=branch_scale, zero_point=Q8["zero_point"]))
    y = mb.output(mb.tensor("y", "int8", [1, 6], **Q8))
    mb.op("IF", [cond, x], [y], "IfOptions", then_subgraph_index=k - 1, else_subgraph_index=else_index or k)


def _while(mb, x, cond_dtype="bool", swap=False):
    """x_out, _ = WHILE(x, x): the condition gives a constant, the body its inputs back (swapped,
    or swapped after reshaping input 1 twice)."""
    outs = [mb.output(mb.tensor(f"o{j}", "int8", [1, 6], **Q8)) for j in range(2)]
    cond, cond_k = mb.subgraph("cond")
    for j in range(2):
        cond.input(f"c{j}", "int8", [1, 6], **Q8)
    cond.output(cond.const("go", np.array([False]) if cond_dtype == "bool" else np.array([1], np.int8)))
    body, body_k = mb.subgraph("body")
    ins = [body.input(f"b{j}", "int8", [1, 6], **Q8) for j in range(2)]
    if swap == "reshape":  # a view of input 1, sharing its storage
        ins[1], flat = body.tensor("flat", "int8", [6], **Q8), ins[1]
        body.op("RESHAPE", [flat, body.const("shape", np.array([6], np.int32))], [ins[1]], "ReshapeOptions",
                new_shape=[6])
        ins[1], flat = body.tensor("back", "int8", [1, 6], **Q8), ins[1]
        body.op("RESHAPE", [flat, body.const("shape2", np.array([1, 6], np.int32))], [ins[1]], "ReshapeOptions",
                new_shape=[1, 6])
    for t in (ins[::-1] if swap else ins):
        body.output(t)
    mb.op("WHILE", [x, x], outs, "WhileOptions", cond_subgraph_index=cond_k, body_subgraph_index=body_k)


@pytest.mark.parametrize("build,message", [
    (lambda mb, x: _while(mb, x, cond_dtype="int8"),
     "operator 0 (WHILE): tensor 'go': cond subgraph 1's output 0 must be one bool, not int8 [1]"),
    (lambda mb, x: _while(mb, x, swap=True),
     "operator 0 (WHILE): body subgraph 2 gives its input 1 (or a reshape of it) as output 0; only an input "
     "given back at its own position is supported"),
    (lambda mb, x: _while(mb, x, swap="reshape"),
     "operator 0 (WHILE): body subgraph 2 gives its input 1 (or a reshape of it) as output 0"),
    (lambda mb, x: _if(mb, x, cond_dtype="int8"),
     "operator 0 (IF): tensor 'cond': condition (input 0) must be one bool, not int8 [1]"),
    (lambda mb, x: _if(mb, x, branch_scale=0.1),
     "operator 0 (IF): tensor 'a': mismatched branch signature: then subgraph 1's input 0 is int8 [1, 6] "
     "(scale 0.1, zero point -3), IF input 1 is int8 [1, 6] (scale 0.05, zero point -3)"),
    (lambda mb, x: _if(mb, x, else_index=7),
     "operator 0 (IF): else subgraph index 7 is out of range (the model has subgraphs 0..2"),
    (_never_assigned, "operator 1 (READ_VARIABLE): reads resource variable 'v', which no ASSIGN_VARIABLE assigns"),
    (_init_out_of_range, "operator 0 (CALL_ONCE): init subgraph index 3 is out of range (the model has subgraphs "
                         "0..0"),
    (_size_mismatch, "operator 4 (READ_VARIABLE): tensor 'now': int8 [1, 6] (6 bytes) does not fit resource "
                     "variable 'v' (12 bytes: int8 [1, 12]"),
    (_not_a_handle, "operator 0 (READ_VARIABLE): tensor 'x': input 0 is not a resource handle made by a VAR_HANDLE"),
])
def test_bad_models_are_refused_in_one_line(tmp_path, build, message):
    with pytest.raises(TinyAotError) as e:
        compile_model(_model(tmp_path, build), Options("m"))
    assert message in str(e.value) and "\n" not in str(e.value)
