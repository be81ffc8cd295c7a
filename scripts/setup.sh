#!/usr/bin/env bash
# Installs what tinyaot needs on a bare Debian machine: the Cortex-M cross
# compiler, QEMU, CMake and Ninja from Debian, and the Python packages from PyPI
# (into .venv when the system Python is externally managed, PEP 668).
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v python3 >/dev/null || need_apt+=(python3 python3-venv)
command -v arm-none-eabi-gcc >/dev/null || need_apt+=(gcc-arm-none-eabi)
command -v qemu-system-arm >/dev/null || need_apt+=(qemu-system-arm)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v ninja >/dev/null || need_apt+=(ninja-build)
command -v dtc >/dev/null || need_apt+=(device-tree-compiler)
command -v cc >/dev/null || need_apt+=(gcc)
# Test firmwares rebuild the same library sources (CMSIS-NN) per model: ccache compiles them once.
command -v ccache >/dev/null || need_apt+=(ccache)
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing ${need_apt[*]} from Debian"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# A Python that refuses pip installs (PEP 668: Debian 12's own python3) gets a
# project virtual environment, .venv, which the scripts and CMake then use.
. scripts/python-env.sh
if "$PYTHON" -c "import os, sys, sysconfig
sys.exit(not (sys.prefix == sys.base_prefix and
              os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED'))))"; then
    if ! "$PYTHON" -c "import ensurepip, venv" 2>/dev/null; then
        echo "setup: installing python3-venv from Debian"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
    fi
    echo "setup: $PYTHON is externally managed (PEP 668): creating the project's virtual environment .venv"
    "$PYTHON" -m venv .venv
    . scripts/python-env.sh
fi

# The check also makes sure `tinyaot` is this checkout, not another clone's editable install.
if ! "$PYTHON" -c "import sys, numpy, tflite, jinja2, serial, pytest, yaml, tflite_micro, tinyaot
sys.exit(not tinyaot.__file__.startswith('$PWD/'))" 2>/dev/null; then
    echo "setup: installing tinyaot and its Python dependencies"
    # --pre: tflite-micro, the TFLM oracle, is published as dev releases only.
    "$PYTHON" -m pip install --quiet --disable-pip-version-check --pre -e ".[test]"
fi
