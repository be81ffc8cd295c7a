"""The model of GATHER, GATHER_ND and EMBEDDING_LOOKUP with indices that are model inputs, and
the indices the tests feed it: in range (bit-exact with TFLM) and out of range (run() returns
TINYAOT_ERROR_INDEX_OUT_OF_RANGE where TFLM's Invoke() fails). Not in the catalog: random
indices are out of range almost always, so the catalog's random-input checks cannot run it.
Used by tests/host/test_gather_runtime_indices.py and, on qemu_cortex_m3,
tests/target/test_index_error_on_target.py."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder

QA = {"scale": np.float32(0.05), "zero_point": 3}
INDEX_OUT_OF_RANGE = -10  # TINYAOT_ERROR_INDEX_OUT_OF_RANGE

GOOD = {"positions": [4, 0, 2, 4], "pairs": [[3, 2], [0, 1]], "ids": [5, 0, 3]}
BAD = [("positions", [0, 5, 1, 1]), ("positions", [0, -1, 1, 1]),
       ("pairs", [[0, 0], [3, 3]]),  # flat position 3 x 6 + 3 x 2 = 24: past the 24 values
       ("ids", [0, 6, 1]), ("ids", [-1, 0, 0])]


def runtime_indices_model():
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


def runtime_indices_inputs(**change):
    """The model's inputs: a fixed int8 `data` and the GOOD indices but those in `change`."""
    data = np.random.default_rng(2).integers(-128, 128, (2, 5, 3)).astype(np.int8)
    values = {**GOOD, **change}
    return [data, *(np.array(values[k], np.int32) for k in ("positions", "pairs", "ids"))]
