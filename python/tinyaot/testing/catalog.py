"""Registry of the project's own test models.

Each family module (models_*.py) registers functions that build one model (as .tflite bytes)
with @test_model. `build_all(folder)` writes them all; tests, the on-target
harness and the benchmarks use the files it returns.
"""

import importlib
import os
import pkgutil
from pathlib import Path

CATALOG = {}
FORMS = set()  # float32 and 16x8 forms of int8 models (tinyaot.testing.variants)


def test_model(name, targets=True, form=False):
    """Registers a model builder. targets=False keeps a model off the QEMU boards
    (host-only: e.g. float I/O checks that add nothing on target), a tuple of boards
    keeps it to those (e.g. M3_ONLY: too big for the M0, or long); form=True marks
    another dtype's form of an int8 model, which lanes testing where code or
    tables go rather than arithmetic may leave out (names(forms=False)).
    targets=ALL_BOARDS_ONLY: on every board, but only in the opt-in full matrix."""
    def register(fn):
        if name in CATALOG:
            raise ValueError(f"test model {name} registered twice")
        CATALOG[name] = (fn, targets)
        if form:
            FORMS.add(name)
        return fn
    return register


def _load_families():
    """Imports every models_*.py module here; each registers its models on import."""
    import tinyaot.testing as package
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("models_"):
            importlib.import_module(f"{package.__name__}.{info.name}")


M3_ONLY = ("qemu_cortex_m3",)
# On the boards only with TINYAOT_TARGET_ALL_BOARDS=1: models whose kernels smaller catalog
# models reach in the default lane (the CI budget), run there for the bench's kinds.
ALL_BOARDS_ONLY = "all-boards-only"
ALL_BOARDS_ENV = "TINYAOT_TARGET_ALL_BOARDS"
# The MPS2 boards (Cortex-M4, M7, M33) and the MPS3 one (Cortex-M55) have more flash and RAM
# than the M3: they run what it runs.
LARGER_THAN_M3 = ("mps2_an386", "mps2_an500", "mps2_an505", "mps3_an547")


def runs_on(name, board, full_matrix=None):
    """Whether the on-target tests run model `name` on `board` (models not in the catalog: yes);
    full_matrix: as with TINYAOT_TARGET_ALL_BOARDS=1 (None: as the environment says)."""
    _load_families()
    targets = CATALOG[name][1] if name in CATALOG else True
    if targets == ALL_BOARDS_ONLY:
        return full_matrix if full_matrix is not None else os.environ.get(ALL_BOARDS_ENV) == "1"
    if targets is True or not targets:
        return bool(targets)
    return board in targets or (board in LARGER_THAN_M3 and "qemu_cortex_m3" in targets)


def names(on_target=False, forms=True):
    _load_families()
    return sorted(n for n, (_, targets) in CATALOG.items()
                  if (targets or not on_target) and (forms or n not in FORMS))


def build(name, folder):
    """Writes model `name` into folder (only if its bytes changed); returns the path."""
    _load_families()
    fn, _ = CATALOG[name]
    path = Path(folder) / f"{name}.tflite"
    data = fn()
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path


def build_all(folder, on_target=False):
    return {n: build(n, folder) for n in names(on_target)}
