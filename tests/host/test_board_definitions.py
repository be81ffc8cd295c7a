"""The bare-metal boards' definitions agree with themselves: board.cmake's sizes are
linker.ld's, and a board built for an FPU builds float32 the way bench compares it."""

import re
from pathlib import Path

import pytest

BOARDS_DIR = Path(__file__).resolve().parents[2] / "boards" / "baremetal"
BOARDS = sorted(p.parent.name for p in BOARDS_DIR.glob("*/board.cmake"))


def board_settings(board):
    """{variable: value or list of values} of a board.cmake's set() calls."""
    text = (BOARDS_DIR / board / "board.cmake").read_text()
    return {m.group(1): m.group(2).split() for m in re.finditer(r"^set\((TINYAOT_BOARD_\w+) ([^)]*)\)", text, re.M)}


def linker_sizes(board):
    """FLASH and RAM lengths and the default stack size of a board's linker.ld, in bytes."""
    text = (BOARDS_DIR / board / "linker.ld").read_text()
    size = lambda v: int(v[:-1]) * {"K": 1024, "M": 1024 * 1024}[v[-1]]  # noqa: E731
    sizes = {m.group(1): size(m.group(2)) for m in re.finditer(r"^\s*(FLASH|RAM)\b.*LENGTH = (\d+[KM])", text, re.M)}
    sizes["STACK"] = size(re.search(r"__stack_size : (\d+[KM]);", text).group(1))
    return sizes


def test_the_mps2_boards_are_discovered():
    assert {"qemu_cortex_m0", "qemu_cortex_m3", "mps2_an386", "mps2_an500", "mps2_an505", "mps3_an547"} <= set(BOARDS)


@pytest.mark.parametrize("board", BOARDS)
def test_board_cmake_sizes_are_the_linker_script_sizes(board):
    settings, sizes = board_settings(board), linker_sizes(board)
    assert int(settings["TINYAOT_BOARD_FLASH_SIZE"][0]) == sizes["FLASH"]
    assert int(settings["TINYAOT_BOARD_RAM_SIZE"][0]) == sizes["RAM"]
    assert int(settings["TINYAOT_BOARD_STACK_SIZE"][0]) == sizes["STACK"]


@pytest.mark.parametrize("board", BOARDS)
def test_hard_float_boards_name_their_fpu_and_turn_contraction_off(board):
    flags = board_settings(board)["TINYAOT_BOARD_CPU_FLAGS"]
    assert "-mthumb" in flags and any(f.startswith("-mcpu=cortex-m") for f in flags)
    if "-mfloat-abi=hard" in flags:
        # The FPU named, or implied by a -mcpu that has one (cortex-m55: -mfpu=auto keeps its MVE float).
        assert any(f.startswith("-mfpu=fpv") for f in flags) or "-mcpu=cortex-m55" in flags, flags
        assert "-ffp-contract=off" in flags, flags  # VFMA would round differently from TFLM's
    else:
        assert "-mfloat-abi=soft" in flags, flags
