"""How much flash a model generated for speed would save with OPTIMIZE size, measured:
its generated <name>.c compiled with the build's own command (compile_commands.json)
as it is and with TINYAOT_PIXEL_PAIRS 0, which is what --optimize size generates
(tests/host/test_optimize_size.py checks that the two compile to the same code).

Standard library only: link_hint.py runs it with whatever Python the build found.
"""

import json
import os
import shlex
import struct
import subprocess
import tempfile

# Dependency-file options: the measurement must not rewrite the build's .d files.
_DEPFILE_FLAGS = {"-MD", "-MMD"}
_DEPFILE_FLAGS_WITH_VALUE = {"-MF", "-MT", "-MQ"}
SHF_ALLOC, SHT_NOBITS = 0x2, 8


def flash_bytes(obj):
    """Bytes an ELF object file puts in flash: its allocated sections that hold data
    (code, constants, initialised data), not .bss and the like."""
    with open(obj, "rb") as f:
        data = f.read()
    wide = data[4] == 2  # ELFCLASS64
    end = "<" if data[5] == 1 else ">"
    if wide:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x2E)
    total = 0
    for k in range(shnum):
        at = shoff + k * shentsize
        if wide:
            sh_type, sh_flags = struct.unpack_from(end + "IQ", data, at + 4)
            sh_size, = struct.unpack_from(end + "Q", data, at + 32)
        else:
            sh_type, sh_flags = struct.unpack_from(end + "II", data, at + 4)
            sh_size, = struct.unpack_from(end + "I", data, at + 20)
        if sh_flags & SHF_ALLOC and sh_type != SHT_NOBITS:
            total += sh_size
    return total


def compile_command(build_dir, c_file):
    """(arguments, directory) compiling c_file in build_dir's compile_commands.json, or None."""
    try:
        with open(os.path.join(build_dir, "compile_commands.json")) as f:
            entries = json.load(f)
    except (OSError, ValueError):
        return None
    for e in entries:
        if os.path.realpath(os.path.join(e["directory"], e["file"])) == os.path.realpath(c_file):
            return e.get("arguments") or shlex.split(e["command"]), e["directory"]
    return None


def _object_flash(args, directory, out, extra):
    """flash_bytes of the object args compile, written to `out` instead (no dependency file)."""
    kept, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in _DEPFILE_FLAGS:
            continue
        elif a in _DEPFILE_FLAGS_WITH_VALUE or a == "-o":
            skip = True
        else:
            kept.append(a)
    proc = subprocess.run(kept + extra + ["-o", out], cwd=directory, capture_output=True, text=True)
    return flash_bytes(out) if proc.returncode == 0 else None


def saving(build_dir, c_file):
    """Flash bytes OPTIMIZE size saves on c_file (generated for speed), or None if not measurable."""
    found = compile_command(build_dir, c_file)
    if found is None:
        return None
    args, directory = found
    with tempfile.TemporaryDirectory() as tmp:
        speed = _object_flash(args, directory, os.path.join(tmp, "speed.o"), [])
        size = _object_flash(args, directory, os.path.join(tmp, "size.o"), ["-DTINYAOT_PIXEL_PAIRS=0"])
    return None if speed is None or size is None else speed - size
