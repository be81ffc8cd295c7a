"""The committed sample model is what its script builds, and the sample's
expected console output is TFLM's."""

import importlib.util
import re

import yaml

from conftest import ROOT

SAMPLE = ROOT / "samples" / "hello_world"


def load_make_model():
    spec = importlib.util.spec_from_file_location("make_model", SAMPLE / "make_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_model_is_reproducible():
    assert load_make_model().build() == (SAMPLE / "hello_world.tflite").read_bytes()


def test_sample_yaml_expects_tflm_outputs():
    make_model = load_make_model()
    expected = make_model.tflm_outputs(make_model.build(), make_model.SAMPLE_INPUTS)
    regexes = yaml.safe_load((SAMPLE / "sample.yaml").read_text())["tests"]["sample.tinyaot.hello_world"][
        "harness_config"]["regex"]
    for i, (row, out) in enumerate(zip(make_model.SAMPLE_INPUTS, expected)):
        assert any(re.fullmatch(r, f"input  {i}: {' '.join(map(str, row))}") for r in regexes)
        assert any(re.fullmatch(r, f"output {i}: {' '.join(map(str, out))}") for r in regexes)
