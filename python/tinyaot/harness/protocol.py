"""Framing of the serial-runner protocol (firmware/serial_runner/PROTOCOL.md).

Frame: A5 5A | type u8 | length u16 LE | payload | CRC-16/CCITT-FALSE u16 LE,
the CRC over type, length and payload.
"""

import struct

SYNC = b"\xa5\x5a"
MAX_PAYLOAD = 256

CMD_INFO = 0x01
CMD_TENSOR = 0x02
CMD_WRITE_INPUT = 0x03
CMD_RUN = 0x04
CMD_READ_OUTPUT = 0x05
CMD_RESET = 0x06
CMD_PROFILE = 0x07
CMD_BLOB_WRITE = 0x08
CMD_BLOB_BIND = 0x09
CMD_SELECT = 0x0A
RESPONSE = 0x80
MSG_ERROR = 0x7F

ERROR_NAMES = {1: "bad CRC", 2: "unknown command", 3: "bad argument",
               4: "not enough RAM", 5: "frame too long", 6: "weights linked in"}

COMMAND_NAMES = {CMD_INFO: "INFO", CMD_TENSOR: "TENSOR", CMD_WRITE_INPUT: "WRITE_INPUT",
                 CMD_RUN: "RUN", CMD_READ_OUTPUT: "READ_OUTPUT", CMD_RESET: "RESET",
                 CMD_PROFILE: "PROFILE", CMD_BLOB_WRITE: "BLOB_WRITE", CMD_BLOB_BIND: "BLOB_BIND",
                 CMD_SELECT: "SELECT"}


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE, the same bitwise algorithm as runner.c."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def encode_frame(frame_type, payload=b""):
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = struct.pack("<BH", frame_type, len(payload)) + bytes(payload)
    return SYNC + body + struct.pack("<H", crc16(body))
