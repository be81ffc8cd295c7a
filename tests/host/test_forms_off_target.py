"""Which of the catalog's models and their float32 and 16x8 forms run on qemu_cortex_m3, from
the generator's own figures.

The serial runner's build refuses a model whose arena, state and I/O buffers exceed the
board's RAM less the stack and the runner's reserve, or whose weights and tables exceed its
flash less the code's reserve (firmware/serial_runner/CMakeLists.txt,
cmake/tinyaot_check.cmake); the on-target tests then retry with the inputs in the arena.
The forms kept off the boards (OFF_TARGET in models_float.py and models_16x8.py, and the
int8 models marked targets=False) must fail that check both ways; every other form must
pass it. A form made to fit fails here until it is put on the boards.
"""

import json
import re

import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.harness.build import REPO
from tinyaot.testing import catalog, models_16x8, models_float

FORMS = {"float32": models_float.FLOAT32_FORMS, "16x8": models_16x8.FORMS_16X8}
OFF_TARGET = {"float32": models_float.OFF_TARGET, "16x8": models_16x8.OFF_TARGET}
# Why each form off the boards cannot run there: the README's table says the same.
RAM, FLASH = "RAM", "flash"
OFF_M3 = {
    ("resnet8", "float32"): {RAM, FLASH},
    ("mobilenet_v1_025_96x96x3", "float32"): {RAM, FLASH}, ("mobilenet_v1_025_96x96x3", "16x8"): {RAM},
    ("fc_autoencoder", "int8"): {FLASH}, ("fc_autoencoder", "float32"): {FLASH}, ("fc_autoencoder", "16x8"): {FLASH},
}


def _cmake_number(path, variable):
    return int(re.search(rf"set\({variable} (\d+)", (REPO / path).read_text()).group(1))


def m3_budget():
    """(RAM, flash) the serial runner leaves a model on qemu_cortex_m3."""
    board, runner = "boards/baremetal/qemu_cortex_m3/board.cmake", "firmware/serial_runner/CMakeLists.txt"
    ram = (_cmake_number(board, "TINYAOT_BOARD_RAM_SIZE") - _cmake_number(board, "TINYAOT_BOARD_STACK_SIZE")
           - _cmake_number(runner, "TINYAOT_RUNNER_RAM_RESERVE"))
    flash = _cmake_number(board, "TINYAOT_BOARD_FLASH_SIZE") - _cmake_number(runner, "TINYAOT_RUNNER_FLASH_RESERVE")
    return ram, flash


def needs(name, tmp_path, inputs_in_arena):
    """(RAM, flash) as tinyaot_check.cmake counts them from the generator's JSON."""
    path = catalog.build(name, tmp_path)
    out = tmp_path / f"{name}-{int(inputs_in_arena)}"
    emit(compile_model(path, Options(name, inputs_in_arena=inputs_in_arena)), out)
    plan = json.loads((out / f"{name}.json").read_text())
    io = sum(t["bytes"] for t in plan["inputs"] + plan["outputs"] if t.get("arena_offset") is None)
    return plan["arena_size"] + plan["state_size"] + io, plan["weight_bytes"] + plan["table_bytes"]


def _cases():
    bases = sorted({b for forms in FORMS.values() for b in forms})
    return [(b, form) for b in bases for form in ("int8", *FORMS) if form == "int8" or b in FORMS[form]]


def _name(base, form):
    return base if form == "int8" else f"{base}_{form}"


def test_off_target_lists_agree():
    for form, off in OFF_TARGET.items():
        assert off == {b for (b, f) in OFF_M3 if f == form}
    assert {b for (b, f) in OFF_M3 if f == "int8"} == {b for forms in FORMS.values() for b in forms
                                                        if not catalog.runs_on(b, "qemu_cortex_m3")}


@pytest.mark.parametrize("base, form", _cases())
def test_on_m3_exactly_when_it_fits(base, form, tmp_path):
    name = _name(base, form)
    ram_budget, flash_budget = m3_budget()
    figures = [needs(name, tmp_path, inputs_in_arena) for inputs_in_arena in (False, True)]
    fits = any(ram <= ram_budget and flash <= flash_budget for ram, flash in figures)
    on_target = catalog.runs_on(name, "qemu_cortex_m3")
    assert fits == on_target, f"{name}: needs (RAM, flash) {figures}, the M3 leaves {ram_budget, flash_budget}"
    if not fits:
        ram, flash = min(figures)  # the smaller RAM: with or without the inputs in the arena
        why = {what for what, over in ((RAM, ram > ram_budget), (FLASH, flash > flash_budget)) if over}
        assert OFF_M3[base, form] == why, f"{name}: too big for {why} ({ram} B RAM, {flash} B flash)"
        print(f"{name}: {ram} B of RAM (budget {ram_budget}), {flash} B of flash (budget {flash_budget})")
