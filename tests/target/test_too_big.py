"""A model whose arena cannot fit the board fails the build, before linking,
with a message naming the model and the sizes (never at run time)."""

import json
import re

import numpy as np
import pytest

from tinyaot import harness
from tinyaot.modelbuilder import ModelBuilder, bias_for, random_int8

# m0: 16 KB RAM - 2 KB stack - 1 KB runner reserve = 13312 bytes for the model.
HIDDEN = 14000


@pytest.fixture(scope="module")
def big_arena_model(tmp_path_factory):
    """x[1,8] -> FC -> h[1,14000] (lives in the arena) -> FC -> y[1,1]."""
    rng = np.random.default_rng(99)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 8], scale=0.05, zero_point=0)
    w1 = mb.const("w1", random_int8(rng, (HIDDEN, 8)), scale=np.float32(0.01))
    b1, s1 = bias_for(rng, HIDDEN, 0.05, np.float32(0.01))
    h = mb.tensor("h", "int8", [1, HIDDEN], scale=0.1, zero_point=0)
    mb.op("FULLY_CONNECTED", [x, w1, mb.const("b1", b1, scale=s1)], [h], "FullyConnectedOptions",
          fused_activation_function=0)
    w2 = mb.const("w2", random_int8(rng, (1, HIDDEN)), scale=np.float32(0.01))
    y = mb.tensor("y", "int8", [1, 1], scale=1.0, zero_point=0)
    mb.op("FULLY_CONNECTED", [h, w2, -1], [y], "FullyConnectedOptions", fused_activation_function=0)
    mb.output(y)
    path = tmp_path_factory.mktemp("too_big") / "big_arena.tflite"
    path.write_bytes(mb.build())
    return path


def test_arena_too_big_for_m0_fails_the_build_with_sizes(big_arena_model, tmp_path):
    with pytest.raises(harness.ModelTooBig) as exc:
        harness.build_firmware("qemu_cortex_m0", model=big_arena_model, name="big_arena",
                               build_root=tmp_path)
    message = str(exc.value)
    m = re.fullmatch(r"tinyaot: model 'big_arena' does not fit qemu_cortex_m0: needs (\d+) bytes"
                     r" of RAM \(arena (\d+) \+ state 0 \+ inputs 8 \+ outputs 1\) but only 13312"
                     r" are available \(model file .*big_arena\.tflite\)", message)
    assert m, message
    plan = json.loads((tmp_path / "qemu_cortex_m0/big_arena/tinyaot/big_arena/big_arena.json").read_text())
    assert int(m.group(2)) == plan["arena_size"] >= HIDDEN
    assert int(m.group(1)) == plan["arena_size"] + 9
    # Stopped before linking: no firmware was produced.
    assert not (tmp_path / "qemu_cortex_m0/big_arena/runner.elf").exists()


def test_same_model_fits_m3(big_arena_model, tmp_path):
    fw = harness.build_firmware("qemu_cortex_m3", model=big_arena_model, name="big_arena",
                                build_root=tmp_path)
    sizes = fw.sizes()
    assert sizes["bss"] >= fw.model_json()["arena_size"]
    assert sizes["ram"] + fw.config["stack_size"] <= fw.config["ram_size"]


def test_bench_row_after_the_inputs_in_arena_retry_says_so(big_arena_model, tmp_path):
    from tinyaot.measure import bench
    row = bench.bench_one("qemu_cortex_m0", "big_arena", big_arena_model, 1, 0, tmp_path)
    assert row["status"] == "does not fit" and row["inputs_in_arena"] is True
    assert "inputs 0 + outputs 1" in row["reason"], row["reason"]
