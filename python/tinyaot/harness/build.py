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
TFLM_RUNNER_DIR = REPO / "firmware" / "tflm_runner"
SHARED_TFLM = REPO.parent / "shared" / "third_party" / "tflite-micro"
SHARED_CMSIS_NN = REPO.parent / "shared" / "third_party" / "CMSIS-NN"
BOARDS_DIR = REPO / "boards" / "baremetal"
DEFAULT_BUILD_ROOT = Path(os.environ.get("TINYAOT_TARGET_BUILD_ROOT", REPO / "build" / "target"))

_TOO_BIG_RE = re.compile(r"tinyaot: model '[^']*' does not fit[^\n]*")
_FLASH_OVERFLOW_RE = re.compile(r"region `FLASH' overflowed by (\d+) bytes")


class ModelTooBig(BuildError):
    """The build stopped because the model cannot fit the board (message has the sizes)."""


class TflmMissing(BuildError):
    """No TFLM (or CMSIS-NN) source tree to build the TFLM firmware from (message says how to give one)."""


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

    def model_jsons(self):
        """NAME.json of every model of the firmware, in SELECT's order."""
        return [json.loads(Path(p).read_text()) for p in self.config.get("model_jsons", [])]

    def arena_group_json(self):
        """tinyaot_<group>_arena.json (the group's RAM next to separate arenas), or {} without a group."""
        path = self.config.get("arena_group_json")
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
                   profile=False, weights="linked", more_models=(), arena_group=None, optimize="speed",
                   generator_args=()):
    """Configure (first time only) and build; returns a Firmware.

    Either model (path to .tflite) and name (C identifier), or test_mode
    (echo, fault, garbage, hang, spin) for the runner's stand-in model.
    inputs_in_arena: generate with --inputs-in-arena (inputs share the arena).
    profile: record the counter at every operator step (Device.profile()).
    weights: "blob" generates with --weights blob, links the blob into a section
    of its own (.rodata.tinyaot_runner_blob) and binds it at start; "upload"
    links no blob: the model starts unbound and the host writes blobs into RAM
    and binds them (Device.load_blob).
    more_models: [(name, path)] of models linked in after the first, served after
    Device.select(1), (2), ...; arena_group: all the models share the arena of
    this group (--shared-arena).
    kernels: the generator's kernel backend; "cmsis-nn" builds CMSIS-NN from
    cmsis_nn_dir(). optimize: the generator's --optimize (speed or size). generator_args:
    more tinyaot compile options for every model (e.g. ["--cmsis-nn-lstm=step"]).
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
            ("" if kernels == "portable" else f"-{kernels}") + ("" if optimize == "speed" else f"-{optimize}") + \
            ("-profile" if profile else "") + "".join(re.sub(r"\W+", "_", a).rstrip("_") for a in generator_args) + \
            ("" if weights == "linked" else f"-{weights}") + \
            "".join(f"+{n}" for n, _ in more_models) + (f"-group_{arena_group}" if arena_group else "")
        defs = {"TINYAOT_RUNNER_TEST": "", "TINYAOT_MODEL": str(Path(model).resolve()),
                "TINYAOT_MODEL_NAME": name,
                "TINYAOT_RUNNER_INPUTS_IN_ARENA": "ON" if inputs_in_arena else "OFF",
                "TINYAOT_RUNNER_KERNELS": kernels,
                "TINYAOT_RUNNER_OPTIMIZE": optimize,
                "TINYAOT_RUNNER_PROFILE": "ON" if profile else "OFF",
                "TINYAOT_RUNNER_WEIGHTS": weights,
                "TINYAOT_RUNNER_MORE_MODELS": ";".join(f"{n}={Path(m).resolve()}" for n, m in more_models),
                "TINYAOT_RUNNER_ARENA_GROUP": arena_group or "",
                "TINYAOT_RUNNER_GENERATOR_ARGS": ";".join(generator_args)}
        if kernels == "cmsis-nn":
            defs["TINYAOT_CMSIS_NN_DIR"] = str(cmsis_nn_dir() or "")
    defs["BOARD"] = board
    return _build(RUNNER_DIR, Path(build_root or DEFAULT_BUILD_ROOT) / board / label, defs,
                  f"build of {label} for {board}", board, name or label, cmake_args, jobs)


def _build(source_dir, build_dir, defs, what, board, name, cmake_args=(), jobs=None, languages=("C",)):
    """Configures build_dir from source_dir when new or when a definition changed, runs
    ninja, returns the Firmware described by its firmware.json."""
    if shutil.which("ccache"):  # every model's firmware compiles the same runner and library sources
        defs = {**defs, **{f"CMAKE_{lang}_COMPILER_LAUNCHER": "ccache" for lang in languages}}
    cache = build_dir / "CMakeCache.txt"
    stale = not (build_dir / "build.ninja").exists() or any(
        _cached(cache, k) != v for k, v in defs.items())
    if stale or cmake_args:
        _run(["cmake", "-G", "Ninja", "-S", str(source_dir), "-B", str(build_dir),
              *[f"-D{k}={v}" for k, v in defs.items()], *cmake_args], "configure")
    ninja = ["ninja", "-C", str(build_dir)]
    if jobs:
        ninja += ["-j", str(jobs)]
    log = _run(ninja, what)
    config_file = build_dir / "firmware.json"
    config = json.loads(config_file.read_text()) if config_file.exists() else {}
    return Firmware(board, name, build_dir, config, log)


def tflm_dir():
    """TFLM's source tree: TINYAOT_TFLM_DIR, else the copy in ../shared/third_party; None if neither."""
    path = os.environ.get("TINYAOT_TFLM_DIR") or (str(SHARED_TFLM) if SHARED_TFLM.is_dir() else None)
    return Path(path) if path else None


def cmsis_nn_dir():
    """CMSIS-NN's source tree: TINYAOT_CMSIS_NN_DIR, else the copy in ../shared/third_party; None if neither."""
    path = os.environ.get("TINYAOT_CMSIS_NN_DIR") or (str(SHARED_CMSIS_NN) if SHARED_CMSIS_NN.is_dir() else None)
    return Path(path) if path else None


def build_tflm_firmware(board, model, name, kernels="reference", build_root=None, jobs=2, cpu_board=None):
    """The TFLM firmware (firmware/tflm_runner) of a model: TFLM's interpreter behind the
    serial runner. kernels: "reference" or "cmsis-nn" (TFLM's CMSIS-NN kernels). TFLM's
    core is built once per board under build_root/<board>/tflm-core and shared.
    cpu_board: compile with that board's CPU flags instead of `board`'s (TINYAOT_CPU_BOARD;
    built under build_root/<board>-cpu_<cpu_board>).

    Raises TflmMissing without a TFLM tree (or CMSIS-NN for cmsis-nn), ModelTooBig when
    the firmware overflows the board's flash, BuildError otherwise. A model whose tensors
    do not fit the board's RAM builds, and says so at start (Device.info()).
    """
    for b in (board, cpu_board or board):
        if b not in boards():
            raise BuildError(f"unknown board '{b}' (have: {', '.join(boards())})")
    tflm = tflm_dir()
    if tflm is None:
        raise TflmMissing(f"no TFLM source tree: set TINYAOT_TFLM_DIR to a tflite-micro tree"
                          f" (github.com/tensorflow/tflite-micro) or provide {SHARED_TFLM}")
    root = Path(build_root or DEFAULT_BUILD_ROOT) / (f"{board}-cpu_{cpu_board}" if cpu_board else board)
    defs = {"BOARD": board, "TINYAOT_TFLM_DIR": str(tflm), "TINYAOT_CPU_BOARD": cpu_board or ""}
    core = _build(TFLM_RUNNER_DIR / "core", root / "tflm-core", dict(defs), f"TFLM core for {board}",
                  board, "tflm-core", jobs=jobs, languages=("CXX",))
    defs.update(TINYAOT_MODEL=str(Path(model).resolve()), TINYAOT_MODEL_NAME=name,
                TINYAOT_TFLM_KERNELS=kernels, TINYAOT_TFLM_CORE_LIB=str(core.build_dir / "libtflm_core.a"))
    if kernels == "cmsis-nn":
        cmsis = cmsis_nn_dir()
        if cmsis is None:
            raise TflmMissing(f"no CMSIS-NN source tree for TFLM's CMSIS-NN kernels: set TINYAOT_CMSIS_NN_DIR"
                              f" or provide {SHARED_CMSIS_NN}")
        defs["TINYAOT_CMSIS_NN_DIR"] = str(cmsis)
    label = f"{name}-tflm-{kernels}"
    try:
        return _build(TFLM_RUNNER_DIR, root / label, defs, f"build of {label} for {board}", board, name,
                      jobs=jobs, languages=("C", "CXX"))
    except BuildError as exc:
        overflow = _FLASH_OVERFLOW_RE.search(str(exc))
        if overflow:
            raise ModelTooBig(f"TFLM ({kernels}) with {name} overflows the flash of {board}"
                              f" by {overflow.group(1)} B") from None
        raise


def failure_reason(log):
    """The lines of a build log that say what went wrong (generator, compiler and
    CMake errors, with CMake's indented message, the linker's overflow), not ninja's closing line."""
    lines = log.strip().splitlines()
    picked = []
    for i, line in enumerate(lines):
        if line.startswith("CMake Error"):
            picked.append(line.strip())
            picked += [l.strip() for l in lines[i + 1:i + 6] if l.startswith("  ") and l.strip()]
        elif re.search(r"\berror\b|overflow|undefined reference", line, re.I) and not line.startswith("ninja:"):
            picked.append(re.sub(r"^\S*/ld: ", "ld: ", line.strip()))
    return " | ".join(dict.fromkeys(picked)) if picked else lines[-1]
