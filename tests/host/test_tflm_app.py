"""tinyaot.measure.tflm_app: the sources of a model's TFLM firmware (op resolver, kernel list,
model bytes), read from the TFLM tree; skips without one."""

import re

import pytest

from tinyaot import harness
from tinyaot.measure import tflm_app
from tinyaot.errors import TinyAotError


@pytest.fixture
def tflm():
    path = harness.tflm_dir()
    if path is None:
        pytest.skip(f"no TFLM source tree: set TINYAOT_TFLM_DIR or provide {harness.build.SHARED_TFLM}")
    return path


@pytest.mark.parametrize("kernels", ["reference", "cmsis-nn"])
def test_depthwise_model_gets_its_resolver_and_the_kernels_it_links_against(tflm, own_model, tmp_path, kernels):
    model = own_model("depthwise_multipliers")
    tflm_app.generate(model, "dw", tflm, kernels, tmp_path)
    ops = (tmp_path / "tflm_model_ops.h").read_text()
    assert "#define TINYAOT_TFLM_OP_COUNT 1\n#define TINYAOT_TFLM_NUM_INPUTS 1\n#define TINYAOT_TFLM_NUM_OUTPUTS 1\n" in ops
    assert "#define TINYAOT_TFLM_ADD_OPS(r) (r.AddDepthwiseConv2D() == kTfLiteOk)" in ops
    kernels_used = [line.split("/micro/kernels/")[1] for line in (tmp_path / "kernels.txt").read_text().split()]
    first = "cmsis_nn/depthwise_conv.cc" if kernels == "cmsis-nn" else "depthwise_conv.cc"
    # depthwise_conv.h includes conv.h, whose constants live in conv_common.cc.
    assert kernels_used == [first, "depthwise_conv_common.cc", "conv_common.cc"]
    data = (tmp_path / "tflm_model_data.cc").read_text()
    assert "alignas(16) extern const unsigned char tinyaot_tflm_model_data[]" in data
    assert len(re.findall(r"0x[0-9a-f]{2}", data)) == model.stat().st_size


def test_a_damaged_model_is_one_line_naming_the_file(tflm, tmp_path):
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"\x10\x00\x00\x00TFL3" + b"\xff" * 8)
    with pytest.raises(TinyAotError, match=r"bad\.tflite: malformed TFLite flatbuffer"):
        tflm_app.generate(bad, "bad", tflm, "reference", tmp_path / "out")
