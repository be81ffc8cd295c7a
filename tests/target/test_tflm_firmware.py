"""The TFLM firmware (firmware/tflm_runner): TFLM's MicroInterpreter on the QEMU
Cortex-M3 behind the serial runner, with its reference and its CMSIS-NN kernels,
bit-exact with the TFLM oracle, its arena measured on the 32-bit core.

Needs TFLM's source tree (TINYAOT_TFLM_DIR or ../shared/third_party/tflite-micro)
and, for the CMSIS-NN kernels, CMSIS-NN's; skips saying so without them."""

import numpy as np
import pytest

from tinyaot import harness
from tinyaot.measure import bench
from tinyaot.modelbuilder import ModelBuilder, bias_for, random_int8
from tinyaot.host.oracle import tflm_arena_usage

BOARD = "qemu_cortex_m3"


def needs_trees(kernels):
    if harness.tflm_dir() is None:
        pytest.skip(f"no TFLM source tree: set TINYAOT_TFLM_DIR or provide {harness.build.SHARED_TFLM}")
    if kernels == "cmsis-nn" and harness.cmsis_nn_dir() is None:
        pytest.skip(f"no CMSIS-NN: set TINYAOT_CMSIS_NN_DIR or provide {harness.build.SHARED_CMSIS_NN}")


@pytest.mark.parametrize("kernels", ["reference", "cmsis-nn"])
def test_tflm_firmware_is_bit_exact_and_reports_its_32_bit_arena(kernels, own_model):
    needs_trees(kernels)
    model = own_model("fc_relu_per_tensor")
    fw = harness.build_tflm_firmware(BOARD, model, "fc_relu_per_tensor", kernels=kernels)
    with harness.open_device(fw) as dev:
        info = dev.info()
        assert (info.name, info.generator_version) == ("fc_relu_per_tensor", f"TFLM {kernels}")
        assert [(t.dtype, t.shape) for t in info.inputs] == [(np.int8, (1, 24))]
        mismatches, figures = dev.compare_with_tflm(model, calls=5, seed=3)
        assert mismatches == []
    # The same planner on a 32-bit core: the activations ("head") as on the host,
    # TFLM's runtime structures (pointers, size_t) smaller than the 64-bit host's.
    host = tflm_arena_usage(model)
    assert host["head"] < info.arena_size < host["total"]
    assert all(f.instructions > 1000 and f.stack_bytes > 0 for f in figures)
    # Only the kernels the model uses are linked: the reference FC, or CMSIS-NN's.
    symbols = fw.elf.with_suffix(".elf.map").read_text()
    assert ("arm_fully_connected_s8" in symbols) == (kernels == "cmsis-nn")
    assert "Register_CONV_2D" not in symbols


def test_bench_rows_of_tflm_and_a_model_that_does_not_fit(tmp_path):
    """tflm-reference on the board: the RAM column is the arena the firmware reported
    plus its stack; a model whose tensors exceed the board's RAM is a 'does not fit' row."""
    needs_trees("reference")
    rng = np.random.default_rng(5)
    mb = ModelBuilder()  # x[1,70000] in TFLM's arena: more than the M3's 64 KB of RAM
    x = mb.input("x", "int8", [1, 70000], scale=0.05, zero_point=0)
    w = mb.const("w", random_int8(rng, (1, 70000)), scale=np.float32(0.01))
    b, s = bias_for(rng, 1, 0.05, np.float32(0.01))
    y = mb.tensor("y", "int8", [1, 1], scale=1.0, zero_point=0)
    mb.op("FULLY_CONNECTED", [x, w, mb.const("b", b, scale=s)], [y], "FullyConnectedOptions",
          fused_activation_function=0)
    mb.output(y)
    big = tmp_path / "Wide_Input.tflite"
    big.write_bytes(mb.build())
    row = bench.bench_tflm(BOARD, bench.model_name(big), big, "reference", 1, 0, None)
    assert row["status"] == "does not fit", row
    assert row["reason"].startswith("TFLM: AllocateTensors failed (arena ") and BOARD in row["reason"]


def test_float32_rows_tflm_does_not_fit_are_exact_against_tflm_with_the_boards_mcpu_on_mps2_an385():
    """Where TFLM does not fit the board (as for ds_cnn_kws_float32 here), bench builds TFLM's reference
    firmware with the board's CPU flags for mps2_an385 and compares the float32 outputs (SOFTMAX:
    newlib's expf) bit for bit there. The tinyaot firmware is the target matrix's; TFLM's does-not-fit
    row stands for the real one (the M3's core objects come from ccache)."""
    needs_trees("reference")
    from conftest import OWN_MODELS_DIR
    from tinyaot.testing import catalog
    name = "softmax_scales_float32"
    model = catalog.build(name, OWN_MODELS_DIR)
    rows = [bench.bench_one(BOARD, name, model, 2, 0, harness.build.DEFAULT_BUILD_ROOT),
            {"model": name, "board": BOARD, "variant": "tflm-reference", "status": "does not fit"}]
    same_core = bench.same_core_references(rows, {name: model}, 2, 0, harness.build.DEFAULT_BUILD_ROOT)
    assert same_core[(name, BOARD)]["board"] == "mps2_an385"
    bench.compare_on_board(rows, same_core)
    assert (rows[0]["bit_exact"], rows[0]["verdict"], rows[0]["host_ulps"] <= 2) == \
        (True, "same -mcpu on mps2_an385", True)
    # Built with the M3's flags and newlib multilib, run on QEMU's mps2-an385.
    build = harness.build.DEFAULT_BUILD_ROOT / f"mps2_an385-cpu_{BOARD}" / f"{name}-tflm-reference"
    assert "-mcpu=cortex-m3" in (build / "build.ninja").read_text()
    assert "thumb/v7-m/nofp/libm.a" in (build / "runner.elf.map").read_text()
