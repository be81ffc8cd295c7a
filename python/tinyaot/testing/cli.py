"""The `tinyaot` command as a user runs it, for tests: a fresh interpreter with
only this checkout's package on the path and a minimal PATH."""

import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[2]


def run_tinyaot(*args):
    """`python -m tinyaot ARGS...` -> CompletedProcess (text output captured)."""
    return subprocess.run([sys.executable, "-m", "tinyaot", *map(str, args)], capture_output=True, text=True,
                          env={"PYTHONPATH": str(PYTHON_DIR), "PATH": "/usr/bin:/bin"})
