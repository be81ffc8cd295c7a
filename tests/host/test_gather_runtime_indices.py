"""GATHER, GATHER_ND and EMBEDDING_LOOKUP with indices read at run time (model inputs
here): bit-exact with TFLM for indices in range, and for one out of range run() returns
TINYAOT_ERROR_INDEX_OUT_OF_RANGE where TFLM's Invoke() fails; the next good call works.
One model holds the three operators (one compile)."""

import re

import numpy as np
import pytest

from test_logic_edges import run_both
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import tflm_interpreter
from tinyaot.modelbuilder import ModelBuilder

QA = {"scale": np.float32(0.05), "zero_point": 3}
INDEX_OUT_OF_RANGE = -10  # TINYAOT_ERROR_INDEX_OUT_OF_RANGE


def _model():
    """GATHER on axis 1 of an int8 [2, 5, 3] (batch_dims 0), GATHER_ND of [2, 2] index pairs
    into a float32 [4, 3, 2], EMBEDDING_LOOKUP of 3 int8 rows of a [6, 4] table."""
    rng = np.random.default_rng(11)
    mb = ModelBuilder()
    data = mb.input("data", "int8", [2, 5, 3], **QA)
    positions = mb.input("positions", "int32", [4])
    g = mb.tensor("gathered", "int8", [2, 4, 3], **QA)
    mb.op("GATHER", [data, positions], [g], "GatherOptions", axis=1, batch_dims=0)
    params = mb.const("params", rng.uniform(-3, 3, (4, 3, 2)).astype(np.float32))
    pairs = mb.input("pairs", "int32", [2, 2])
    nd = mb.tensor("nd", "float32", [2, 2])
    mb.op("GATHER_ND", [params, pairs], [nd])
    ids = mb.input("ids", "int32", [3])
    table = mb.const("table", rng.integers(-128, 128, (6, 4)).astype(np.int8), **QA)
    rows = mb.tensor("rows", "int8", [3, 4], **QA)
    mb.op("EMBEDDING_LOOKUP", [ids, table], [rows])
    for t in (g, nd, rows):
        mb.output(t)
    return mb.build()


GOOD = {"positions": [4, 0, 2, 4], "pairs": [[3, 2], [0, 1]], "ids": [5, 0, 3]}
BAD = [("positions", [0, 5, 1, 1]), ("positions", [0, -1, 1, 1]),
       ("pairs", [[0, 0], [3, 3]]),  # flat position 3 x 6 + 3 x 2 = 24: past the 24 values
       ("ids", [0, 6, 1]), ("ids", [-1, 0, 0])]


def test_indices_read_at_run_time(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_model())
    model = compile_model(path, Options("m"))
    emit(model, tmp_path / "out")
    assert "TINYAOT_ERROR_INDEX_OUT_OF_RANGE" in (tmp_path / "out" / "m.h").read_text()
    interp = tflm_interpreter(path)
    data = np.random.default_rng(2).integers(-128, 128, (2, 5, 3)).astype(np.int8)

    def inputs(**change):
        values = {**GOOD, **change}
        return [data, *(np.array(values[k], np.int32) for k in ("positions", "pairs", "ids"))]

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

