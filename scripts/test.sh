#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing, then runs
# pytest (host lane, QEMU target lane, and the Zephyr lane with Twister: on
# ZEPHYR_BASE, else on ../shared's Zephyr 4.0 workspace when it is there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/python-env.sh
. scripts/zephyr-env.sh
exec "$PYTHON" -m pytest -q -ra "$@" tests
