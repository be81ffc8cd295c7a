"""Fixtures for the on-target lane: models x boards, built once, run in QEMU
(default) or on a real board (--serial-port, --flash-command).

Model list: the project's own on-target test models (tinyaot.testing.catalog)
plus the reference models in ../shared/models when that folder exists (entries
for them are skipped, with the reason, when it does not).
"""

import importlib.util
import os
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

# The boards every test and model runs on. The others (the MPS2 boards: Cortex-M4, M7,
# M33; the MPS3 AN547: Cortex-M55) compile the same C with DSP, MVE and FPU code paths: by
# default they run the harness checks and SAMPLE_MODELS only, keeping the lane's time; the
# whole matrix runs on them with TINYAOT_TARGET_ALL_BOARDS=1, or on the boards --board names.
FULL_MATRIX_BOARDS = ("qemu_cortex_m0", "qemu_cortex_m3")
from tinyaot.testing.catalog import ALL_BOARDS_ENV  # noqa: E402
from tinyaot.measure.bench import SAME_CORE_MACHINE  # noqa: E402
# The sample, per board and variant. On the M4, models that together reach every kernel
# with a DSP or FPU path: portable convolutions (general, 1x1, pixel pairs), depthwise
# (multipliers, pixel pairs), fully connected, ADD (residual bands), pools and softmax in
# int8, the DS-CNN's float32 and 16x8 forms and the float32 operators' sample; CMSIS-NN's
# convolution, 1x1, depthwise, fully connected and pool calls (a same-shape ADD is
# tinyaot_add_s8_dsp there, in both variants: residual_u_first_remainder's bands; SOFTMAX is
# tinyaot_softmax_s8, backends/cmsis_nn.py's PORTABLE_ON_DSP). On the M7 and
# M33 (the same C for another core): the DS-CNN in int8 and float32, portable kernels.
M4_PORTABLE = ("ds_cnn_kws", "conv_1x1_depths", "conv_pixel_pairs", "depthwise_multipliers",
               "depthwise_pixel_pairs", "fc_batched_per_channel_relu6", "residual_u_first_remainder",
               "pooling", "ds_cnn_kws_float32", "ds_cnn_kws_16x8", "float32_ops_sample")
M4_CMSIS_NN = ("ds_cnn_kws", "conv_1x1_depths", "depthwise_multipliers", "residual_u_first_remainder", "pooling")
CORE_PORTABLE = ("ds_cnn_kws", "ds_cnn_kws_float32")
# The CMSIS-NN and blob variants run every model on the M3 only: CMSIS-NN takes the same
# plain C paths on the M0 and the M3 (neither has the DSP extension), and where the weights
# live does not depend on the core. The M0 runs a sample of each: CMSIS-NN's calls as on the
# M4, and blobs of int8, float32 and 16x8 weights with the stateful SVDF model.
ONE_CORE_VARIANTS = {"cmsis-nn": "qemu_cortex_m3", "blob": "qemu_cortex_m3"}
M0_BLOB = ("ds_cnn_kws", "mini_mobilenet_float32", "mini_mobilenet_16x8", "tflm_keyword_scrambled")
# On the M55 (mps3_an547): the DS-CNN in int8 on each backend (CMSIS-NN's MVE convolution,
# depthwise, fully connected with kernel sums, pooling and softmax; the portable MVE kernels),
# and the residual blocks' band-fused ADD on the portable kernels.
M55_SAMPLE = {"portable": ("ds_cnn_kws", "residual_u_first_remainder"), "cmsis-nn": ("ds_cnn_kws",)}
SAMPLE_MODELS = {"mps2_an386": {"portable": M4_PORTABLE, "cmsis-nn": M4_CMSIS_NN},
                 "mps2_an500": {"portable": CORE_PORTABLE}, "mps2_an505": {"portable": CORE_PORTABLE},
                 "mps3_an547": M55_SAMPLE, "qemu_cortex_m0": {"cmsis-nn": M4_CMSIS_NN, "blob": M0_BLOB}}


def pytest_addoption(parser):
    group = parser.getgroup("tinyaot target")
    group.addoption("--board", action="append", default=[],
                    help=f"board(s) to test, every model on each (default: {', '.join(FULL_MATRIX_BOARDS)},"
                         f" and a sample on the others; all of them with {ALL_BOARDS_ENV}=1)")
    group.addoption("--serial-port", default=None,
                    help="use a real board on this serial port instead of QEMU")
    group.addoption("--flash-command", default=None,
                    help="command that flashes the firmware ({elf} and {bin} are replaced)")
    group.addoption("--target-model", action="append", default=[],
                    help="only these model names (default: all)")


def selected_boards(config):
    """The boards the whole matrix runs on."""
    if config.getoption("--board"):
        return config.getoption("--board")
    if os.environ.get(ALL_BOARDS_ENV) == "1":  # not the M3 with room bench runs TFLM on (the M3's matrix)
        return [b for b in harness.boards() if b not in SAME_CORE_MACHINE.values()]
    return [b for b in harness.boards() if b in FULL_MATRIX_BOARDS]


def sampled_boards(config):
    """The boards that run the harness checks and SAMPLE_MODELS only."""
    full = selected_boards(config)
    return [] if config.getoption("--board") else [b for b in harness.boards() if b not in full]


def variant_boards(config, variant):
    """(boards running every model, boards running the sample) for one variant."""
    full, sampled = selected_boards(config), sampled_boards(config)
    one_core = ONE_CORE_VARIANTS.get(variant)
    if one_core in full and not config.getoption("--board") and os.environ.get(ALL_BOARDS_ENV) != "1":
        return [one_core], sampled + [b for b in full if b != one_core]
    return full, sampled


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


# (board, model name, path) fixtures, per variant: every model on its full-matrix boards,
# and on its sampled boards the sample of this variant.
MODEL_FIXTURES = {"target_model": "portable", "cmsis_nn_target_model": "cmsis-nn", "blob_target_model": "blob"}


def pytest_generate_tests(metafunc):
    from tinyaot.testing import catalog
    for fixture, variant in MODEL_FIXTURES.items():
        if fixture not in metafunc.fixturenames:
            continue
        models = model_params(metafunc.config)
        full, sampled = variant_boards(metafunc.config, variant)
        pairs = [(b, n, p) for n, p in models for b in full]
        pairs += [(b, n, p) for b in sampled for n, p in models if n in SAMPLE_MODELS.get(b, {}).get(variant, ())]
        metafunc.parametrize(fixture, [pytest.param(t, id=f"{t[0]}-{t[1]}") for t in pairs
                                       if catalog.runs_on(t[1], t[0])])


class Target:
    """Builds firmwares (once per board x model per session) and opens devices."""

    def __init__(self, config):
        self.serial_port = config.getoption("--serial-port")
        self.flash_command = config.getoption("--flash-command")
        self._built = {}

    def firmware(self, board, name=None, model=None, test_mode=None, inputs_in_arena=False, kernels="portable",
                 weights="linked", more_models=(), arena_group=None, generator_args=()):
        key = (board, name, test_mode, inputs_in_arena, kernels, weights, tuple(more_models), arena_group,
               tuple(generator_args))
        if key not in self._built:
            try:
                self._built[key] = harness.build_firmware(board, model=model, name=name,
                                                          test_mode=test_mode,
                                                          inputs_in_arena=inputs_in_arena, kernels=kernels,
                                                          weights=weights, more_models=more_models,
                                                          arena_group=arena_group,
                                                          generator_args=generator_args)
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


@pytest.fixture(scope="session")
def sampled(request):
    return sampled_boards(request.config)
