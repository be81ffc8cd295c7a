"""Zephyr samples on Zephyr's QEMU boards, checked against TFLite Micro bit for bit.

    ZEPHYR_BASE=<ws>/zephyr pytest tests/zephyr -v

hello_world is checked through its console output; serial_inference through
the shared serial harness (tinyaot.harness), for its bundled model and for
some of the project's own test models (also with CONFIG_TINYAOT_KERNELS_CMSIS_NN), and in its hex-line variant (the one
Twister's pytest harness drives); the README's complete app is built from the
README, outside the repository. Then what a new user runs into: the size
check, a link overflow, CONFIG_TINYAOT off, a Python without the generator's
packages, each with its message.
"""

import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from zephyr_env import (ALL_ENV, BOARDS, BUILD_ROOT, REPO, SAMPLES, lane_skip_reason, memory_regions,
                        skip_where_twister_covers)

if lane_skip_reason():
    pytest.skip(lane_skip_reason(), allow_module_level=True)

import numpy as np  # noqa: E402

from tinyaot import harness  # noqa: E402
from tinyaot.host.oracle import tflm_interpreter  # noqa: E402

HELLO_MODEL = SAMPLES / "hello_world" / "hello_world.tflite"
# Own test models served by serial_inference besides the bundled one: one
# per kernel family that fits the 16 KiB qemu_cortex_m0 (see tinyaot.testing).
SERIAL_MODELS = ["hello_world", "fc_relu_per_tensor", "mini_mobilenet"]


def console_lines(elf, machine, until, timeout=60.0):
    """Boots elf in QEMU and returns its console lines up to one matching `until`.

    The UART goes to QEMU's stdout, not a pty: QEMU drops what a guest prints
    before a reader has the pty open, which an app that prints once at boot loses.
    """
    cmd = [harness.qemu.QEMU, *machine, "-kernel", str(elf), "-nographic", "-monitor", "none",
           "-serial", "stdio", "-no-reboot"]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        text = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None:
            if select.select([proc.stdout], [], [], 0.5)[0]:
                text += os.read(proc.stdout.fileno(), 4096)
            lines = text.decode("ascii", "replace").replace("\r", "").split("\n")
            if any(re.search(until, l) for l in lines[:-1]):
                return lines
        pytest.fail(f"no line matching {until!r} within {timeout:g} s; got:\n"
                    + text.decode("ascii", "replace"))
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def _ints(s):
    return [int(v) for v in s.split()]


def test_hello_world_console(zephyr, board):
    skip_where_twister_covers("sample.tinyaot.hello_world")
    build_dir, log = zephyr.build("hello_world", board, "default")
    lines = console_lines(build_dir / "zephyr" / "zephyr.elf", BOARDS[board],
                          r"^hello_world (done|FAILED)$")
    assert "hello_world done" in lines, "\n".join(lines)
    rows = {}
    for line in lines:
        m = re.match(r"^(input |output) (\d+):(.*)$", line)
        if m:
            rows.setdefault(int(m.group(2)), {})[m.group(1).strip()] = _ints(m.group(3))
    assert len(rows) == 3, "\n".join(lines)
    interp = tflm_interpreter(HELLO_MODEL)
    for r, row in sorted(rows.items()):
        interp.set_input(np.array([row["input"]], dtype=np.int8), 0)
        interp.invoke()
        expected = interp.get_output(0).reshape(-1).tolist()
        assert row["output"] == expected, f"row {r}: Zephyr {row['output']} != TFLM {expected}"
    assert any(re.match(r"^time per inference: \d+ ns", l) for l in lines)
    print(f"\n{board} hello_world: {memory_regions(build_dir, log)}")


def _model_path(name):
    """Bundled model, or one of the project's own test models written to a
    stable folder (a new path each session would force full Zephyr rebuilds)."""
    if name == "hello_world":
        return HELLO_MODEL
    from tinyaot.testing import catalog
    return catalog.build(name, BUILD_ROOT / "models")


@pytest.mark.parametrize("model_name", SERIAL_MODELS)
def test_serial_inference_matches_tflm(zephyr, board, model_name):
    if model_name == "hello_world":  # the other two models take the same binary transport
        skip_where_twister_covers("sample.tinyaot.serial_inference.pytest")
    if model_name == "fc_relu_per_tensor" and os.environ.get(ALL_ENV) != "1":
        # Its two per-tensor FULLY_CONNECTED layers are hello_world's (Twister, both boards);
        # mini_mobilenet takes the same TINYAOT_MODEL and transport on this board (CI's time).
        pytest.skip(f"hello_world's kernel under Twister and mini_mobilenet's build check this; {ALL_ENV}=1 runs it")
    model = _model_path(model_name)
    args = [] if model_name == "hello_world" else [f"TINYAOT_MODEL={model}"]
    build_dir, log = zephyr.build("serial_inference", board, model_name, args)
    with harness.open_qemu(build_dir / "zephyr" / "zephyr.elf", BOARDS[board],
                           description=f"Zephyr {board} ({model_name})") as dev:
        info = dev.info()
        assert info.name == model_name
        assert info.io_ok
        mismatches, figures = dev.compare_with_tflm(model, calls=5)
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM, first: {mismatches[0]}"
    print(f"\n{board} serial_inference[{model_name}]: {memory_regions(build_dir, log)},"
          f" {figures[-1].cycles} cycles at {info.cycles_hz} Hz, stack {figures[-1].stack_bytes} B")


@pytest.mark.parametrize("model_name", ["hello_world", "mini_mobilenet"])
def test_serial_inference_with_cmsis_nn_matches_tflm(zephyr, board, model_name, cmsis_nn):
    """CONFIG_TINYAOT_KERNELS_CMSIS_NN: the generated code calls CMSIS-NN (built from
    TINYAOT_CMSIS_NN_DIR for the board's core) and stays bit-exact with TFLM."""
    if model_name == "hello_world":
        skip_where_twister_covers("sample.tinyaot.serial_inference.cmsis_nn")
    model = _model_path(model_name)
    args = ["CONFIG_TINYAOT_KERNELS_CMSIS_NN=y", f"TINYAOT_CMSIS_NN_DIR={cmsis_nn}", f"TINYAOT_MODEL={model}"]
    build_dir, log = zephyr.build("serial_inference", board, f"cmsis_nn_{model_name}", args)
    (plan,) = (build_dir / "tinyaot").rglob(f"{model_name}.json")
    report = json.loads(plan.read_text())
    assert (report["kernels"], report["cpu"]) == ("cmsis-nn", board.replace("qemu_", "").replace("_", "-"))
    assert "cmsis-nn" in {op["backend"] for op in report["operators"]}
    with harness.open_qemu(build_dir / "zephyr" / "zephyr.elf", BOARDS[board],
                           description=f"Zephyr {board} ({model_name}, CMSIS-NN)") as dev:
        mismatches, figures = dev.compare_with_tflm(model, calls=5)
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM, first: {mismatches[0]}"
    print(f"\n{board} serial_inference[{model_name}, cmsis-nn]: {memory_regions(build_dir, log)},"
          f" {figures[-1].cycles} cycles")


def test_cmsis_nn_without_a_v7_tree_names_what_it_found(zephyr):
    """No usable CMSIS-NN: configuring stops naming the tree given, the workspace's
    cmsis-nn module with its arm_nnfunctions.h revision, and the way out."""
    _, log = zephyr.build("serial_inference", "qemu_cortex_m3", "cmsis_nn_missing",
                          ["CONFIG_TINYAOT_KERNELS_CMSIS_NN=y", "TINYAOT_CMSIS_NN_DIR=/nonexistent"],
                          check=False)
    text = " ".join(log.split())  # CMake wraps the message
    assert ("CONFIG_TINYAOT_KERNELS_CMSIS_NN needs CMSIS-NN v7: set TINYAOT_CMSIS_NN_DIR "
            "(-DTINYAOT_CMSIS_NN_DIR=... or the environment) to a CMSIS-NN v7.0.0 source tree "
            "(github.com/ARM-software/CMSIS-NN); TINYAOT_CMSIS_NN_DIR is '/nonexistent'") in text, log[-3000:]
    header = zephyr.base.parent / "modules" / "lib" / "cmsis-nn" / "Include" / "arm_nnfunctions.h"
    if header.exists():  # Zephyr 4.0 pins V.16.0.0, before the v7 API
        revision = re.search(r"\$Revision:\s+(V\.[0-9.]+)", header.read_text()).group(1)
        assert (f"Zephyr's cmsis-nn module {header.parents[1]} (arm_nnfunctions.h {revision})"
                in text), log[-3000:]


def test_model_symbols_are_prefixed(zephyr, board):
    """rom_report / ram_report list the model's data under tinyaot_<name>_ names."""
    build_dir, _ = zephyr.build("hello_world", board, "default")
    if board == "qemu_cortex_m0" and int(zephyr.version.split(".")[0]) < 4:
        # Zephyr 3.5's size_report stops on the DWARF 5 location lists in GCC >= 11's
        # libgcc for ARMv6-M (pyelftools: "die needs to be provided"; 4.0's reads
        # them); the symbol table shows the same names.
        nm = shutil.which("arm-none-eabi-nm") or "arm-none-eabi-nm"
        rom = ram = subprocess.run([nm, "-S", str(build_dir / "zephyr" / "zephyr.elf")],
                                   capture_output=True, text=True, check=True).stdout
    else:
        rom = zephyr.target(build_dir, "rom_report")
        ram = zephyr.target(build_dir, "ram_report")
    for sym in ("tinyaot_hello_world_w1_fc1_weights", "tinyaot_hello_world_model",
                "tinyaot_hello_world_run"):
        assert sym in rom, f"{sym} missing from rom_report"
    assert "tinyaot_hello_world_arena" in ram, "arena missing from ram_report"
    # Kconfig defaults reached the generator: sections as configured.
    linker_map = (build_dir / "zephyr" / "zephyr.map").read_text()
    assert re.search(r"^ \.noinit\.tinyaot_arena\s*\n?\s*0x", linker_map, re.M)
    assert re.search(r"^ \.rodata\.tinyaot_weights\s*\n?\s*0x", linker_map, re.M)


def _big_model(path, hidden_rows):
    """FC model whose intermediate tensor takes hidden_rows * 64 bytes of arena."""
    from tinyaot.modelbuilder import ModelBuilder
    mb = ModelBuilder()
    x = mb.input("x", "int8", [hidden_rows, 16], scale=0.1, zero_point=0)
    w1 = mb.const("w1", np.ones((64, 16), np.int8), scale=0.02)
    h = mb.tensor("h", "int8", [hidden_rows, 64], scale=0.2, zero_point=0)
    mb.op("FULLY_CONNECTED", [x, w1, -1], [h], "FullyConnectedOptions")
    w2 = mb.const("w2", np.ones((4, 64), np.int8), scale=0.02)
    y = mb.tensor("y", "int8", [hidden_rows, 4], scale=0.5, zero_point=0)
    mb.op("FULLY_CONNECTED", [h, w2, -1], [y], "FullyConnectedOptions")
    mb.output(y)
    path.write_bytes(mb.build())
    return path


def test_too_big_model_fails_with_clear_message(zephyr, tmp_path):
    # 32 KiB of arena: fits qemu_cortex_m3 (64 KiB) but not qemu_cortex_m0 (16 KiB).
    model = _big_model(tmp_path / "too_big.tflite", 512)
    _, log = zephyr.build("serial_inference", "qemu_cortex_m0", "too_big",
                          [f"TINYAOT_MODEL={model}"], check=False)
    m = re.search(r"tinyaot: the models do not fit qemu_cortex_m0: [^\n]*", log)
    assert m, "expected the tinyaot fit check to stop the build; log:\n" + log[-3000:]
    assert "too_big: arena 32768" in m.group(0)
    assert "CONFIG_TINYAOT_RAM_RESERVE" in m.group(0)
    build_dir, _ = zephyr.build("serial_inference", "qemu_cortex_m3", "too_big",
                                [f"TINYAOT_MODEL={model}"])
    assert (build_dir / "zephyr" / "zephyr.elf").exists()


def test_too_much_weight_fails_with_clear_message(zephyr, tmp_path):
    # 256000 bytes of weights (+ 8 of multiplier tables; the folded bias is all
    # zero, so none) against 256 KiB of flash less the 16 KiB reserve.
    from tinyaot.modelbuilder import ModelBuilder
    mb = ModelBuilder()
    x = mb.input("x", "int8", [1, 16], scale=0.1, zero_point=0)
    w = mb.const("w", np.ones((16000, 16), np.int8), scale=0.02)
    y = mb.tensor("y", "int8", [1, 16000], scale=0.5, zero_point=0)
    mb.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    mb.output(y)
    model = tmp_path / "heavy.tflite"
    model.write_bytes(mb.build())
    _, log = zephyr.build("serial_inference", "qemu_cortex_m3", "heavy",
                          [f"TINYAOT_MODEL={model}"], check=False)
    m = re.search(r"tinyaot: the models do not fit qemu_cortex_m3: [^\n]*", log)
    assert m, "expected the tinyaot fit check to stop the build; log:\n" + log[-3000:]
    assert "heavy: weights and tables 256008" in m.group(0)
    assert "CONFIG_TINYAOT_FLASH_RESERVE" in m.group(0)


def test_add_model_without_config_tinyaot_says_what_is_needed(zephyr):
    _, log = zephyr.build("hello_world", "qemu_cortex_m3", "tinyaot_off",
                          ["CONFIG_TINYAOT=n"], check=False)
    assert "tinyaot_add_model() needs CONFIG_TINYAOT=y (in prj.conf)" in log, log[-3000:]
    assert "Unknown CMake command" not in log


def test_python_without_generator_packages_gets_one_pip_line(zephyr, tmp_path):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")],
                   check=True)
    python = tmp_path / "bare" / "bin" / "python"
    _, log = zephyr.build("hello_world", "qemu_cortex_m3", "bare_python",
                          [f"TINYAOT_PYTHON={python}"], check=False)
    assert (f"tinyaot: the generator needs Python packages that {python} lacks (numpy, "
            f"tflite>=2.10, jinja2>=3); install them with: {python} -m pip install numpy "
            "'tflite>=2.10' 'jinja2>=3'") in log, log[-3000:]
    assert "ModuleNotFoundError" not in log


def test_link_overflow_names_the_model_and_inputs_in_arena(zephyr, tmp_path):
    # 11264 B of arena passes the budget check (16 KiB - 4 KiB reserve), but
    # with Zephyr and the 3520 B of inputs/outputs outside the arena the RAM overflows.
    model = _big_model(tmp_path / "big.tflite", 176)
    _, log = zephyr.build("serial_inference", "qemu_cortex_m0", "big",
                          [f"TINYAOT_MODEL={model}"], check=False)
    overflow = re.search(r"region `(RAM)' overflowed by (\d+) bytes", log)
    assert overflow, "expected the link to overflow RAM; log:\n" + log[-3000:]
    assert (f"tinyaot: the link overflowed {overflow.group(1)} of qemu_cortex_m0 by "
            f"{overflow.group(2)} B; the app's models need: big arena 11264 + state 0 (+ 3520 B "
            "of inputs/outputs outside the arena); to shrink them: keep inputs in the arena "
            "(GENERATOR_ARGS --inputs-in-arena in tinyaot_add_model)") in log
    assert "models do not fit" not in log  # the budget check passed it


def test_person_detect_on_m3_fits_optimised_for_size_and_is_bit_exact(zephyr):
    model = REPO.parent / "shared" / "models" / "tflm_person_detect_int8.tflite"
    if not model.exists():
        pytest.skip(f"{model} is absent (published models live in ../shared/models)")
    # (Without --inputs-in-arena the classic plan, 55296 bytes, overflowed RAM; the
    # overlap-aware one, 36880, links either way: test_link_overflow_... covers the message.)
    args = [f"TINYAOT_MODEL={model}", "TINYAOT_GENERATOR_ARGS=--inputs-in-arena"]
    # Optimised for speed its code overflows the 256 KB of flash (Zephyr 4.0: by 2128 B); the
    # link hint measures what size saves and says that it would fit.
    _, log = zephyr.build("serial_inference", "qemu_cortex_m3", "person_detect_speed", args, check=False)
    overflow = re.search(r"region `FLASH' overflowed by (\d+) bytes", log)
    assert overflow, "expected the link to overflow FLASH; log:\n" + log[-3000:]
    saved = re.search(r"OPTIMIZE size \(CONFIG_TINYAOT_OPTIMIZE_SIZE=y, or OPTIMIZE size in tinyaot_add_model\) "
                      r"drops the specialised kernel paths: (\d+) B less code for tflm_person_detect_int8 "
                      r"\(measured: the generated C compiled both ways\), enough to fit", log)
    assert saved and int(saved.group(1)) >= int(overflow.group(1)), log[-3000:]
    build_dir, log = zephyr.build("serial_inference", "qemu_cortex_m3", "person_detect_size",
                                  args + ["CONFIG_TINYAOT_OPTIMIZE_SIZE=y"])
    plan = json.loads((build_dir / "tinyaot" / "tflm_person_detect_int8" / "tflm_person_detect_int8.json")
                      .read_text())
    assert plan["optimize"] == "size"
    with harness.open_qemu(build_dir / "zephyr" / "zephyr.elf", BOARDS["qemu_cortex_m3"],
                           description="Zephyr qemu_cortex_m3 (person_detect)") as dev:
        assert dev.info().io_ok
        mismatches, _ = dev.compare_with_tflm(model, calls=2)
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM"
    print(f"\nqemu_cortex_m3 person_detect (size, inputs in arena): {memory_regions(build_dir, log)}, "
          f"speed overflowed flash by {overflow.group(1)} B, size saves {saved.group(1)} B")


def readme_app(folder):
    """Writes the README's "A complete app" (the code block after each file name) to folder."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### A complete app"):readme.index("### Module details")]
    for name in ("CMakeLists.txt", "prj.conf", "src/main.c"):
        m = re.search(rf"^`{re.escape(name)}`\n```[a-z]*\n(.*?)^```$", section, re.M | re.S)
        assert m, f"README's complete app has no {name} block"
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(m.group(1))
    shutil.copy(HELLO_MODEL, folder / "model.tflite")
    return folder


def test_readme_app_outside_the_repository_is_bit_exact(zephyr, board):
    # Outside the repository, at a stable path (a new one would rebuild Zephyr each time).
    app = Path(tempfile.gettempdir()) / f"tinyaot-readme-app-{zephyr.build_root.name}"
    readme_app(app)
    build_dir, log = zephyr.build(app, board, "readme")
    lines = console_lines(build_dir / "zephyr" / "zephyr.elf", BOARDS[board], r"^kws:")
    got = next(_ints(l[len("kws:"):]) for l in lines if l.startswith("kws:"))
    interp = tflm_interpreter(HELLO_MODEL)
    pattern = np.array([[(11 + 37 * k) % 256 for k in range(4)]], np.uint8).view(np.int8)
    interp.set_input(pattern, 0)
    interp.invoke()
    assert got == interp.get_output(0).reshape(-1).tolist()
    assert "kws: 9 40 -35" in (REPO / "README.md").read_text()  # what the README promises
    print(f"\n{board} README app: {memory_regions(build_dir, log)}")


def test_hex_line_transport_is_bit_exact(zephyr, board):
    """The frames-as-hex-lines port Twister's pytest harness uses, over QEMU's pty."""
    skip_where_twister_covers("sample.tinyaot.serial_inference.pytest")
    from tinyaot.harness.device import Device
    from tinyaot.harness.lines import LinePort
    build_dir, _ = zephyr.build("serial_inference", board, "hex_lines",
                                ["CONFIG_SERIAL_INFERENCE_HEX_LINES=y"])
    with harness.Qemu(build_dir / "zephyr" / "zephyr.elf", BOARDS[board]) as qemu:
        port = harness.open_serial(qemu.pty)
        partial = bytearray()

        def readline(timeout):
            port.timeout = timeout
            partial.extend(port.readline())
            if not partial.endswith(b"\n"):
                return None
            line = partial.decode("ascii", "replace")
            partial.clear()
            return line
        try:
            dev = Device(LinePort(readline, port.write), description=f"Zephyr {board} (hex lines)")
            dev.sync()
            assert dev.info().name == "hello_world"
            mismatches, _ = dev.compare_with_tflm(HELLO_MODEL, calls=5)
        finally:
            port.close()
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM"
