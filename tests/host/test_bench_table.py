"""`tinyaot bench`'s table: side by side per model and board, ratios to TFLM with
CMSIS-NN, results that are not figures (does not fit), and what a machine without
TFLM's source tree is told (no builds here)."""

from tinyaot import harness
from tinyaot.harness.build import failure_reason
from tinyaot.measure import bench


def row(variant, flash, model_ram, stack, instructions, **extra):
    r = {"model": "kws", "board": "qemu_cortex_m3", "variant": variant, "status": "ok", "flash": flash,
         "model_ram": model_ram, "ram_as_arena": model_ram, "stack": stack, "ram_total": model_ram + stack,
         "instructions": instructions, "bit_exact": True, "calls": 5}
    return {**r, **extra}


def test_table_puts_the_four_variants_side_by_side_with_ratios_to_tflm_cmsis_nn():
    rows = [row("tinyaot-portable", 23000, 5980, 220, 2_130_000, arena=4016, state=0, inputs_in_arena=False),
            row("tinyaot-cmsis-nn", 30000, 5980, 300, 1_510_000, arena=4016, state=0, inputs_in_arena=False),
            row("tflm-reference", 60000, 7000, 600, 4_000_000),
            row("tflm-cmsis-nn", 50000, 7000, 500, 2_000_000)]
    table = bench.format_table(bench.add_ratios(rows)).splitlines()
    assert table[0].split()[:3] == ["model", "board", "variant"]
    assert [r["instr_x"] for r in rows] == [1.06, 0.76, 2.0, 1.0]
    assert [r["ram_x"] for r in rows] == [0.83, 0.84, 1.01, 1.0]
    assert [r["flash_x"] for r in rows] == [0.46, 0.6, 1.2, 1.0]
    # The model and board once, on the group's first line.
    assert table[2].startswith("kws") and table[3].startswith(" ")
    assert table[3].split()[:4] == ["tinyaot-cmsis-nn", "30000", "6280", "1510000"]
    assert "arena 4016 + state 0 + I/O 1964 + stack 300" in table[3]
    assert "arena_used 7000 + stack 500" in table[5]
    assert table[-2] == "x: ratio to tflm-cmsis-nn on the same board (flash, RAM, instructions)"
    assert table[-1].startswith("as arena: model RAM counted as TFLM counts its arena")


def test_arena_x_counts_tinyaot_as_tflm_counts_its_arena_against_the_smaller_tflm_arena():
    """micro_speech's figures on the M3: tinyaot's arena 4016 + input 1960 + output 4 as built, 4180
    with its input in the arena; TFLM's arenas differ by flavour, the smaller one is the baseline."""
    rows = [row("tinyaot-portable", 23000, 5980, 220, 1_520_000, arena=4016, state=0, inputs_in_arena=False,
                ram_as_arena=4180),
            row("tinyaot-cmsis-nn", 30000, 5980, 300, 1_510_000, arena=4016, state=0, inputs_in_arena=False,
                ram_as_arena=4180),
            row("tflm-reference", 60000, 7100, 600, 9_000_000),
            row("tflm-cmsis-nn", 77000, 7300, 800, 1_512_000),
            {**row("tinyaot-portable", 0, 0, 0, 1), "board": "qemu_cortex_m0", "status": "does not fit"}]
    table = bench.format_table(bench.add_ratios(rows)).splitlines()
    assert [r.get("arena_x") for r in rows] == [0.59, 0.59, 1.0, 1.03, None]
    assert [r["ram_x"] for r in rows[:4]] == [0.77, 0.78, 0.95, 1.0]  # the RAM column still against tflm-cmsis-nn
    head = table[0].split("  ")
    assert [h.strip() for h in head if h.strip()][-3:] == ["as arena", "arena x", "RAM = data + stack"]
    assert table[2].split()[11:13] == ["4180", "0.59"] and table[5].split()[9:11] == ["7300", "1.03"]


def test_a_model_that_does_not_fit_is_a_result_and_ratios_need_the_baseline():
    rows = [row("tinyaot-portable", 250000, 55298, 400, 40_000_000, arena=55296, state=0, inputs_in_arena=True),
            {"model": "kws", "board": "qemu_cortex_m3", "variant": "tflm-cmsis-nn", "status": "does not fit",
             "reason": "TFLM (cmsis-nn) with kws overflows the flash of qemu_cortex_m3 by 60000 B"}]
    table = bench.format_table(bench.add_ratios(rows)).splitlines()
    assert "flash_x" not in rows[0]
    assert table[3].split() == ["tflm-cmsis-nn", "does", "not", "fit:", "TFLM", "(cmsis-nn)", "with", "kws",
                                "overflows", "the", "flash", "of", "qemu_cortex_m3", "by", "60000", "B"]
    table = "\n".join(table)
    assert "kws *" in table and "* tinyaot with its inputs placed in the arena" in table


def test_without_the_tflm_tree_bench_keeps_tinyaot_and_says_how_to_provide_it(monkeypatch, tmp_path):
    monkeypatch.delenv("TINYAOT_TFLM_DIR", raising=False)
    monkeypatch.setattr(harness.build, "SHARED_TFLM", tmp_path / "absent")
    variants, notes = bench.available_variants(bench.VARIANTS)
    assert [v for v in variants if v.startswith("tflm-")] == []
    assert "tinyaot-portable" in variants
    assert len(notes) == 2 and all("set TINYAOT_TFLM_DIR" in n and str(tmp_path / "absent") in n for n in notes)
    assert bench.format_table([], notes).endswith(notes[-1])


def test_a_failed_link_shows_the_undefined_symbols_not_collect2s_last_line():
    log = ("[10/10] Linking CXX executable runner.elf\nFAILED: runner.elf\n"
           "conv.cc:(.text+0x2bc): undefined reference to `tflite::kConvInputTensor'\n"
           "collect2: error: ld returned 1 exit status\nninja: build stopped: subcommand failed.")
    assert failure_reason(log) == ("conv.cc:(.text+0x2bc): undefined reference to `tflite::kConvInputTensor'"
                                         " | collect2: error: ld returned 1 exit status")


def test_float32_rows_are_exact_against_tflm_on_the_same_board_with_host_ulps_beside():
    """A float32 model: tinyaot-portable gives the board's TFLM bytes but differs from the host's
    by 3 ulps (newlib's expf), tinyaot-cmsis-nn differs on the board too; int8 rows keep the host;
    a float32 model TFLM does not fit the board with says it was compared with the host."""
    import numpy as np
    board = [np.array([0.25, 0.75], np.float32)]
    other = [np.array([0.25, np.nextafter(np.float32(0.75), np.float32(1))], np.float32)]
    rows = [row("tinyaot-portable", 1, 1, 1, 1, arena=1, state=0, bit_exact=False, host_ulps=3, outputs=[board]),
            row("tinyaot-cmsis-nn", 1, 1, 1, 1, arena=1, state=0, bit_exact=False, host_ulps=2, outputs=[other]),
            row("tflm-reference", 1, 1, 1, 1, bit_exact=False, host_ulps=3, outputs=[board]),
            row("tinyaot-portable", 1, 1, 1, 1, arena=1, state=0, model="q", outputs=[[np.array([3], np.int8)]]),
            row("tinyaot-portable", 1, 1, 1, 1, arena=1, state=0, model="big", bit_exact=False, host_ulps=1,
                outputs=[other])]
    bench.compare_on_board(rows)
    assert [(r["bit_exact"], r.get("verdict")) for r in rows] == [(True, "board"), (False, "board"),
                                                                   (True, "board"), (True, None), (False, "host")]
    assert all("outputs" not in r for r in rows)
    table = bench.format_table(rows).splitlines()
    assert table[0].split()[6:8] == ["exact", "ulp"]
    assert table[2].split()[6:10] == ["yes", "(5,", "board)", "3"]
    assert table[3].split()[4:8] == ["NO", "(5,", "board)", "2"]
    assert table[6].split()[6:10] == ["NO", "(5,", "host)", "1"]
    assert "exact (N, host): float32 outputs against TFLM on the host, no TFLM firmware" in "\n".join(table)


def test_float32_rows_tflm_does_not_fit_compare_with_tflm_built_for_the_board_on_the_same_core_machine(monkeypatch):
    """ds_cnn_kws_float32 on the M3: TFLM's reference firmware does not fit, so bench runs it built with
    the M3's CPU flags on mps2_an385 and compares bit for bit there (only float32 models whose
    tflm-reference does not fit); TFLM's rows stay "does not fit" and nothing of that machine is shown."""
    import numpy as np
    got = [np.array([0.25, 0.75], np.float32)]
    runs = []

    def tflm_on(board, name, path, kernels, calls, seed, build_root, cpu_board=None):
        runs.append((board, name, path, kernels, cpu_board))
        return {"model": name, "board": board, "variant": "tflm-reference", "status": "ok",
                "instructions": 7, "outputs": [got]}
    monkeypatch.setattr(bench, "bench_tflm", tflm_on)
    too_big = {"variant": "tflm-reference", "status": "does not fit", "reason": "TFLM: AllocateTensors failed"}
    rows = [row("tinyaot-portable", 1, 1, 1, 1, arena=1, state=0, bit_exact=False, host_ulps=1, outputs=[got]),
            {**row("tinyaot-portable", 1, 1, 1, 1, arena=1, state=0, bit_exact=False, host_ulps=1),
             "board": "qemu_cortex_m0", "outputs": [[got[0] * 2]]},
            {"model": "kws", "board": "qemu_cortex_m3", **too_big},
            {"model": "kws", "board": "qemu_cortex_m0", **too_big},
            row("tinyaot-portable", 1, 1, 1, 1, arena=1, state=0, model="q", outputs=[[np.array([3], np.int8)]]),
            {"model": "q", "board": "qemu_cortex_m3", **too_big}]
    same_core = bench.same_core_references(rows, {"kws": "kws.tflite", "q": "q.tflite"}, 5, 0, "b")
    assert runs == [("mps2_an385", "kws", "kws.tflite", "reference", "qemu_cortex_m3"),
                    ("mps2_an385", "kws", "kws.tflite", "reference", "qemu_cortex_m0")]
    bench.compare_on_board(rows, same_core)
    assert [(r.get("bit_exact"), r.get("verdict")) for r in rows[:2]] == [
        (True, "same -mcpu on mps2_an385"), (False, "same -mcpu on mps2_an385")]
    table = bench.format_table(rows).splitlines()
    assert table[2].split()[6:13] == ["yes", "(5,", "same", "-mcpu", "on", "mps2_an385)", "1"]
    assert table[3].split()[6:10] == ["NO", "(5,", "same", "-mcpu"]
    assert table[4].split() == ["tflm-reference", "does", "not", "fit:", "TFLM:", "AllocateTensors", "failed"]
    assert "7" not in table[2].split() and "mps2_an385" not in "".join(r["board"] for r in rows)
    assert any(line.startswith("exact (N, same -mcpu on mps2_an385): TFLM does not fit this board") for line in table)
