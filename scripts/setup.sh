#!/usr/bin/env bash
# Installs what tinyaot needs on a bare Debian machine: the Cortex-M cross
# compiler, QEMU, CMake and Ninja from Debian, and the Python packages from PyPI.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v arm-none-eabi-gcc >/dev/null || need_apt+=(gcc-arm-none-eabi)
command -v qemu-system-arm >/dev/null || need_apt+=(qemu-system-arm)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v ninja >/dev/null || need_apt+=(ninja-build)
command -v dtc >/dev/null || need_apt+=(device-tree-compiler)
command -v cc >/dev/null || need_apt+=(gcc)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing ${need_apt[*]} from Debian"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

PYTHON="${PYTHON:-python3}"
# The check also makes sure `tinyaot` is this checkout, not another clone's editable install.
if ! "$PYTHON" -c "import sys, numpy, tflite, jinja2, serial, pytest, yaml, tflite_micro, tinyaot
sys.exit(not tinyaot.__file__.startswith('$PWD/'))" 2>/dev/null; then
    echo "setup: installing tinyaot and its Python dependencies"
    # --pre: tflite-micro, the TFLM oracle, is published as dev releases only.
    "$PYTHON" -m pip install --quiet --disable-pip-version-check --pre -e ".[test]"
fi
