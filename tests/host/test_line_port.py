"""tinyaot.harness.lines: the serial protocol through a line-oriented console
(Twister's `dut`), against a scripted device that answers in "frame <hex>" lines."""

import queue
import struct

import pytest

from tinyaot.harness import Device, ProtocolError
from tinyaot.harness import protocol as P
from tinyaot.harness.lines import LinePort, decode_line, qemu_mux_escape


def info_payload(name=b"m"):
    head = bytes([1, 0, 0, 1]) + struct.pack("<5I", 48, 0, 64, 16, 12_500_000)
    return head + bytes([len(name)]) + name + bytes([4]) + b"test"


class ScriptedConsole:
    """Answers each INFO request with lines, as samples/serial_inference's
    CONFIG_SERIAL_INFERENCE_HEX_LINES port would, after `noise` lines."""

    def __init__(self, noise=()):
        self.lines = queue.Queue()
        self.noise = list(noise)
        self.requests = []

    def write(self, data):
        self.requests.append(data)
        assert data == P.encode_frame(P.CMD_INFO), data
        for line in self.noise:
            self.lines.put(line)
        frame = P.encode_frame(P.CMD_INFO | P.RESPONSE, info_payload())
        self.lines.put("frame " + frame.hex())

    def readline(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None


def test_device_speaks_the_protocol_over_hex_lines():
    console = ScriptedConsole()
    dev = Device(LinePort(console.readline, console.write), timeout=1.0)
    dev.sync(timeout=3.0)
    info = dev.info(refresh=True)
    assert (info.name, info.generator_version, info.arena_size, info.cycles_hz) == \
        ("m", "test", 48, 12_500_000)
    assert console.requests[-1] == P.encode_frame(P.CMD_INFO)


def test_a_text_line_is_reported_as_garbage_with_its_text():
    console = ScriptedConsole(noise=["*** Booting Zephyr OS ***"])
    dev = Device(LinePort(console.readline, console.write), timeout=1.0)
    with pytest.raises(ProtocolError, match=r"garbage on the serial line .*Booting Zephyr OS"):
        dev.request(P.CMD_INFO)


def test_decode_line():
    assert decode_line("frame a55a0100\r\n") == b"\xa5\x5a\x01\x00"
    assert decode_line("frame zz") == b"frame zz\n"
    assert decode_line("hello") == b"hello\n"


def test_read_returns_what_came_within_the_timeout():
    lines = iter(["frame 0102", "frame 03"])
    port = LinePort(lambda t: next(lines, None), lambda d: None, timeout=0.05)
    assert port.read(2) == b"\x01\x02"
    assert port.read(4) == b"\x03"
    assert port.read(1) == b""


def test_qemu_mux_escape_doubles_ctrl_a_only():
    assert qemu_mux_escape(P.encode_frame(P.CMD_INFO))[:5] == b"\xa5\x5a\x01\x01\x00"
    assert qemu_mux_escape(b"\x00\x02\x01\x01") == b"\x00\x02\x01\x01\x01\x01"
