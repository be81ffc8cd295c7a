"""Target test harness: build a firmware, run it (QEMU or a real board), talk to it.

    from tinyaot.harness import build_firmware, open_device
    fw = build_firmware("qemu_cortex_m3", model="m.tflite", name="m")
    with open_device(fw) as dev:
        outputs, figures = dev.invoke([x])

A real board instead of QEMU: open_device(fw, serial_port="/dev/ttyACM0",
flash_command="pyocd flash {elf}"). The protocol is in
firmware/serial_runner/PROTOCOL.md.
"""

import contextlib
import shlex
import subprocess
import time

from .build import (Firmware, ModelTooBig, TflmMissing, boards, build_firmware, build_tflm_firmware,
                    cmsis_nn_dir, tflm_dir)
from .device import Device, ModelInfo, RunFigures, StepProfile, TensorInfo
from .errors import (BuildError, DeviceError, DeviceFault, DeviceTimeout, HarnessError,
                     ProtocolError)
from .qemu import DEFAULT_ICOUNT_SHIFT, Qemu

__all__ = ["BuildError", "Device", "DeviceError", "DeviceFault", "DeviceTimeout", "Firmware",
           "HarnessError", "ModelInfo", "ModelTooBig", "ProtocolError", "Qemu", "RunFigures", "StepProfile",
           "TensorInfo", "TflmMissing", "boards", "build_firmware", "build_tflm_firmware", "cmsis_nn_dir",
           "open_device", "open_qemu", "open_serial", "tflm_dir"]

BAUDRATE = 115200


def open_serial(path, timeout=0.5):
    """Opens a serial port as for any board (raw 8N1, no flow control)."""
    import serial  # pyserial; imported here so building needs no pyserial
    port = serial.Serial(path, baudrate=BAUDRATE, timeout=timeout)
    port.reset_input_buffer()
    return port


@contextlib.contextmanager
def open_qemu(elf, machine_args, timeout=5.0, run_timeout=60.0,
              icount_shift=DEFAULT_ICOUNT_SHIFT, description=None):
    """Yields a Device for any serial-runner ELF (bare metal or Zephyr) run in
    QEMU with `machine_args` (e.g. ["-machine", "lm3s6965evb"]); stops QEMU after."""
    with Qemu(elf, machine_args, icount_shift=icount_shift) as qemu:
        port = open_serial(qemu.pty)
        try:
            dev = Device(port, timeout, run_timeout, icount_shift,
                         description or f"QEMU {' '.join(machine_args)} running {elf}")
            dev.sync()
            yield dev
        finally:
            port.close()


@contextlib.contextmanager
def open_device(firmware, serial_port=None, flash_command=None, timeout=5.0, run_timeout=60.0,
                icount_shift=DEFAULT_ICOUNT_SHIFT, boot_delay=1.0):
    """Yields a Device for `firmware`, and stops or closes everything afterwards.

    Without serial_port: runs the firmware in QEMU on a pseudo-terminal.
    With serial_port: runs flash_command first (a shell-like template with
    {elf} and {bin}), waits boot_delay seconds, then opens the port.
    """
    if serial_port is None:
        with open_qemu(firmware.elf, firmware.config["qemu_args"], timeout=timeout,
                       run_timeout=run_timeout, icount_shift=icount_shift,
                       description=f"{firmware.board} (QEMU) running {firmware.name}") as dev:
            yield dev
        return
    if flash_command:
        cmd = [part.format(elf=firmware.elf, bin=firmware.bin)
               for part in shlex.split(flash_command)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            raise HarnessError(f"flash command failed ({' '.join(cmd)}): {proc.stdout.strip()}")
        time.sleep(boot_delay)
    port = open_serial(serial_port)
    try:
        dev = Device(port, timeout, run_timeout, None, f"{serial_port} running {firmware.name}")
        dev.sync()
        yield dev
    finally:
        port.close()
