"""Host side of the serial-runner protocol: a Device talks to one firmware.

The device is any pyserial port: a QEMU pseudo-terminal or a real board's
/dev/ttyACM0 are opened and used the same way.
"""

import struct
import time
from dataclasses import dataclass, field

import numpy as np

from . import protocol as P
from .errors import DeviceError, DeviceFault, DeviceTimeout, ProtocolError

# tinyaot_dtype (tinyaot.h) -> numpy
DTYPES = {0: np.int8, 1: np.int16, 2: np.int32, 3: np.float32, 4: np.uint8, 5: np.bool_,
          6: np.int64, 7: np.uint32}

# How long the line must stay quiet before unexpected bytes are judged.
_GARBAGE_QUIET_S = 0.3


@dataclass
class TensorInfo:
    name: str
    dtype: type
    shape: tuple
    size_bytes: int
    scale: float
    zero_point: int


@dataclass
class ModelInfo:
    protocol_version: int
    name: str
    generator_version: str
    arena_size: int
    state_size: int
    io_buffer_size: int
    io_needed: int
    io_ok: bool
    cycles_hz: int
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)


@dataclass
class RunFigures:
    status: int
    cycles: int        # counter ticks spent in run() (SysTick at the core clock)
    stack_bytes: int   # stack high-water mark of run()
    instructions: int = None  # under QEMU -icount: exact-ish instruction count


@dataclass
class StepProfile:
    cycles: list            # counter ticks per operator step (profile hook taken out)
    hook_cycles: int        # ticks of one hook call
    instructions: list = None  # the same as instructions under QEMU -icount
    hook_instructions: int = None


class Device:
    """Speaks the protocol over `port`, an open pyserial.Serial (or alike).

    icount_shift: set when the device is QEMU with -icount shift=N, to turn
    SysTick ticks into instruction counts.
    """

    def __init__(self, port, timeout=5.0, run_timeout=60.0, icount_shift=None, description="device"):
        self.port = port
        self.timeout = timeout
        self.run_timeout = run_timeout
        self.icount_shift = icount_shift
        self.description = description
        self._info = None

    # --- framing -----------------------------------------------------------

    def _read_exact(self, n, deadline, what):
        data = bytearray()
        while len(data) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DeviceTimeout(
                    f"timeout: {self.description} sent {len(data)} of {n} bytes of {what}"
                    f" and then nothing: {bytes(data)[:64]!r}")
            self.port.timeout = min(left, 0.5)
            data += self.port.read(n - len(data))
        return bytes(data)

    def _judge_garbage(self, first):
        """Unexpected bytes: collect until the line is quiet, then say what they were."""
        data = bytearray(first)
        quiet_until = time.monotonic() + _GARBAGE_QUIET_S
        while time.monotonic() < quiet_until and len(data) < 4096:
            self.port.timeout = 0.05
            chunk = self.port.read(256)
            if chunk:
                data += chunk
                quiet_until = time.monotonic() + _GARBAGE_QUIET_S
        text = bytes(data)
        pos = text.find(b"FATAL:")
        if pos >= 0:
            line = text[pos:].split(b"\n")[0].strip().decode("ascii", "replace")
            raise DeviceFault(f"{self.description} crashed: {line}")
        raise ProtocolError(f"garbage on the serial line from {self.description}"
                            f" ({len(text)} bytes, no frame): {text[:80]!r}")

    def _receive(self, request, timeout):
        deadline = time.monotonic() + timeout
        name = P.COMMAND_NAMES.get(request, hex(request))
        first = b""
        while not first:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DeviceTimeout(f"timeout: no answer from {self.description} to {name}"
                                    f" within {timeout:g} s (hung?)")
            self.port.timeout = min(left, 0.5)
            first = self.port.read(1)
        if first != P.SYNC[:1]:
            self._judge_garbage(first)
        second = self._read_exact(1, deadline, f"the {name} answer")
        if second != P.SYNC[1:]:
            self._judge_garbage(first + second)
        head = self._read_exact(3, deadline, f"the {name} answer")
        ftype, length = struct.unpack("<BH", head)
        if length > P.MAX_PAYLOAD:
            raise ProtocolError(f"frame from {self.description} claims {length} bytes"
                                f" (max {P.MAX_PAYLOAD}): corrupted header {head!r}")
        rest = self._read_exact(length + 2, deadline, f"the {name} answer")
        payload, (crc,) = rest[:-2], struct.unpack("<H", rest[-2:])
        if P.crc16(head + payload) != crc:
            raise ProtocolError(f"bad CRC in the {name} answer from {self.description}"
                                f" (noise or a lost byte on the line)")
        if ftype == P.MSG_ERROR:
            code = payload[0] if payload else 0
            message = payload[2:].decode("ascii", "replace")
            raise DeviceError(f"{self.description} rejected {name}:"
                              f" {P.ERROR_NAMES.get(code, code)}: {message}")
        if ftype == P.CMD_INFO | P.RESPONSE and request != P.CMD_INFO:
            # A late answer to one of sync()'s repeated INFOs (start-up slower than its attempts,
            # e.g. on a loaded machine): INFO changes nothing on the device, so it is skipped.
            return self._receive(request, max(deadline - time.monotonic(), 0.01))
        if ftype != request | P.RESPONSE:
            raise ProtocolError(f"{self.description} answered {name} with frame type"
                                f" {ftype:#04x}, expected {request | P.RESPONSE:#04x}")
        return payload

    def request(self, command, payload=b"", timeout=None):
        self.port.write(P.encode_frame(command, payload))
        self.port.flush()
        return self._receive(command, self.timeout if timeout is None else timeout)

    def _drain(self, quiet=0.2):
        """Discards late answers to earlier attempts until the line is quiet."""
        self.port.timeout = quiet
        while self.port.read(4096):
            pass

    def sync(self, timeout=10.0, attempt_timeout=0.5):
        """Waits until the device answers INFO.

        Bytes sent while the firmware is still booting (or before a pty is
        connected) can be lost, leaving the device inside a half frame; a
        repeated request completes or resynchronises it.
        """
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                # Late answers to an earlier attempt would look like garbage.
                self._drain(0.05)
                self.port.write(P.encode_frame(P.CMD_INFO))
                self.port.flush()
                self._receive(P.CMD_INFO, attempt_timeout)
                self._drain()
                return
            except DeviceFault:
                raise
            except (DeviceTimeout, DeviceError, ProtocolError) as exc:
                last = exc
        raise DeviceTimeout(f"timeout: {self.description} did not answer within {timeout:g} s"
                            f" after start-up (last: {last})")

    # --- commands ----------------------------------------------------------

    @staticmethod
    def _string(data, pos):
        n = data[pos]
        return data[pos + 1:pos + 1 + n].decode("utf-8", "replace"), pos + 1 + n

    def _tensor(self, direction, index):
        p = self.request(P.CMD_TENSOR, bytes([direction, index]))
        dtype, rank, _, size, scale, zp = struct.unpack_from("<BBHIfi", p, 0)
        shape = struct.unpack_from(f"<{rank}i", p, 16)
        name, _ = self._string(p, 16 + 4 * rank)
        return TensorInfo(name, DTYPES[dtype], tuple(shape), size, scale, zp)

    def info(self, refresh=False):
        """Model name, tensors, arena; cached after the first call."""
        if self._info is not None and not refresh:
            return self._info
        p = self.request(P.CMD_INFO)
        version, n_in, n_out, io_ok = p[0], p[1], p[2], p[3]
        arena, state, io_size, io_needed, hz = struct.unpack_from("<5I", p, 4)
        name, pos = self._string(p, 24)
        gen, _ = self._string(p, pos)
        info = ModelInfo(version, name, gen, arena, state, io_size, io_needed, bool(io_ok), hz)
        info.inputs = [self._tensor(0, i) for i in range(n_in)]
        info.outputs = [self._tensor(1, i) for i in range(n_out)]
        self._info = info
        return info

    def set_input(self, index, array):
        t = self.info().inputs[index]
        data = np.ascontiguousarray(array, dtype=t.dtype).tobytes()
        if len(data) != t.size_bytes:
            raise ValueError(f"input {index} ({t.name}) takes {t.size_bytes} bytes,"
                             f" got {len(data)}")
        chunk = P.MAX_PAYLOAD - 5
        for off in range(0, len(data), chunk):
            self.request(P.CMD_WRITE_INPUT,
                         struct.pack("<BI", index, off) + data[off:off + chunk])

    def _instructions(self, cycles):
        """Counter ticks as instructions under QEMU -icount (None on a real board)."""
        if self.icount_shift is None or not self.info().cycles_hz:
            return None
        # QEMU -icount: virtual time advances 2**shift ns per instruction.
        ns = cycles * 1e9 / self.info().cycles_hz
        return int(round(ns / (1 << self.icount_shift)))

    def run(self):
        p = self.request(P.CMD_RUN, timeout=self.run_timeout)
        status, lo, hi, stack = struct.unpack("<iIII", p)
        cycles = lo | (hi << 32)
        return RunFigures(status, cycles, stack, self._instructions(cycles))

    def profile(self):
        """Per operator step of the last run: [counter ticks], the ticks of one profile
        hook call (already taken out of each step), and the same as instructions
        under QEMU (else None). Empty when the firmware was built without the profile."""
        steps, hook, ticks = None, 0, []
        while steps is None or len(ticks) < steps:
            p = self.request(P.CMD_PROFILE, struct.pack("<H", len(ticks)))
            steps, hook = struct.unpack_from("<HI", p, 0)
            chunk = struct.unpack_from(f"<{(len(p) - 6) // 4}I", p, 6)
            if not chunk and len(ticks) < steps:
                raise ProtocolError(f"{self.description}: PROFILE sent no figures from step {len(ticks)}")
            ticks += chunk
        to_instr = self._instructions
        return StepProfile(ticks, hook, None if to_instr(0) is None else [to_instr(t) for t in ticks],
                           to_instr(hook))

    def get_output(self, index):
        t = self.info().outputs[index]
        data = bytearray()
        while len(data) < t.size_bytes:
            n = min(P.MAX_PAYLOAD, t.size_bytes - len(data))
            data += self.request(P.CMD_READ_OUTPUT, struct.pack("<BIH", index, len(data), n))
        return np.frombuffer(bytes(data), dtype=t.dtype).reshape(t.shape).copy()

    def reset(self):
        self.request(P.CMD_RESET)

    def select(self, index):
        """Serve model `index` of a firmware with several (its I/O tensors zeroed); returns how many it has."""
        count = self.request(P.CMD_SELECT, bytes([index]))[0]
        self._info = None
        return count

    # --- weights blobs (a runner built with weights "upload" or "blob") ---

    def blob_capacity(self):
        """Bytes of RAM the runner keeps for a blob (what the I/O tensors leave)."""
        return struct.unpack("<I", self.request(P.CMD_BLOB_WRITE, struct.pack("<I", 0)))[0]

    def write_blob(self, data, offset=0):
        """Writes data into the runner's blob buffer at offset (unbinding the model)."""
        capacity = self.blob_capacity()
        if offset + len(data) > capacity:
            raise DeviceError(f"{self.description}: a blob of {len(data)} bytes at offset {offset} does not fit"
                              f" the {capacity} bytes of RAM the runner has for it")
        chunk = P.MAX_PAYLOAD - 4
        for pos in range(0, len(data), chunk):
            self.request(P.CMD_BLOB_WRITE, struct.pack("<I", offset + pos) + data[pos:pos + chunk])

    def bind_blob(self, size, offset=0, null=False):
        """bind_weights() on the blob buffer at offset (or on NULL); returns its status code."""
        return struct.unpack("<i", self.request(P.CMD_BLOB_BIND, struct.pack("<BII", int(null), offset, size)))[0]

    def load_blob(self, data, offset=0):
        """write_blob() then bind_blob() over all of it; returns bind's status code."""
        self.write_blob(data, offset)
        return self.bind_blob(len(data), offset)

    def invoke(self, inputs):
        """Sets all inputs, runs, returns (outputs, figures); raises on a non-zero status."""
        for i, array in enumerate(inputs):
            self.set_input(i, array)
        figures = self.run()
        if figures.status != 0:
            raise DeviceError(f"{self.description}: run() returned {figures.status}")
        return [self.get_output(i) for i in range(len(self.info().outputs))], figures

    def compare_with_tflm(self, model_path, calls=5, seed=0, reset_between=True, outputs=None):
        """Runs the same random inputs here and in TFLM (tinyaot.host.oracle.compare_with_tflm), the
        model reset before every call when reset_between (as TFLM is); returns (mismatches,
        the RunFigures of every run). outputs: a list this device's outputs are appended to."""
        from tinyaot.host.oracle import compare_with_tflm
        specs = [{"dtype": t.dtype, "shape": t.shape} for t in self.info().inputs]
        figures = []

        def run(inputs):
            if reset_between:
                self.reset()
            outputs, fig = self.invoke(inputs)
            figures.append(fig)
            return outputs
        self.reset()
        mismatches = compare_with_tflm(model_path, run, specs, calls=calls, seed=seed,
                                       reset_between=reset_between, outputs=outputs)
        return mismatches, figures
