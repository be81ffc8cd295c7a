"""Fixtures for the on-target lane: models x boards, built once, run in QEMU
(default) or on a real board (--serial-port, --flash-command).

Model list: the project's own on-target test models (tinyaot.testing.catalog)
plus the reference models in ../shared/models when that folder exists (entries
for them are skipped, with the reason, when it does not).
"""

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _root_conftest():
    """tests/conftest.py (already run by pytest; it puts python/ on sys.path):
    reuse its list of reference models and its skip-when-absent lookup."""
    spec = importlib.util.spec_from_file_location("_tinyaot_tests_root", REPO / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_root = _root_conftest()
shared_model = _root.shared_model
SHARED_NAMES = _root.SHARED_MODEL_NAMES

from tinyaot import harness  # noqa: E402

OWN_MODELS_DIR = harness.build.DEFAULT_BUILD_ROOT / "models"


def pytest_addoption(parser):
    group = parser.getgroup("tinyaot target")
    group.addoption("--board", action="append", default=[],
                    help=f"board(s) to test (default: all of {', '.join(harness.boards())})")
    group.addoption("--serial-port", default=None,
                    help="use a real board on this serial port instead of QEMU")
    group.addoption("--flash-command", default=None,
                    help="command that flashes the firmware ({elf} and {bin} are replaced)")
    group.addoption("--target-model", action="append", default=[],
                    help="only these model names (default: all)")


def selected_boards(config):
    return config.getoption("--board") or harness.boards()


def own_models():
    """{name: path} of the project's own test models meant for targets."""
    from tinyaot.testing import catalog
    return {name: Path(p) for name, p in catalog.build_all(OWN_MODELS_DIR, on_target=True).items()}


def model_params(config):
    """(name, path or None) for every model; None means 'shared model, look up at run time'."""
    wanted = set(config.getoption("--target-model"))
    params = [(n, p) for n, p in sorted(own_models().items())]
    params += [(n, None) for n in SHARED_NAMES]
    return [(n, p) for n, p in params if not wanted or n in wanted]


def pytest_generate_tests(metafunc):
    if "target_model" in metafunc.fixturenames:
        from tinyaot.testing import catalog
        boards = selected_boards(metafunc.config)
        params = [pytest.param((b, n, p), id=f"{b}-{n}")
                  for n, p in model_params(metafunc.config) for b in boards if catalog.runs_on(n, b)]
        metafunc.parametrize("target_model", params)


class Target:
    """Builds firmwares (once per board x model per session) and opens devices."""

    def __init__(self, config):
        self.serial_port = config.getoption("--serial-port")
        self.flash_command = config.getoption("--flash-command")
        self._built = {}

    def firmware(self, board, name=None, model=None, test_mode=None, inputs_in_arena=False, kernels="portable",
                 weights="linked", more_models=(), arena_group=None):
        key = (board, name, test_mode, inputs_in_arena, kernels, weights, tuple(more_models), arena_group)
        if key not in self._built:
            try:
                self._built[key] = harness.build_firmware(board, model=model, name=name,
                                                          test_mode=test_mode,
                                                          inputs_in_arena=inputs_in_arena, kernels=kernels,
                                                          weights=weights, more_models=more_models,
                                                          arena_group=arena_group)
            except harness.BuildError as exc:
                self._built[key] = exc
        result = self._built[key]
        if isinstance(result, Exception):
            raise result
        return result

    def open(self, firmware, **kwargs):
        return harness.open_device(firmware, serial_port=self.serial_port,
                                   flash_command=self.flash_command, **kwargs)


@pytest.fixture(scope="session")
def target(request):
    return Target(request.config)


@pytest.fixture(scope="session")
def boards(request):
    return selected_boards(request.config)
