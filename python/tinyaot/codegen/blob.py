"""Weights kept apart from code: the blob's layout, header and architecture id.

With `--weights blob` every constant derived from weight, bias or quantization
tables (weight tensors, folded biases, per-channel multipliers and shifts, any
ParamArray) is placed in one payload instead of C arrays; the generated code
reads it through the pointer tinyaot_<name>_bind_weights() checked and stored.

Header (32 bytes, little-endian): magic "TAOW", format version, architecture
id (8 bytes), payload size, CRC-32 of the payload, 8 zero bytes. The payload
follows; every entry starts at a multiple of ENTRY_ALIGNMENT from the payload
(so int32 tables stay aligned when the blob is).
"""

import hashlib
import struct
import zlib

import numpy as np

MAGIC = b"TAOW"
VERSION = 1
HEADER_SIZE = 32
ENTRY_ALIGNMENT = 4
_HEADER = struct.Struct("<4sI8sII8x")


class BlobLayout:
    """Entries of the payload in the order they are added."""

    def __init__(self):
        self.entries = []  # (symbol, ctype, offset, bytes)
        self._chunks = []
        self.size = 0

    def add(self, symbol, ctype, values):
        """Places `values` (already of ctype's numpy dtype); returns the payload offset."""
        data = np.ascontiguousarray(values).astype(np.asarray(values).dtype.newbyteorder("<")).tobytes()
        pad = -self.size % ENTRY_ALIGNMENT
        self._chunks.append(b"\0" * pad + data)
        offset = self.size + pad
        self.entries.append((symbol, ctype, offset, len(data)))
        self.size = offset + len(data)
        return offset

    def payload(self):
        return b"".join(self._chunks)


def architecture_id(code_text):
    """8 bytes naming everything the generated code is specialised on: its text
    with the weights taken out (rendered without the source file's name)."""
    return hashlib.sha256(code_text.encode()).digest()[:8]


def blob_bytes(arch_id, payload):
    return _HEADER.pack(MAGIC, VERSION, arch_id, len(payload), zlib.crc32(payload)) + payload


def read_header(data):
    """(magic, version, arch id, payload size, crc) of a blob's header."""
    return _HEADER.unpack_from(data)


def c_bytes(data):
    """A C initialiser for bytes (the architecture id)."""
    return ", ".join(f"0x{b:02x}" for b in data)
