"""`tinyaot bench`: the table and JSON carry real, consistent figures."""

import json

import pytest

from tinyaot import harness
from tinyaot.measure import bench
from tinyaot.testing import catalog
from conftest import OWN_MODELS_DIR


def test_bench_measures_tinyaot_and_tflm_side_by_side(tmp_path, capsys, boards):
    """The four variants of one model on the Cortex-M3, with real, consistent figures."""
    if "qemu_cortex_m3" not in boards:
        pytest.skip("runs on qemu_cortex_m3 (not selected)")
    if harness.tflm_dir() is None or harness.cmsis_nn_dir() is None:
        pytest.skip("needs TFLM's and CMSIS-NN's source trees (TINYAOT_TFLM_DIR, TINYAOT_CMSIS_NN_DIR)")
    model = catalog.build("fc_relu_per_tensor", OWN_MODELS_DIR)
    out_json = tmp_path / "bench.json"
    assert bench.main([str(model), "--calls", "3", "--json", str(out_json), "--board", "qemu_cortex_m3"]) == 0
    rows = {r["variant"]: r for r in json.loads(out_json.read_text())}
    table = capsys.readouterr().out
    assert list(rows) == list(bench.VARIANTS)
    base = rows["tflm-cmsis-nn"]
    for r in rows.values():
        assert r["status"] == "ok" and r["bit_exact"] is True and r["calls"] == 3, r
        assert r["instructions"] > 100 and r["stack"] > 0 and r["flash"] > 0
        assert r["ram_total"] == r["model_ram"] + r["stack"]
        assert (r["flash_x"], r["ram_x"], r["instr_x"]) == (
            round(r["flash"] / base["flash"], 2), round(r["ram_total"] / base["ram_total"], 2),
            round(r["instructions"] / base["instructions"], 2))
        assert f"{r['instructions']}" in table and f"{r['ram_total']}" in table
    for v in ("tinyaot-portable", "tinyaot-cmsis-nn"):
        # fc_relu_per_tensor: a 16-byte arena, inputs (24) and outputs (8) outside it.
        assert rows[v]["model_ram"] == rows[v]["arena"] + 24 + 8 == 48
        assert rows[v]["flash"] >= rows[v]["weights"] > 0
        # Counted as TFLM's arena: the inputs in the arena would need 56 B (the 24-byte input
        # grows the arena), so the layout as built, 48 B, is the smaller figure.
        assert rows[v]["ram_as_arena"] == 48
        assert rows[v]["arena_x"] == round(48 / min(rows["tflm-reference"]["model_ram"], base["model_ram"]), 2)
    for v in ("tflm-reference", "tflm-cmsis-nn"):
        # TFLM's arena as the firmware measured it: tensors plus its runtime structures.
        assert rows[v]["model_ram"] > 48 * 4
        assert f"arena_used {rows[v]['model_ram']} + stack {rows[v]['stack']}" in table
    assert base["flash_x"] == base["ram_x"] == base["instr_x"] == 1.0
    assert table.count("yes (3)") == 4


def test_bench_derives_a_valid_name_and_shows_the_real_build_error(tmp_path):
    """An upper-case stem becomes a valid NAME; a failed build reports the
    generator's message, not ninja's last line."""
    broken = tmp_path / "Broken-Model.tflite"
    broken.write_bytes(b"not a flatbuffer")
    assert bench.model_name("pretrainedResnet_quant.tflite") == "pretrainedresnet_quant"
    assert bench.model_name("3x3-Conv.tflite") == "_3x3_conv"
    name = bench.model_name(broken)
    row = bench.bench_one("qemu_cortex_m3", name, broken, 1, 0, tmp_path / "build")
    assert (row["model"], row["status"]) == ("broken_model", "build failed")
    assert row["reason"].startswith("tinyaot: error:") and "Broken-Model.tflite" in row["reason"]
    assert "ninja: build stopped" not in row["reason"]
