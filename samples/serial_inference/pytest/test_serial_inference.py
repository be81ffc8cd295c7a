"""Twister's pytest harness runs this against the firmware it built
(sample.tinyaot.serial_inference.pytest): inputs go through the project's
serial protocol, the outputs must equal TensorFlow Lite Micro's bit for bit.

    twister -T samples -p qemu_cortex_m3                       # QEMU
    twister --device-testing --device-serial /dev/ttyACM0 -p <board> -T samples

The `dut` fixture (pytest-twister-harness) gives the console as text lines, so
the firmware is built with CONFIG_SERIAL_INFERENCE_HEX_LINES: each answer frame
is one hex line, which tinyaot.harness.lines.LinePort turns back into bytes.
"""

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "python"))

from tinyaot.harness import Device  # noqa: E402
from tinyaot.harness.lines import LinePort, qemu_mux_escape  # noqa: E402


def served_model(build_dir):
    """The .tflite this build serves: TINYAOT_MODEL in its CMake cache."""
    cache = (Path(build_dir) / "CMakeCache.txt").read_text()
    return Path(re.search(r"^TINYAOT_MODEL:[A-Z]+=(.*)$", cache, re.M).group(1))


def test_outputs_match_tflm(dut):
    pytest.importorskip("tflite_micro", reason="the TFLM oracle needs: pip install --pre tflite-micro")
    from twister_harness.exceptions import TwisterHarnessTimeoutException

    def readline(timeout):
        try:
            return dut.readline(timeout=timeout, print_output=False)
        except TwisterHarnessTimeoutException:
            return None

    def write(data):
        # Zephyr's QEMU shares the console with QEMU's monitor, whose escape key is 0x01.
        dut.write(qemu_mux_escape(data) if dut.device_config.type == "qemu" else data)

    build_dir = dut.device_config.build_dir
    dev = Device(LinePort(readline, write),
                 description=f"{dut.device_config.type} device ({build_dir})")
    dev.sync(timeout=30.0)
    info = dev.info()
    assert info.io_ok, f"{info.name}: the inputs and outputs do not fit the runner's buffer"
    mismatches, figures = dev.compare_with_tflm(served_model(build_dir), calls=10)
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM, first: {mismatches[0]}"
    print(f"{info.name}: 10 inferences bit-exact with TFLM, last {figures[-1].cycles} cycles "
          f"at {info.cycles_hz} Hz, stack {figures[-1].stack_bytes} B")
