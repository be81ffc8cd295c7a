"""Are the generator's Python packages importable? Says which are not, all at once.

    python -m tinyaot.requirements     # exit 0, or 1 with the pip line that fixes it

Build systems run the generator with whatever Python they found (Zephyr's,
CMake's); this check runs first so a missing package is one clear line naming
that interpreter, not a ModuleNotFoundError for one package per build.
Standard library only, so it runs where nothing else is installed.
"""

import importlib.util
import shlex
import sys

# module -> pip requirement; the same as pyproject.toml's `dependencies`.
GENERATOR = {"numpy": "numpy", "tflite": "tflite>=2.10", "jinja2": "jinja2>=3"}


def missing(packages=GENERATOR):
    """pip requirements of `packages` whose module this interpreter cannot import."""
    return [req for module, req in packages.items() if importlib.util.find_spec(module) is None]


def install_hint(requirements, python=None):
    """The one command that installs `requirements` into `python` (default: this one)."""
    python = python or sys.executable
    return f"{shlex.quote(python)} -m pip install {' '.join(shlex.quote(r) for r in requirements)}"


def message(requirements, python=None):
    python = python or sys.executable
    return (f"tinyaot: the generator needs Python packages that {python} lacks "
            f"({', '.join(requirements)}); install them with: {install_hint(requirements, python)}")


def main():
    lacking = missing()
    if lacking:
        print(message(lacking), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
