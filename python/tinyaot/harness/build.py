"""Build the serial-runner firmware for a board and a model (CMake + Ninja).

Build folders are kept under <repo>/build/target/<board>/<model>, so a second
build of the same board and model only runs ninja, which does nothing when
nothing changed.
"""

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildError

REPO = Path(__file__).resolve().parents[3]
RUNNER_DIR = REPO / "firmware" / "serial_runner"
BOARDS_DIR = REPO / "boards" / "baremetal"
DEFAULT_BUILD_ROOT = Path(os.environ.get("TINYAOT_TARGET_BUILD_ROOT", REPO / "build" / "target"))

_TOO_BIG_RE = re.compile(r"tinyaot: model '[^']*' does not fit[^\n]*")


class ModelTooBig(BuildError):
    """The build stopped because the model cannot fit the board (message has the sizes)."""


def boards():
    """Names of the bare-metal boards."""
    return sorted(p.parent.name for p in BOARDS_DIR.glob("*/board.cmake"))


@dataclass
class Firmware:
    board: str
    name: str
    build_dir: Path
    config: dict          # firmware.json written by the firmware's CMakeLists.txt
    build_log: str = ""   # ninja output of the last build

    @property
    def elf(self):
        return Path(self.config["elf"])

    @property
    def bin(self):
        return Path(self.config["bin"])

    def model_json(self):
        """The generator's NAME.json (plan, arena, weights), or {} for test firmwares."""
        path = self.config.get("model_json")
        return json.loads(Path(path).read_text()) if path else {}

    def sizes(self):
        """flash = .text (code + rodata + weights) + .ARM.exidx + .data; ram = .data + .bss."""
        out = subprocess.run([self.config["size_tool"], "-A", str(self.elf)], check=True,
                             capture_output=True, text=True).stdout
        sec = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[0].startswith(".") and parts[1].isdigit():
                sec[parts[0]] = int(parts[1])
        text = sec.get(".text", 0) + sec.get(".ARM.exidx", 0)
        data, bss = sec.get(".data", 0), sec.get(".bss", 0)
        return {"text": text, "data": data, "bss": bss, "flash": text + data, "ram": data + bss}


def _run(cmd, what):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        log = proc.stdout
        too_big = _TOO_BIG_RE.search(log)
        if too_big:
            raise ModelTooBig(too_big.group(0))
        tail = "\n".join(log.strip().splitlines()[-25:])
        raise BuildError(f"{what} failed ({' '.join(map(str, cmd))}):\n{tail}")
    return proc.stdout


def _cached(cache_file, key):
    if not cache_file.exists():
        return None
    m = re.search(rf"^{key}:[A-Z]+=(.*)$", cache_file.read_text(), re.M)
    return m.group(1) if m else None


def build_firmware(board, model=None, name=None, test_mode=None, build_root=None,
                   cmake_args=(), jobs=None, inputs_in_arena=False, kernels="portable",
                   profile=False, weights="linked"):
    """Configure (first time only) and build; returns a Firmware.

    Either model (path to .tflite) and name (C identifier), or test_mode
    (echo, fault, garbage, hang, spin) for the runner's stand-in model.
    inputs_in_arena: generate with --inputs-in-arena (inputs share the arena).
    profile: record the counter at every operator step (Device.profile()).
    weights: "blob" generates with --weights blob, links the blob into a section
    of its own (.rodata.tinyaot_runner_blob) and binds it at start.
    kernels: the generator's kernel backend; "cmsis-nn" builds CMSIS-NN from
    TINYAOT_CMSIS_NN_DIR (environment).
    Raises ModelTooBig when the model does not fit the board, BuildError otherwise.
    """
    if board not in boards():
        raise BuildError(f"unknown board '{board}' (have: {', '.join(boards())})")
    if test_mode:
        label = f"test_{test_mode}"
        defs = {"TINYAOT_RUNNER_TEST": test_mode, "TINYAOT_MODEL": "", "TINYAOT_MODEL_NAME": ""}
    else:
        if not model or not name:
            raise ValueError("build_firmware needs model and name, or test_mode")
        label = name + ("-inputs_in_arena" if inputs_in_arena else "") + \
            ("" if kernels == "portable" else f"-{kernels}") + ("-profile" if profile else "") + \
            ("" if weights == "linked" else f"-{weights}")
        defs = {"TINYAOT_RUNNER_TEST": "", "TINYAOT_MODEL": str(Path(model).resolve()),
                "TINYAOT_MODEL_NAME": name,
                "TINYAOT_RUNNER_INPUTS_IN_ARENA": "ON" if inputs_in_arena else "OFF",
                "TINYAOT_RUNNER_KERNELS": kernels,
                "TINYAOT_RUNNER_PROFILE": "ON" if profile else "OFF",
                "TINYAOT_RUNNER_WEIGHTS": weights}
        if kernels == "cmsis-nn":
            defs["TINYAOT_CMSIS_NN_DIR"] = os.environ.get("TINYAOT_CMSIS_NN_DIR", "")
    defs["BOARD"] = board
    if shutil.which("ccache"):  # every model's firmware compiles the same runner and library sources
        defs["CMAKE_C_COMPILER_LAUNCHER"] = "ccache"
    build_dir = Path(build_root or DEFAULT_BUILD_ROOT) / board / label
    cache = build_dir / "CMakeCache.txt"
    stale = not (build_dir / "build.ninja").exists() or any(
        _cached(cache, k) != v for k, v in defs.items())
    if stale or cmake_args:
        _run(["cmake", "-G", "Ninja", "-S", str(RUNNER_DIR), "-B", str(build_dir),
              *[f"-D{k}={v}" for k, v in defs.items()], *cmake_args], "configure")
    ninja = ["ninja", "-C", str(build_dir)]
    if jobs:
        ninja += ["-j", str(jobs)]
    log = _run(ninja, f"build of {label} for {board}")
    config = json.loads((build_dir / "firmware.json").read_text())
    return Firmware(board, name or label, build_dir, config, log)
