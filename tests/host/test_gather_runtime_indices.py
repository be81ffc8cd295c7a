"""GATHER, GATHER_ND and EMBEDDING_LOOKUP with indices read at run time (model inputs
here): bit-exact with TFLM for indices in range, and for one out of range run() returns
TINYAOT_ERROR_INDEX_OUT_OF_RANGE where TFLM's Invoke() fails; the next good call works.
One model holds the three operators (one compile)."""

import re

import pytest

from test_logic_edges import run_both
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import tflm_interpreter
from tinyaot.testing.runtime_indices import BAD, INDEX_OUT_OF_RANGE, runtime_indices_inputs, runtime_indices_model


def test_indices_read_at_run_time(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(runtime_indices_model())
    model = compile_model(path, Options("m"))
    emit(model, tmp_path / "out")
    assert "TINYAOT_ERROR_INDEX_OUT_OF_RANGE" in (tmp_path / "out" / "m.h").read_text()
    interp = tflm_interpreter(path)
    inputs = runtime_indices_inputs
    with HostModel(tmp_path / "out", "m", sanitize=False) as host:
        run_both(interp, host, inputs())
        for name, value in BAD:
            arrays = inputs(**{name: value})
            for i, x in enumerate(arrays):
                interp.set_input(x, i)
                host.set_input(i, x)
            with pytest.raises(RuntimeError):
                interp.invoke()
            with pytest.raises(TinyAotError, match=re.escape(f"run() returned {INDEX_OUT_OF_RANGE}")):
                host.run()
            interp.reset()
        run_both(interp, host, inputs(positions=[1, 1, 3, 0], ids=[2, 2, 1]))

