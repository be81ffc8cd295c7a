#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing, then runs
# pytest (host lane, QEMU target lane, and the Zephyr lane when ZEPHYR_BASE is set).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/python-env.sh
exec "$PYTHON" -m pytest -q -ra "$@" tests
