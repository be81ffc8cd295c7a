"""The harness's Device skips a late answer to one of sync()'s repeated INFO requests (a
firmware slower to start than sync's attempts, as on a loaded machine), and nothing else."""

import pytest

from tinyaot.harness import protocol as P
from tinyaot.harness.device import Device
from tinyaot.harness.errors import ProtocolError


class ScriptedPort:
    """A serial port whose device has already sent `incoming`; writes are kept."""

    def __init__(self, incoming):
        self.incoming = bytearray(incoming)
        self.written = bytearray()
        self.timeout = 0.0

    def read(self, n):
        data = bytes(self.incoming[:n])
        del self.incoming[:n]
        return data

    def write(self, data):
        self.written += data

    def flush(self):
        pass


def test_a_late_info_answer_is_skipped():
    port = ScriptedPort(P.encode_frame(P.CMD_INFO | P.RESPONSE, b"late")
                        + P.encode_frame(P.CMD_TENSOR | P.RESPONSE, b"tensor"))
    assert Device(port, timeout=1.0).request(P.CMD_TENSOR, b"\x00\x00") == b"tensor"
    assert port.written == P.encode_frame(P.CMD_TENSOR, b"\x00\x00")


def test_another_commands_answer_is_still_an_error():
    port = ScriptedPort(P.encode_frame(P.CMD_RUN | P.RESPONSE, b"stale"))
    with pytest.raises(ProtocolError, match="answered TENSOR with frame type 0x84, expected 0x82"):
        Device(port, timeout=1.0).request(P.CMD_TENSOR, b"\x00\x00")
