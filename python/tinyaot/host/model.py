"""Runs a generated model on the host: compile its folder with the system C
compiler into a shared library and call it from Python with numpy arrays."""

import ctypes
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from tinyaot.host import cmsis_nn as cmsis_nn_host
from tinyaot.errors import TinyAotError

WARNING_FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
SANITIZE_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
_NP_DTYPES = {0: np.int8, 1: np.int16, 2: np.int32, 3: np.float32, 4: np.uint8, 5: np.bool_,
              6: np.int64, 7: np.uint32}
_MAX_RANK = 6


class _TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int), ("rank", ctypes.c_uint32),
                ("shape", ctypes.c_int32 * _MAX_RANK), ("size_bytes", ctypes.c_uint32),
                ("scale", ctypes.c_float), ("zero_point", ctypes.c_int32)]


_RunFn = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))


class _Model(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("generator_version", ctypes.c_char_p), ("run", _RunFn),
                ("reset", ctypes.CFUNCTYPE(None)), ("num_inputs", ctypes.c_uint32),
                ("num_outputs", ctypes.c_uint32), ("inputs", ctypes.POINTER(_TensorInfo)),
                ("outputs", ctypes.POINTER(_TensorInfo)), ("arena_size", ctypes.c_uint32),
                ("state_size", ctypes.c_uint32),
                ("input_buffer", ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint32))]


def build_shared_library(out_dir, name, dest, sanitize=False, cc=None, also=()):
    """Compiles <out_dir>/<name>.c (and the models named in `also`, and the arena
    of the model's arena group if it has one) into a shared library at `dest`
    (with CMSIS-NN when the model was generated with --kernels cmsis-nn)."""
    cc = cc or os.environ.get("CC", "cc")
    library, archive = [], []
    if (Path(out_dir) / "tinyaot_cmsis_nn.h").exists():
        library = cmsis_nn_host.compile_flags(cmsis_nn_host.cmsis_nn_dir())
        archive = [str(cmsis_nn_host.host_library(cc))]
    # Sanitized at -O0: gcc optimising instrumented code costs up to 30x the compile time (an M55
    # model: 47 s at -O1 -g, 1.4 s at -O0 -g) for runs of a second, and -O0 keeps every access
    # checked. Unsanitized at -O1, whose -Werror sees the optimiser's warnings too.
    optimize = "-O0" if sanitize else "-O1"
    cmd = [cc, *WARNING_FLAGS, optimize, "-g", "-shared", "-fPIC", *(SANITIZE_FLAGS if sanitize else []),
           "-I", str(out_dir), *library, *[str(Path(out_dir) / f"{n}.c") for n in (name, *also)],
           *_group_sources(out_dir, name), *archive, "-lm", "-o", str(dest)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        raise TinyAotError(f"C compiler failed on {out_dir}/{name}.c:\n{result.stderr.strip()}")
    return dest


def _group_sources(out_dir, name):
    plan = Path(out_dir) / f"{name}.json"
    group = json.loads(plan.read_text()).get("arena_group") if plan.exists() else None
    return [str(Path(out_dir) / f"tinyaot_{group}_arena.c")] if group else []


class HostModel:
    """A generated model loaded into this process.

    The seeds' module interface: set_input(i, array), run(), get_output(i).
    With zero_copy, inputs that the model keeps in its arena are written there
    directly (through input_buffer()), as firmware short of RAM would do;
    otherwise run() copies them in from this object's own buffers.
    """

    def __init__(self, out_dir, name, sanitize=False, zero_copy=True, also=(), library=None):
        """also: other models of out_dir compiled into the same library (an arena
        group); library: an already loaded library holding this model (a sibling's)."""
        self._tmp = tempfile.mkdtemp(prefix="tinyaot-host-")
        if library is None:
            library = ctypes.CDLL(str(build_shared_library(out_dir, name, Path(self._tmp) / f"lib{name}.so",
                                                           sanitize, also=also)))
        self._lib = library
        self._desc = _Model.in_dll(self._lib, f"tinyaot_{name}_model")
        self._bind = None
        blob_path = Path(out_dir) / f"{name}.weights.bin"
        if blob_path.exists():
            self._bind = getattr(self._lib, f"tinyaot_{name}_bind_weights")
            self._bind.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            self._bind.restype = ctypes.c_int32
            status = self.bind_weights(blob_path.read_bytes())
            if status != 0:
                raise TinyAotError(f"bind_weights() refused {blob_path}: {status}")
        self.inputs = [self._info(self._desc.inputs[i]) for i in range(self._desc.num_inputs)]
        self.outputs = [self._info(self._desc.outputs[i]) for i in range(self._desc.num_outputs)]
        self.arena_size = self._desc.arena_size
        self._in = [self._input_array(i, spec, zero_copy) for i, spec in enumerate(self.inputs)]
        self._out = [np.zeros(o["shape"], o["dtype"]) for o in self.outputs]
        self._in_ptrs = (ctypes.c_void_p * len(self._in))(*[a.ctypes.data for a in self._in])
        self._out_ptrs = (ctypes.c_void_p * len(self._out))(*[a.ctypes.data for a in self._out])

    def _input_array(self, index, spec, zero_copy):
        address = self._desc.input_buffer(index) if zero_copy else None
        if not address:
            return np.zeros(spec["shape"], spec["dtype"])
        raw = (ctypes.c_uint8 * spec["bytes"]).from_address(address)
        return np.frombuffer(raw, dtype=spec["dtype"]).reshape(spec["shape"])

    @staticmethod
    def _info(info):
        return {"name": info.name.decode(), "dtype": _NP_DTYPES[info.dtype],
                "shape": tuple(info.shape[:info.rank]), "bytes": info.size_bytes,
                "scale": info.scale, "zero_point": info.zero_point}

    def set_input(self, index, array):
        spec = self.inputs[index]
        array = np.asarray(array)
        if array.dtype != spec["dtype"] or array.size != self._in[index].size:
            raise TinyAotError(f"input {index} ('{spec['name']}') needs {self._in[index].size} values of "
                               f"{np.dtype(spec['dtype']).name}, got {array.size} of {array.dtype}")
        self._in[index][...] = array.reshape(self._in[index].shape)

    def bind_weights(self, data, offset=0):
        """Hands a blob (bytes, kept alive here) to bind_weights(), at `offset` bytes
        past an aligned address (to test the alignment check); None means NULL."""
        if data is None:
            return self._bind(None, 0)
        self._blob = ctypes.create_string_buffer(bytes(data) if offset == 0 else b"\0" * offset + bytes(data))
        return self._bind(ctypes.addressof(self._blob) + offset, len(data))

    def run(self):
        status = self._desc.run(self._in_ptrs, self._out_ptrs)
        if status != 0:
            raise TinyAotError(f"run() returned {status}")

    def get_output(self, index):
        return self._out[index].copy()

    def reset(self):
        self._desc.reset()

    def sibling(self, out_dir, name, zero_copy=True):
        """Another model compiled into this library (see `also`)."""
        return HostModel(out_dir, name, zero_copy=zero_copy, library=self._lib)

    def close(self):
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
