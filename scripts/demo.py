#!/usr/bin/env python3
"""The demo: compile a model, run it on both QEMU boards over the serial line,
print its outputs next to TFLite Micro's, then the footprint and speed table:
tinyaot (portable and CMSIS-NN kernels) and TFLM itself (reference and CMSIS-NN
kernels) side by side on each board (tinyaot bench).

Model: samples/hello_world/hello_world.tflite (the project's own), plus the
published models in ../shared/models for the table when that folder exists.
TFLM and CMSIS-NN come from ../shared/third_party (or TINYAOT_TFLM_DIR,
TINYAOT_CMSIS_NN_DIR); without them the table has tinyaot's rows and says so.
"""

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from tinyaot import harness  # noqa: E402
from tinyaot.measure import bench  # noqa: E402
from tinyaot.host.oracle import random_inputs, tflm_interpreter  # noqa: E402

MODEL = ROOT / "samples" / "hello_world" / "hello_world.tflite"
# The boards of README's demo table (the MPS2 boards have their own bench table there).
BOARDS = ("qemu_cortex_m0", "qemu_cortex_m3")


def show_model_on_board(board):
    fw = harness.build_firmware(board, model=MODEL, name="hello_world")
    interp = tflm_interpreter(MODEL)
    rng = np.random.default_rng(1)
    with harness.open_device(fw) as dev:
        info = dev.info()
        print(f"\n== {MODEL.name} on {board} (arena {info.arena_size} bytes) ==")
        for call in range(3):
            inputs = random_inputs([{"dtype": t.dtype, "shape": t.shape} for t in info.inputs], rng)
            outputs, figures = dev.invoke(inputs)
            for i, x in enumerate(inputs):
                interp.set_input(x, i)
            interp.invoke()
            expected = interp.get_output(0)
            verdict = "bit-exact" if np.array_equal(outputs[0], expected) else "DIFFERS"
            print(f"  input {inputs[0].reshape(-1).tolist()} -> {board}: {outputs[0].reshape(-1).tolist()}  "
                  f"TFLM: {expected.reshape(-1).tolist()}  {verdict}, "
                  f"{figures.instructions} instructions, stack {figures.stack_bytes} bytes")


def show_plan():
    """The DS-CNN keyword spotter's memory plan, as a table line and a picture."""
    from tinyaot.compiler import Options, compile_model
    from tinyaot.planner.svg import plan_svg
    from tinyaot.testing import catalog
    out = ROOT / "build" / "plan"
    out.mkdir(parents=True, exist_ok=True)
    model = compile_model(catalog.build("ds_cnn_kws", out), Options("ds_cnn_kws", inputs_in_arena=True))
    picture = out / "ds_cnn_kws.plan.svg"
    picture.write_text(plan_svg(model))
    print(f"\n== memory plan of the MLPerf Tiny DS-CNN (input in the arena) ==\n  {model.plan.note()}\n"
          f"  picture: {picture} (x: operator step, y: arena offset; hatched: bytes an output shares with its "
          "input; dashed lines: the classic and the overlap-aware lower bounds)")


def main():
    for board in BOARDS:
        show_model_on_board(board)
    show_plan()
    print("\n== footprint and speed: tinyaot and TFLM on the same boards (tinyaot bench) ==")
    models = [str(MODEL)] + [str(p) for p in sorted((ROOT.parent / "shared" / "models").glob("*.tflite"))]
    return bench.main(models + [f"--board={b}" for b in BOARDS] + ["--json", str(ROOT / "build" / "bench.json")])


if __name__ == "__main__":
    sys.exit(main())
