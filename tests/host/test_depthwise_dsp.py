"""tinyaot_depthwise_conv2d_s8_dsp (kernels/dsp/, --cpu cortex-m4 and the other DSP cores),
bit-exact with TFLM on the host under ASan/UBSan through the C models of the instructions:
the border cases of test_depthwise_borders.py that it takes (3x3, multiplier 1, stride_w 1
or 2: inputs 1-3 pixels wide or high, pairs with columns outside on either side, the last
pixel of an odd row alone, 5-130 channels: a last group of 1-3 channels, the widest pairs,
per-tensor and per-channel weights, requantization that does not fold) and a stride (2, 1)
and VALID layer; every other case keeps the portable kernel."""

import numpy as np
import pytest

from test_depthwise_borders import CASES, _cases_model, _model
from sanitized import check_all_sanitized
from test_depthwise_mult import _kernels
from test_models_host import check_against_tflm
from test_overlap_kernels import _run_family, check_cases
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.conv import PADDING_SAME, PADDING_VALID, out_size
from tinyaot.ops.depthwise_dsp import filter_groups
from tinyaot.testing import catalog
from tinyaot.testing.models_conv import depthwise

TAKEN = [c for c, (_, filt, opts, _, mult) in enumerate(CASES)
         if filt == (3, 3) and mult == 1 and "dilation" not in opts and CASES[c][0][3] <= 128]


def _strided_valid():
    rng = np.random.default_rng(7)
    mb = ModelBuilder()
    x = mb.input("x", "int8", [2, 7, 9, 13], scale=0.04, zero_point=-5)
    y, _ = depthwise(mb, rng, x, (0.04, -5), [2, 3, 7, 13], (3, 3), stride=(2, 1), padding=PADDING_VALID,
                     out_zp=3)
    mb.output(y)
    return mb.build()


def test_dsp_cores_take_the_simd_kernel_where_it_fits(tmp_path):
    assert TAKEN == [0, 1, 2, 3, 4, 5, 6, 7, 15, 16, 18]
    for case in range(len(CASES)):
        path = tmp_path / "m.tflite"
        path.write_bytes(_model(case))
        kernels = [c.kernel for _, calls in compile_model(path, Options("m", cpu="cortex-m4")).calls for c in calls]
        assert kernels == [_kernels(tmp_path, _model(case))[0] + ("_dsp" if case in TAKEN else "")], case


def test_filter_groups_of_four_channels_tap_by_tap():
    w = np.arange(1, 9 * 5 + 1).reshape(1, 3, 3, 5)  # tap t, channel c: 5 t + c + 1
    table = filter_groups(w).reshape(2, 9, 4)
    assert list(table[0, 1]) == [6, 7, 8, 9] and list(table[1, 8]) == [45, 0, 0, 0]


def test_matches_tflm_under_sanitizers(tmp_path):
    taken = _cases_model(TAKEN)
    (tmp_path / "m.tflite").write_bytes(taken)
    kernels = [c.kernel for _, calls in compile_model(tmp_path / "m.tflite", Options("m", cpu="cortex-m4")).calls
               for c in calls]
    assert kernels == ["tinyaot_depthwise_conv2d_s8_dsp"] * len(TAKEN)  # as one by one
    check_all_sanitized(tmp_path, {"taken": taken, "strided_valid": _strided_valid()}, cpu="cortex-m4")


def _dsp_window_model(rng, family):
    """A random layer the DSP kernel takes: 3x3, multiplier 1, stride_w 1 or 2, 1-9 channels."""
    b, h, w, c = (int(rng.integers(1, 3)), *(int(v) for v in rng.integers(1, 8, 2)), int(rng.integers(1, 10)))
    stride = tuple(int(v) for v in rng.integers(1, 3, 2))
    padding = int(rng.choice([PADDING_SAME, PADDING_VALID]))
    out = [out_size(padding, (h, w)[i], 3, stride[i], 1) for i in range(2)]
    if min(out) < 1:
        return _dsp_window_model(rng, family)
    mb = ModelBuilder()
    q = (float(rng.uniform(0.01, 0.1)), int(rng.integers(-20, 20)))
    x = mb.input("x", "int8", [b, h, w, c], scale=q[0], zero_point=q[1])
    y, _ = depthwise(mb, rng, x, q, [b, *out, c], (3, 3), padding=padding, stride=stride,
                     out_zp=int(rng.integers(-10, 10)))
    mb.output(y)
    return mb.build()


@pytest.mark.parametrize("cflags", [[], ["-DTINYAOT_PIXEL_PAIRS=0"]], ids=["pairs", "single-pixels"])
def test_output_overlapping_the_input_as_declared_changes_nothing(cflags, tmp_path):
    """overlap.depthwise holds for the DSP kernel's order too (ops/overlap.py; the proof of
    tests/host/test_overlap_kernels.py on the code generated for the M4), with pixel pairs
    and without (--optimize size): outputs equal to TFLM's at every declared distance."""
    cases = _run_family("depthwise", None, tmp_path, build=_dsp_window_model,
                        options=lambda name: Options(name, cpu="cortex-m4"), cflags=cflags)
    check_cases("depthwise", cases, None)


@pytest.mark.parametrize("name", ["ds_cnn_kws", "mini_mobilenet"])
def test_whole_models_match_tflm(name, tmp_path):
    """The models the kernels are for, generated for the M4 (DSP depthwise and CONV_2D loops
    next to the portable kernels), bit-exact with TFLM on the host."""
    check_against_tflm(catalog.build(name, tmp_path), name, tmp_path / "out", calls=2, cpu="cortex-m4")
