"""CONCATENATION as a view: where its inputs are contiguous blocks of its output, the
operators producing them write straight into it (bit-exactness: test_models_host's
concat_in_place)."""

import numpy as np
import pytest

from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.models_basic import fc


def kernels(model):
    return {op.index: (op.type, [c.kernel for c in calls]) for op, calls in model.calls}


def test_rows_of_one_become_slices_of_the_output(own_model):
    model = compile_model(own_model("concat_in_place"), Options("m"))
    ops = kernels(model)
    assert ops[2] == ("CONCATENATION", []) and model.backends[2] == ("view", None)
    # [2, 16] rows side by side in [2, 32]: not contiguous blocks, copied.
    assert ops[6] == ("CONCATENATION", ["tinyaot_concat", "tinyaot_concat"])
    op = model.graph.operators[2]
    a, b, c = (model.graph.tensors[t] for t in (*op.inputs, op.outputs[0]))
    assert model.views.root_of(a.index) == model.views.root_of(b.index) == c.index
    assert (model.views.offset_of(a.index), model.views.offset_of(b.index)) == (0, a.nbytes)
    # One buffer for c and its two parts, live from the first producer on.
    (buffer,) = [x for x in model.buffers if x.tensor == c.index]
    assert (buffer.size, buffer.first) == (c.nbytes, 0)
    assert not any(x.tensor in (a.index, b.index) for x in model.buffers)


def _two_branches(output_concat, b_zero_point=0):
    rng = np.random.default_rng(5)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 8], scale=0.05, zero_point=0)
    a = fc(mb, rng, x, 0.05, 4, 8, [1, 4], 0.1, 0)
    b = fc(mb, rng, x, 0.05, 4, 8, [1, 4], 0.1, b_zero_point)
    c = mb.tensor("c", "int8", [1, 8], scale=0.1, zero_point=0)
    mb.op("CONCATENATION", [a, b], [c], "ConcatenationOptions", axis=1)
    mb.output(c if output_concat else fc(mb, rng, c, 0.1, 2, 8, [1, 2], 0.2, 0))
    return mb.build()


def test_a_model_output_stays_a_copy(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_branches(output_concat=True))
    model = compile_model(path, Options("m"))  # the caller's output buffer: copied into
    assert kernels(model)[2] == ("CONCATENATION", ["tinyaot_concat", "tinyaot_concat"])
    path.write_bytes(_two_branches(output_concat=False))
    assert kernels(compile_model(path, Options("m")))[2] == ("CONCATENATION", [])


def test_a_view_is_still_checked(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_branches(output_concat=False, b_zero_point=3))
    with pytest.raises(TinyAotError, match=r"operator 2 \(CONCATENATION\): tensor 'fc\d+': input 1 quantization "
                                           r"\(scale 0.1, zero point 3\) differs from the output's"):
        compile_model(path, Options("m"))
