"""Helpers of the Zephyr lane: find a Zephyr tree, build samples with it."""

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
BUILD_ROOT = REPO / "build" / "zephyr"

# QEMU machine options of Zephyr's QEMU boards (their board.cmake), for the
# shared harness which starts QEMU itself with the UART on a pty.
BOARDS = {
    "qemu_cortex_m0": ["-cpu", "cortex-m0", "-machine", "microbit"],
    "qemu_cortex_m3": ["-cpu", "cortex-m3", "-machine", "lm3s6965evb"],
}

ENABLE_HINT = ("set ZEPHYR_BASE to a Zephyr tree, 3.5.0 or 4.0.0 (west init -l tinyaot && "
               "west update from west.yml, then ZEPHYR_BASE=<workspace>/zephyr; README, Two "
               "ways in), or put Zephyr 4.0's workspace archive in ../shared/zephyr for "
               "scripts/test.sh; and ZEPHYR_TOOLCHAIN_VARIANT or an arm-none-eabi-gcc on PATH")

# Python modules this lane needs in the interpreter running it (which also
# builds Zephyr and runs the generator): module -> pip package.
LANE_PACKAGES = {"numpy": "numpy", "tflite": "tflite", "jinja2": "jinja2",
                 "serial": "pyserial", "tflite_micro": "tflite-micro",
                 "yaml": "pyyaml", "elftools": "pyelftools"}


ALL_ENV = "TINYAOT_ZEPHYR_ALL"


def skip_where_twister_covers(scenario):
    """Twister runs `scenario` on both boards in every CI run (test_twister.py): the lane's
    own copy of that check runs only with TINYAOT_ZEPHYR_ALL=1 (CI's time budget)."""
    if os.environ.get(ALL_ENV) != "1":
        pytest.skip(f"Twister's {scenario} checks this in every run; {ALL_ENV}=1 repeats it here")


def lane_skip_reason():
    """Why the lane cannot run here (no Zephyr tree, Python packages missing), or None."""
    if find_zephyr_base() is None:
        return f"Zephyr lane needs a Zephyr tree: {ENABLE_HINT}"
    missing = [pip for mod, pip in LANE_PACKAGES.items() if importlib.util.find_spec(mod) is None]
    if missing:
        return (f"the Zephyr lane needs Python packages {sys.executable} lacks: "
                f"{sys.executable} -m pip install {' '.join(missing)}")
    return None


def _west_topdir(start):
    for d in [start, *start.parents]:
        if (d / ".west").is_dir():
            return d
    return None


def find_zephyr_base():
    env = os.environ.get("ZEPHYR_BASE")
    if env:
        return Path(env) if (Path(env) / "VERSION").exists() else None
    top = _west_topdir(REPO) or _west_topdir(REPO.parent)
    if top and (top / "zephyr" / "VERSION").exists():
        return top / "zephyr"
    return None


def _west_projects(zephyr_base):
    """Absolute paths of the west projects around ZEPHYR_BASE ([] without west)."""
    if not shutil.which("west"):
        return []
    proc = subprocess.run(["west", "list", "-f", "{abspath}"], cwd=zephyr_base,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return []
    return [Path(p).resolve() for p in proc.stdout.split()]


class ZephyrEnv:
    def __init__(self, base):
        self.base = base
        self.env = dict(os.environ, ZEPHYR_BASE=str(base))
        if "ZEPHYR_TOOLCHAIN_VARIANT" not in self.env:
            gcc = shutil.which("arm-none-eabi-gcc")
            if gcc:
                # Debian's toolchain: gnuarmemb wants the prefix holding bin/.
                self.env["ZEPHYR_TOOLCHAIN_VARIANT"] = "gnuarmemb"
                self.env["GNUARMEMB_TOOLCHAIN_PATH"] = str(Path(gcc).resolve().parent.parent)
        # Zephyr finds its modules through west; when this checkout is not one
        # of the workspace's projects, name it explicitly.
        self.in_workspace = REPO.resolve() in _west_projects(base)
        self.extra = [] if self.in_workspace else [f"-DZEPHYR_EXTRA_MODULES={REPO}"]
        version = (base / "VERSION").read_text()
        self.version = ".".join(re.search(rf"{k} = (\d+)", version).group(1)
                                for k in ("VERSION_MAJOR", "VERSION_MINOR", "PATCHLEVEL"))
        # Zephyr builds with this interpreter, the one whose packages were checked.
        self.extra.append(f"-DPython3_EXECUTABLE={sys.executable}")
        # One build folder per Zephyr tree: a build made with another ZEPHYR_BASE
        # must never be reused (its binaries would pass for this tree's).
        tree = hashlib.sha1(str(base.resolve()).encode()).hexdigest()[:8]
        self.build_root = BUILD_ROOT / f"{self.version}-{tree}"

    def build(self, sample, board, label, cmake_args=(), check=True):
        """cmake + ninja a sample (a name under samples/, or an app's folder); returns
        (build dir, ninja log). Raises on failure with the log's tail unless check
        is False (then returns the failing log)."""
        source = SAMPLES / sample
        build_dir = self.build_root / source.name / board / label
        args = [f"-D{a}" for a in cmake_args]
        stamp = build_dir / "tinyaot_args.txt"
        wanted = "\n".join([*args, *self.extra])
        # Reconfigure from scratch when the arguments change: Zephyr caches a lot.
        if not (build_dir / "build.ninja").exists() or not stamp.exists() \
                or stamp.read_text() != wanted:
            shutil.rmtree(build_dir, ignore_errors=True)
            build_dir.mkdir(parents=True)
            proc = subprocess.run(["cmake", "-G", "Ninja", "-S", str(source),
                                   "-B", str(build_dir), f"-DBOARD={board}", *args, *self.extra],
                                  env=self.env, capture_output=True, text=True)
            if proc.returncode != 0:
                if check:
                    pytest.fail(f"configure of {sample} for {board} failed:\n"
                                + _tail(proc.stdout + proc.stderr))
                return build_dir, proc.stdout + proc.stderr
            stamp.write_text(wanted)
        proc = subprocess.run(["ninja", "-C", str(build_dir)], env=self.env,
                              capture_output=True, text=True)
        log = proc.stdout + proc.stderr
        if proc.returncode != 0 and check:
            pytest.fail(f"build of {sample} for {board} failed:\n" + _tail(log))
        return build_dir, log

    def target(self, build_dir, name):
        proc = subprocess.run(["ninja", "-C", str(build_dir), name], env=self.env,
                              capture_output=True, text=True)
        assert proc.returncode == 0, _tail(proc.stdout + proc.stderr)
        return proc.stdout


def _tail(text, n=30):
    lines = [l for l in text.splitlines() if "orphan section" not in l]
    return "\n".join(lines[-n:])


_REGION_RE = re.compile(r"^\s*(FLASH|RAM):\s+(\d+) B\s+(\d+) (KB|MB|B)", re.M)


def memory_regions(build_dir, log):
    """{'FLASH': used bytes, 'RAM': used bytes} from the linker's "Memory region"
    table; kept in the build dir, as a no-op rebuild prints no table."""
    saved = build_dir / "tinyaot_memory.txt"
    found = {m.group(1): int(m.group(2)) for m in _REGION_RE.finditer(log)}
    if found:
        saved.write_text(" ".join(f"{k}={v}" for k, v in sorted(found.items())))
        return found
    if saved.exists():
        return {k: int(v) for k, v in (kv.split("=") for kv in saved.read_text().split())}
    return {}
