"""tinyaot_depthwise_conv2d_s8_mve (kernels/mve/, --cpu cortex-m55), bit-exact with TFLM on the
host under ASan/UBSan through the C models of tinyaot_mve.h: border cases of
test_depthwise_borders.py with depth multiplier 1 (130 channels, a group of 2 after eight of
16; with TINYAOT_DEPTHWISE_MVE_ALL=1 also 1 wide, per-tensor; 7x7 with padding 3; 5x3 with
dilation and batches), a stride (2, 1) VALID layer with batches and 37 channels, 8-channel
layers computed two pixels a vector, one with a filter holding -128 (its taps one at a time,
not paired) and a layer band-fused with a
FULLY_CONNECTED; the other layers keep their kernels. The overlap it declares, proven at every
distance."""

import os

import numpy as np

from test_depthwise_borders import CASES, _model
from sanitized import check_all_sanitized
from test_depthwise_mult import _kernels
from test_overlap_kernels import _run_family, check_cases
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.conv import PADDING_SAME, PADDING_VALID, out_size
from tinyaot.ops.depthwise_mve import filter_groups, requant_table
from tinyaot.testing import catalog
from tinyaot.testing.models_conv import depthwise

TAKEN = [c for c, (_, filt, _, _, mult) in enumerate(CASES) if mult == 1 and filt[0] * filt[1] <= 64]


def _layers(shape, out_hw, stride, padding, weights=(None,), seed=7):
    """3x3 depthwise layers one after the other, the first from `shape` to out_hw, the others
    SAME stride 1; weights: per layer, None or the value of every weight of channel 0's middle row."""
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    q = (0.04, -5)
    y = mb.input("x", "int8", shape, scale=q[0], zero_point=q[1])
    for i, weight in enumerate(weights):
        y, q = depthwise(mb, rng, y, q, [shape[0], *out_hw, shape[3]], (3, 3), stride=stride if i == 0 else (1, 1),
                         padding=padding if i == 0 else PADDING_SAME, out_zp=3)
        if weight is not None:
            w = mb.operators[-1]["inputs"][1]
            data = mb.constant_data(w).copy()
            data[0, 1, :, 0] = weight
            mb.set_constant_data(w, data)
    mb.output(y)
    return mb.build()


def test_mve_cores_take_the_vector_kernel_for_depth_multiplier_1(tmp_path):
    assert TAKEN == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 18]
    for case in range(len(CASES)):
        path = tmp_path / "m.tflite"
        path.write_bytes(_model(case))
        kernels = [c.kernel for _, calls in compile_model(path, Options("m", cpu="cortex-m55")).calls for c in calls]
        assert (kernels == ["tinyaot_depthwise_conv2d_s8_mve"]) == (case in TAKEN), (case, kernels)


def test_tables_in_groups_of_16_in_the_sums_lane_order():
    w = np.arange(1, 2 * 18 + 1).reshape(1, 1, 2, 18)  # tap t, channel c: 18 t + c + 1
    groups = filter_groups(w).reshape(2, 2, 16)
    assert list(groups[0, 1, :3]) == [19, 20, 21] and list(groups[1, 1]) == [35, 36] + [0] * 14
    table = requant_table(np.arange(18), [7], [-3], 18).reshape(2, 4, 16)
    assert list(table[0, 0, :8]) == [0, 4, 8, 12, 2, 6, 10, 14] and list(table[1, 0, :4]) == [16, 0, 0, 0]
    assert list(table[0, 1, :2]) == [7, 7] and list(table[0, 2, :2]) == [0, 0] and list(table[0, 3, :2]) == [-3, -3]
    # twin_pixels: the 8 channels again in the upper 8 lanes (lane 4 of the sums holds channel 2,
    # lane 5 channel 6, lane 6 channel 10 -> 2, lane 7 channel 14 -> 6)
    assert list(filter_groups(np.arange(1, 17).reshape(1, 1, 2, 8), True)[16:]) == list(range(9, 17)) * 2
    assert list(requant_table(np.arange(8), [7], [-3], 8, True)[:8]) == [0, 4, 0, 4, 2, 6, 2, 6]


def test_matches_tflm_under_sanitizers(tmp_path):
    # 130 channels (a group of 2 after eight); with TINYAOT_DEPTHWISE_MVE_ALL=1 (CI time) the other
    # corners among TAKEN too: 1 wide per-tensor, 7x7 with padding 3, 5x3 with dilation and batches
    cases = (1, 8, 10, 17) if os.environ.get("TINYAOT_DEPTHWISE_MVE_ALL") else (17,)
    models = {case: _model(case) for case in cases}
    models["strided_valid"] = _layers([2, 7, 9, 37], (3, 7), (2, 1), PADDING_VALID)
    # 8 channels, stride 1 across: two pixels a vector inside (twin_pixels), 5 such columns (two
    # pairs and one alone); then a filter holding -128 (its taps one at a time, not paired)
    models["twin_pixels_weight_minus_128"] = _layers([1, 6, 7, 8], (6, 7), (1, 1), PADDING_SAME,
                                                     weights=(None, -128))
    # band-fused with a FULLY_CONNECTED (ops/band_fc.py: the kernel called per band of rows)
    models["fused"] = catalog.build("fusion_depthwise_dilation_same", tmp_path / "catalog").read_bytes()
    check_all_sanitized(tmp_path, models, cpu="cortex-m55")


def _mve_window_model(rng, family):
    """A random depth-multiplier-1 layer: windows up to 3x3, strides 1-2, 1-40 channels."""
    b, h, w, c = (int(rng.integers(1, 3)), *(int(v) for v in rng.integers(1, 7, 2)), int(rng.integers(1, 41)))
    filt = tuple(int(v) for v in rng.integers(1, 4, 2))
    stride = tuple(int(v) for v in rng.integers(1, 3, 2))
    padding = int(rng.choice([PADDING_SAME, PADDING_VALID]))
    out = [out_size(padding, (h, w)[i], filt[i], stride[i], 1) for i in range(2)]
    if min(out) < 1:
        return _mve_window_model(rng, family)
    mb = ModelBuilder()
    q = (float(rng.uniform(0.01, 0.1)), int(rng.integers(-20, 20)))
    x = mb.input("x", "int8", [b, h, w, c], scale=q[0], zero_point=q[1])
    y, _ = depthwise(mb, rng, x, q, [b, *out, c], filt, padding=padding, stride=stride,
                     out_zp=int(rng.integers(-10, 10)))
    mb.output(y)
    return mb.build()


def test_output_overlapping_the_input_as_declared_changes_nothing(tmp_path):
    """overlap.depthwise_vectors (ops/overlap.py) on the code generated for the M55: outputs equal
    to TFLM's at every declared distance, and some case breaks within a group of 16 past it."""
    cases = _run_family("depthwise", None, tmp_path, build=_mve_window_model,
                        options=lambda name: Options(name, cpu="cortex-m55"), past=16)
    check_cases("depthwise", cases, 16)
