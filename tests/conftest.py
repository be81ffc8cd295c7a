"""Fixtures shared by every test lane: the models, and the generator's output."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from tinyaot.harness.build import SHARED_CMSIS_NN, cmsis_nn_dir  # noqa: E402
from tinyaot.testing import catalog  # noqa: E402

SHARED_MODELS = ROOT.parent / "shared" / "models"
SHARED_MODEL_NAMES = ["tflm_hello_world_int8", "tflm_micro_speech_quantized",
                      "tflm_keyword_scrambled", "tflm_person_detect_int8"]


def shared_model(name):
    """Path of a published model in ../shared/models; skips the test when absent."""
    path = SHARED_MODELS / f"{name}.tflite"
    if not path.exists():
        pytest.skip(f"{path} is absent: published reference models live in ../shared/models beside the repo")
    return path


@pytest.fixture(scope="session")
def own_models_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("own_models")
    catalog.build_all(folder)
    return folder


@pytest.fixture(scope="session")
def own_model(own_models_dir):
    """own_model(name) -> path of one of the project's own test models."""
    return lambda name: own_models_dir / f"{name}.tflite"


@pytest.fixture
def cmsis_nn(monkeypatch):
    """The CMSIS-NN tree for --kernels cmsis-nn (TINYAOT_CMSIS_NN_DIR, else the unmodified
    copy in ../shared/third_party); skips the test when there is none."""
    path = cmsis_nn_dir()
    if path is None:
        pytest.skip(f"no CMSIS-NN: set TINYAOT_CMSIS_NN_DIR or provide {SHARED_CMSIS_NN}")
    monkeypatch.setenv("TINYAOT_CMSIS_NN_DIR", str(path))  # tinyaot run / the host library read it
    return path
