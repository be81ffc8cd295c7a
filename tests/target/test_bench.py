"""`tinyaot bench`: the table and JSON carry real, consistent figures."""

import json

from tinyaot import bench
from tinyaot.testing import catalog
from conftest import OWN_MODELS_DIR


def test_bench_reports_sizes_speed_and_exactness(tmp_path, capsys, boards):
    model = catalog.build("fc_relu_per_tensor", OWN_MODELS_DIR)
    out_json = tmp_path / "bench.json"
    args = [str(model), "--calls", "3", "--json", str(out_json)]
    for b in boards:
        args += ["--board", b]
    assert bench.main(args) == 0
    rows = json.loads(out_json.read_text())
    assert [r["board"] for r in rows] == list(boards)
    table = capsys.readouterr().out
    for r in rows:
        assert r["status"] == "ok" and r["bit_exact"] is True and r["calls"] == 3
        assert r["flash"] > r["weights"] > 0
        assert r["ram"] >= r["arena"]
        assert r["instructions"] > 100 and r["stack"] > 0
        # fc_relu_per_tensor: a 16-byte arena, inputs (24) and outputs (8) outside it.
        assert r["model_ram"] == r["arena"] + 24 + 8 == 48
        assert r["tflm_ram"] > r["model_ram"]
        assert r["ram_ratio"] == round(48 / r["tflm_ram"], 3)
        assert f"{r['board']}" in table and f"{r['instructions']}" in table
    assert "yes (3)" in table


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
