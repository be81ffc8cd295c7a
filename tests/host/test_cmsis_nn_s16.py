"""Where the cmsis-nn backend's 16x8 SOFTMAX leaves arm_softmax_s16 for the portable kernel
(backends/cmsis_nn_s16.py): the depths at which CMSIS-NN's shortcuts could show against TFLM."""

from tinyaot.backends.cmsis_nn_s16 import _softmax_shortcuts_show
from tinyaot.ops.lut import softmax_luts


def test_softmax_s16_on_cmsis_nn_only_where_exact():
    exp_lut, reciprocal_lut = softmax_luts()
    found = {depth: _softmax_shortcuts_show(depth, exp_lut, reciprocal_lut) for depth in [*range(1, 10), 1000]}
    assert "does not clamp its output to 32767" in found[1]  # one value: exp 32767 x 1/(1 + 1) rounds to 32769
    assert all(found[depth] is None for depth in range(2, 9)), found
    # 9 x 32767 reaches 2^18 - 1, whose normalised sum plus the rounding bit leaves int32.
    assert all("shifts their sum of exps in int32" in found[depth] for depth in (9, 1000)), found
