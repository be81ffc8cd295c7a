"""The serial protocol over a line-oriented console, such as Twister's `dut`.

pytest-twister-harness hands a test the device's output as text lines only.
Firmware built with CONFIG_SERIAL_INFERENCE_HEX_LINES (samples/serial_inference)
sends each frame as one line "frame <hex bytes>"; LinePort turns those lines
back into the frame bytes, so Device speaks the unchanged protocol over it:

    dev = Device(LinePort(readline, dut.write), description="...")

Requests go out as raw frames. A line that is not a frame is handed on as its
text, so Device reports it as garbage (or as a crash if it says FATAL:).
"""

import time

PREFIX = "frame "


class LinePort:
    """Enough of pyserial.Serial for Device: read(n), write(data), flush(), timeout.

    readline(timeout) returns the next line as text, or None when none came
    within timeout seconds; write(data) sends bytes to the device.
    """

    def __init__(self, readline, write, timeout=0.5):
        self._readline = readline
        self._write = write
        self.timeout = timeout
        self._pending = bytearray()

    def read(self, n=1):
        """Up to n bytes: returns as soon as n are there, or what came within timeout."""
        deadline = time.monotonic() + self.timeout
        while len(self._pending) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            line = self._readline(left)
            if line is not None:
                self._pending += decode_line(line)
        data = bytes(self._pending[:n])
        del self._pending[:n]
        return data

    def write(self, data):
        self._write(bytes(data))
        return len(data)

    def flush(self):
        pass


def qemu_mux_escape(data):
    """Bytes for a QEMU console multiplexed with its monitor (Zephyr's `-chardev
    ...,mux=on`): 0x01 (Ctrl-A) is the mux's escape key, a literal one is sent twice."""
    return bytes(data).replace(b"\x01", b"\x01\x01")


def decode_line(line):
    """The frame bytes of a "frame <hex>" line; any other line as its text and a newline."""
    text = line.strip()
    if text.startswith(PREFIX):
        try:
            return bytes.fromhex(text[len(PREFIX):])
        except ValueError:
            pass
    return (text + "\n").encode("utf-8", "replace")
