"""Indices read at run time on a board (qemu_cortex_m3, one small firmware): GATHER,
GATHER_ND and EMBEDDING_LOOKUP bit-exact with TFLM for indices in range; for each index out
of range run() returns TINYAOT_ERROR_INDEX_OUT_OF_RANGE (where TFLM's Invoke() fails), and
the next good call is right again. tests/host/test_gather_runtime_indices.py: the same on
the host."""

import pytest

from tinyaot.host.oracle import tflm_interpreter
from tinyaot.testing.runtime_indices import BAD, INDEX_OUT_OF_RANGE, runtime_indices_inputs, runtime_indices_model

BOARD = "qemu_cortex_m3"


def _tflm_outputs(interp, inputs):
    for i, x in enumerate(inputs):
        interp.set_input(x, i)
    interp.invoke()
    return [interp.get_output(k) for k in range(3)]


def _assert_bit_exact(got, expected):
    for k, (g, e) in enumerate(zip(got, expected)):
        assert g.dtype == e.dtype and g.tobytes() == e.tobytes(), f"output {k}: {g.reshape(-1)} != TFLM's {e}"


def test_index_out_of_range_on_m3(target, boards, tmp_path):
    if BOARD not in boards:
        pytest.skip(f"{BOARD} is not among the selected boards")
    path = tmp_path / "runtime_indices.tflite"
    path.write_bytes(runtime_indices_model())
    fw = target.firmware(BOARD, name="runtime_indices", model=path)
    interp = tflm_interpreter(path)
    with target.open(fw) as dev:
        got, _ = dev.invoke(runtime_indices_inputs())
        _assert_bit_exact(got, _tflm_outputs(interp, runtime_indices_inputs()))
        for name, value in BAD:
            for i, x in enumerate(runtime_indices_inputs(**{name: value})):
                dev.set_input(i, x)
            assert dev.run().status == INDEX_OUT_OF_RANGE, f"{name} {value}"
        again = runtime_indices_inputs(positions=[1, 1, 3, 0], ids=[2, 2, 1])
        got, _ = dev.invoke(again)
        _assert_bit_exact(got, _tflm_outputs(interp, again))
