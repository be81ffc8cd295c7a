"""CMSIS-NN for host runs of models generated with --kernels cmsis-nn.

CMSIS-NN's portable C paths build with the host's C compiler, so the same
kernels that run on the target run here against TFLM. The library comes from
the CMSIS-NN tree named by TINYAOT_CMSIS_NN_DIR (as CMake's variable of the
same name does for firmware) and is built once into a cache folder.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tinyaot.errors import TinyAotError

ENV = "TINYAOT_CMSIS_NN_DIR"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tinyaot" / "cmsis-nn-host"
FLAGS = ["-O2", "-fPIC", "-w"]  # Arm's code, not ours: its warnings are not this build's to fix
KERNEL_DIR = Path(__file__).resolve().parents[1] / "kernels"
DSP_MODEL = Path(__file__).resolve().with_name("cmsis_nn_dsp.h")


def cmsis_nn_dir():
    """The CMSIS-NN tree (has Include/arm_nnfunctions.h), or a TinyAotError saying how to name it."""
    value = os.environ.get(ENV)
    if not value:
        raise TinyAotError(f"this model uses CMSIS-NN kernels (--kernels cmsis-nn): set {ENV} to a "
                           "CMSIS-NN source tree (v7.0.0 API, github.com/ARM-software/CMSIS-NN)")
    path = Path(value).resolve()
    if not (path / "Include" / "arm_nnfunctions.h").is_file():
        raise TinyAotError(f"{ENV}={value} is not a CMSIS-NN tree (no Include/arm_nnfunctions.h)")
    return path


def compile_flags(root):
    """Flags for a generated .c that includes tinyaot_cmsis_nn.h (-isystem: its headers, its warnings)."""
    return ["-isystem", str(root / "Include")]


def dsp_flags():
    """Flags for CMSIS-NN's DSP paths on the host (the library and a generated .c of a DSP --cpu):
    cmsis_nn_dsp.h force-included, the instructions as tinyaot_acle.h's C models."""
    return ["-include", str(DSP_MODEL), "-I", str(KERNEL_DIR), "-I", str(KERNEL_DIR / "dsp")]


def host_library(cc, extra_flags=()):
    """Path of libcmsis-nn.a built from cmsis_nn_dir() with `cc` (and extra_flags, e.g. sanitizers
    or dsp_flags()), building it the first time."""
    root = cmsis_nn_dir()
    sources = sorted((root / "Source").rglob("*.c"))
    flags = [*FLAGS, *extra_flags]
    models = [DSP_MODEL, KERNEL_DIR / "dsp" / "tinyaot_acle.h"] if str(DSP_MODEL) in flags else []
    key = hashlib.sha256("\n".join([str(root), cc, *flags, *(f"{s}:{s.stat().st_mtime_ns}" for s in sources),
                                    *(f.read_text() for f in models)]).encode()).hexdigest()[:16]
    lib = CACHE / key / "libcmsis-nn.a"
    if lib.exists():
        return lib
    with tempfile.TemporaryDirectory(prefix="tinyaot-cmsis-nn-") as tmp:
        def compile_one(i_src):
            i, src = i_src
            obj = Path(tmp) / f"{i:04d}_{src.stem}.o"
            result = subprocess.run([cc, *flags, "-I", str(root / "Include"), "-c", str(src), "-o", str(obj)],
                                    capture_output=True, text=True)
            if result.returncode:
                raise TinyAotError(f"building CMSIS-NN for the host failed on {src}:\n{result.stderr.strip()}")
            return obj

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            objects = list(pool.map(compile_one, enumerate(sources)))
        staged = Path(tmp) / "libcmsis-nn.a"
        subprocess.run(["ar", "rcs", str(staged), *map(str, objects)], check=True)
        lib.parent.mkdir(parents=True, exist_ok=True)
        partial = lib.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(staged, partial)
        os.replace(partial, lib)  # atomic: a concurrent build never sees half a library
    return lib
