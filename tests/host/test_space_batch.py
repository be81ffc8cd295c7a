"""SPACE_TO_BATCH_ND's padding, which TFLM's micro kernel fills with a byte it never sets
(no oracle there): checked against the operator's definition in numpy, with the padding
at the output's zero point (0.0 for float32). The values outside the padding are compared
with TFLM by the catalog model space_batch."""

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import HostModel
from tinyaot.modelbuilder import ModelBuilder


def space_to_batch(x, block, paddings, pad_value):
    """The definition (TensorFlow's): pad, split each spatial axis into (blocks, block), move
    the block offsets in front of the batch."""
    padded = np.pad(x, [(0, 0), *paddings, (0, 0)], constant_values=pad_value)
    n, h, w, c = padded.shape
    (bh, bw) = block
    split = padded.reshape(n, h // bh, bh, w // bw, bw, c)
    return split.transpose(2, 4, 0, 1, 3, 5).reshape(bh * bw * n, h // bh, w // bw, c)


@pytest.mark.parametrize("dtype,zero_point", [("int8", -7), ("int8", 0), ("float32", 0)])
def test_padding_holds_the_zero_point(tmp_path, dtype, zero_point):
    block, paddings = (2, 3), [(1, 2), (2, 1)]
    q = dict(scale=0.1, zero_point=zero_point) if dtype == "int8" else {}
    mb = ModelBuilder()
    x = mb.input("x", dtype, [2, 5, 3, 2], **q)
    y = mb.output(mb.tensor("y", dtype, [12, 4, 2, 2], **q))
    mb.op("SPACE_TO_BATCH_ND", [x, mb.const("block", np.array(block, np.int32)),
                                mb.const("paddings", np.array(paddings, np.int32))], [y], "SpaceToBatchNDOptions")
    path = tmp_path / "s2b.tflite"
    path.write_bytes(mb.build())
    emit(compile_model(path, Options("s2b")), tmp_path / "s2b")
    rng = np.random.default_rng(1)
    data = (rng.integers(-128, 128, (2, 5, 3, 2)) if dtype == "int8" else rng.uniform(-4, 4, (2, 5, 3, 2)))
    data = data.astype(dtype)
    with HostModel(tmp_path / "s2b", "s2b") as host:
        host.set_input(0, data)
        host.run()
        got = host.get_output(0)
    expected = space_to_batch(data, block, paddings, np.array(zero_point).astype(dtype))
    assert got.dtype == expected.dtype and np.array_equal(got.reshape(expected.shape), expected)
