"""The harness itself: protocol details, and each failure a firmware can show
(a fault, garbage on the line, a hang) reported as exactly that.

Uses the runner's stand-in model (TINYAOT_RUNNER_TEST), so no generator is needed.
"""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from tinyaot import harness
from tinyaot.harness import protocol as P

X = np.array([[5, -7, 127, -128]], np.int8)


@pytest.fixture(params=["qemu_cortex_m0", "qemu_cortex_m3"])
def board(request, boards):
    if request.param not in boards:
        pytest.skip(f"{request.param} not selected with --board")
    return request.param


@pytest.fixture(params=harness.boards())
def any_board(request, boards, sampled):
    """Every board, the sampled ones too: the checks of a board's UART, fault report and counter."""
    if request.param not in boards + sampled:
        pytest.skip(f"{request.param} not selected with --board")
    return request.param


# SysTick (processor clock) frequencies under QEMU 7.2, measured as boards/baremetal/README.md says.
CYCLES_HZ = {"qemu_cortex_m0": 16_000_000, "qemu_cortex_m3": 12_500_000, "mps2_an385": 25_000_000,
             "mps2_an386": 25_000_000, "mps2_an500": 25_000_000, "mps2_an505": 20_000_000, "mps3_an547": 32_000_000}


def test_crc16_matches_the_reference_check_value():
    assert P.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE check value


def test_echo_device_round_trip(target, any_board):
    board = any_board
    fw = target.firmware(board, test_mode="echo")
    with target.open(fw) as dev:
        info = dev.info()
        assert (info.name, info.generator_version, info.protocol_version) == ("runner_test", "test", 1)
        assert info.cycles_hz == CYCLES_HZ[board]
        t = info.inputs[0]
        assert (t.name, t.dtype, t.shape, t.size_bytes, t.scale, t.zero_point) == \
            ("x", np.int8, (1, 4), 4, 0.5, -3)
        assert info.outputs[0].zero_point == -2
        outputs, figures = dev.invoke([X])
        np.testing.assert_array_equal(outputs[0], np.array([[6, -6, -128, -127]], np.int8))
        assert figures.status == 0
        dev.reset()


def test_device_rejects_bad_crc_and_bad_arguments(target, board):
    fw = target.firmware(board, test_mode="echo")
    with target.open(fw) as dev:
        frame = bytearray(P.encode_frame(P.CMD_INFO))
        frame[-1] ^= 0x40  # one flipped bit
        dev.port.write(bytes(frame))
        with pytest.raises(harness.DeviceError, match="rejected INFO: bad CRC"):
            dev._receive(P.CMD_INFO, 2.0)
        with pytest.raises(harness.DeviceError, match="outside the input tensor"):
            dev.request(P.CMD_WRITE_INPUT, b"\x00\x02\x00\x00\x00" + bytes(3))
        with pytest.raises(harness.DeviceError, match="no such tensor"):
            dev.request(P.CMD_TENSOR, b"\x01\x05")
        with pytest.raises(harness.DeviceError, match="rejected SELECT: bad argument: no such model"):
            dev.select(1)
        assert dev.select(0) == 1
        with pytest.raises(harness.DeviceError, match="rejected BLOB_BIND: weights linked in: the model's weights"):
            dev.bind_blob(32)
        # Noise between frames is skipped by the device; the link still works.
        dev.port.write(b"\x00\xa5\x13noise")
        outputs, _ = dev.invoke([X])
        assert outputs[0][0, 0] == 6


def test_fault_is_reported_with_pc(target, any_board):
    fw = target.firmware(any_board, test_mode="fault")
    with target.open(fw) as dev:
        dev.set_input(0, X)
        with pytest.raises(harness.DeviceFault,
                           match=r"crashed: FATAL: HardFault pc=0x[0-9a-f]{8} lr=0x[0-9a-f]{8}"):
            dev.run()


def test_garbage_is_reported_as_garbage(target, board):
    fw = target.firmware(board, test_mode="garbage")
    with target.open(fw) as dev:
        dev.set_input(0, X)
        with pytest.raises(harness.ProtocolError,
                           match=r"garbage on the serial line .*b'Hello from a confused firmware"):
            dev.run()


def test_hang_is_reported_as_timeout(target, board):
    fw = target.firmware(board, test_mode="hang")
    with target.open(fw, run_timeout=2.0) as dev:
        dev.set_input(0, X)
        start = time.monotonic()
        with pytest.raises(harness.DeviceTimeout, match=r"no answer from .* to RUN within 2 s"):
            dev.run()
        assert time.monotonic() - start < 5


def _qemu_pids():
    out = subprocess.run(["pgrep", "-f", "qemu-system-arm.*runner.elf"], capture_output=True,
                         text=True).stdout
    return {int(p) for p in out.split()}


def test_qemu_is_stopped_on_error_and_when_python_is_killed(target):
    fw = target.firmware("qemu_cortex_m3", test_mode="hang")
    # An exception inside the context stops QEMU.
    with pytest.raises(RuntimeError):
        with target.open(fw):
            pid = [p for p in harness.qemu._live][0].pid
            raise RuntimeError("test failure")
    assert pid not in _qemu_pids()
    # SIGTERM / SIGKILL of the Python process running QEMU leaves no QEMU behind.
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]);"
            "from tinyaot import harness;"
            "fw = harness.build_firmware('qemu_cortex_m3', test_mode='hang');"
            "q = harness.Qemu(fw.elf, fw.config['qemu_args']).start();"
            "print(q.proc.pid, flush=True); time.sleep(60)")
    for sig in (signal.SIGTERM, signal.SIGKILL):
        child = subprocess.Popen([sys.executable, "-c", code, str(harness.build.REPO / "python")],
                                 stdout=subprocess.PIPE, text=True)
        qemu_pid = int(child.stdout.readline())
        assert qemu_pid in _qemu_pids()
        os.kill(child.pid, sig)
        child.wait(timeout=10)
        deadline = time.monotonic() + 5
        while qemu_pid in _qemu_pids() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert qemu_pid not in _qemu_pids(), f"QEMU survived {sig.name} of its parent"


def test_instruction_count_is_exact_across_systick_wraps(target, any_board):
    """run() spins exactly 24e6 instructions: over 2^24 SysTick ticks on every board (QEMU's
    virtual time, 64 ns per instruction, read at the board's CYCLES_HZ)."""
    fw = target.firmware(any_board, test_mode="spin")
    with target.open(fw) as dev:
        _, figures = dev.invoke([X])
        assert figures.cycles > 1 << 24  # the counter wrapped at least once
        # Loop + the echo code around it; resolution is one SysTick tick (<= 1.25 instructions).
        assert 24_000_000 <= figures.instructions <= 24_000_000 + 100, figures
        _, again = dev.invoke([X])
        # Deterministic under -icount, except that the SysTick wrap interrupt
        # (a few instructions) may fire once more or less depending on phase.
        assert abs(again.instructions - figures.instructions) <= 16


def test_serial_port_path_as_for_a_real_board(target):
    """--serial-port/--flash-command: QEMU stands in for a board already running."""
    fw = target.firmware("qemu_cortex_m3", test_mode="echo")
    with harness.Qemu(fw.elf, fw.config["qemu_args"]) as qemu:
        with harness.open_device(fw, serial_port=qemu.pty, flash_command="true {elf} {bin}",
                                 boot_delay=0) as dev:
            assert dev.icount_shift is None  # cycles only: a real board has no icount
            outputs, figures = dev.invoke([X])
            assert outputs[0][0, 0] == 6 and figures.instructions is None
    with pytest.raises(harness.HarnessError, match="flash command failed"):
        with harness.open_device(fw, serial_port="/dev/null", flash_command="false {elf}"):
            pass
