#!/usr/bin/env bash
# The demo on a fresh machine: installs what is missing, then builds a model
# for both QEMU boards, runs it over the serial line and prints the outputs
# and the footprint table (also written to build/bench.json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/python-env.sh
exec "$PYTHON" scripts/demo.py "$@"
