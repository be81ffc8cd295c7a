"""Zephyr lane: builds the Zephyr samples with a real Zephyr tree and runs them
in QEMU. Needs ZEPHYR_BASE (or a west workspace around this repo, as
`west init -l tinyaot && west update` makes); skipped otherwise.
"""

import shutil

import pytest

from zephyr_env import BOARDS, ENABLE_HINT, ZephyrEnv, find_zephyr_base, lane_skip_reason


@pytest.fixture(scope="session")
def zephyr():
    if lane_skip_reason():
        pytest.skip(lane_skip_reason())
    env = ZephyrEnv(find_zephyr_base())
    if "ZEPHYR_TOOLCHAIN_VARIANT" not in env.env:
        pytest.skip(f"no ARM toolchain for Zephyr: {ENABLE_HINT}")
    if not shutil.which("qemu-system-arm"):
        pytest.skip("qemu-system-arm is not installed (apt-get install qemu-system-arm)")
    return env


@pytest.fixture(params=sorted(BOARDS))
def board(request):
    return request.param
