"""Models that share one arena, on the boards: one serial-runner firmware holds three models
(SELECT switches between them). With their arenas in one group, runs that alternate stay
bit-exact with TFLM (state included), and the firmware's RAM, read from the ELF, is the
larger arena plus state: the separate-arena firmware's RAM less all but the largest arena.
The same firmwares as `tinyaot bench --shared-arena` builds (one build folder each).
"""

import subprocess

import pytest

from tinyaot.measure.shared_arena import bench_group, format_table

# Arenas 864, 1296 and 32 bytes; the last one has 432 bytes of state (SVDF).
MODELS = ["mini_mobilenet", "conv_same_valid_strides", "svdf_keyword_like_stack"]


@pytest.fixture(scope="module")
def paths(own_models_dir):
    return [own_models_dir / f"{name}.tflite" for name in MODELS]


def firmware(target, board, paths, group):
    return target.firmware(board, name=MODELS[0], model=paths[0], more_models=list(zip(MODELS[1:], paths[1:])),
                           arena_group=group)


def ram_symbols(fw):
    """{symbol: bytes} of the RAM objects (.data/.bss) in the firmware's ELF."""
    nm = fw.config["size_tool"].replace("size", "nm")
    out = subprocess.run([nm, "-S", str(fw.elf)], check=True, capture_output=True, text=True).stdout
    return {p[3]: int(p[1], 16) for p in (line.split() for line in out.splitlines())
            if len(p) == 4 and p[2] in "bBdD"}


def model_ram(symbols):
    return sum(size for name, size in symbols.items() if name.startswith("tinyaot_"))


def test_group_firmware_ram_is_the_larger_arena_plus_state(target, boards, paths):
    for board in boards:
        grouped, separate = firmware(target, board, paths, "g"), firmware(target, board, paths, None)
        plans = grouped.model_jsons()
        assert [p["name"] for p in plans] == MODELS
        arenas = [p["arena_size"] for p in plans]
        state = sum(p["state_size"] for p in plans)
        assert state == plans[2]["state_size"] > 0 and min(arenas) > 0
        group = grouped.arena_group_json()
        assert (group["arena_size"], group["separate_arenas"], group["ram"]) == (max(arenas), sum(arenas),
                                                                                  max(arenas) + state)
        symbols = ram_symbols(grouped)
        assert symbols["tinyaot_g_arena"] == max(arenas)
        assert model_ram(symbols) == max(arenas) + state
        assert model_ram(ram_symbols(separate)) == sum(arenas) + state
        # The whole firmware: the same code and buffers, less the arenas the group saves.
        assert separate.sizes()["ram"] - grouped.sizes()["ram"] == sum(arenas) - max(arenas)


def test_bench_alternating_runs_bit_exact_and_group_figures(boards, paths):
    """tinyaot bench --shared-arena: before each call of one model the others run on random inputs,
    overwriting the shared arena (SVDF state kept between its own calls); figures as measured above."""
    models = dict(zip(MODELS, paths))
    rows = [bench_group(board, "g", models, calls=3, seed=11, build_root=None) for board in boards]
    for row in rows:
        assert row["status"] == "ok" and row["bit_exact"], row
        assert (row["arena"], row["separate_arenas"]) == (max(row["arenas"].values()), sum(row["arenas"].values()))
        assert row["model_ram"] == row["arena"] + row["state"] and row["state"] > 0
        assert row["ram_separate"] - row["ram"] == row["separate_arenas"] - row["arena"] > 0
    table = format_table("g", MODELS, rows).splitlines()
    assert table[0] == f"arena group g: {', '.join(MODELS)} (RAM and flash in bytes; 'separate': one arena each)"
    assert [line.split()[0] for line in table[3:]] == boards
