"""tinyaot_depthwise_conv2d_s8's border windows (windows partly outside the input: they
start from the plain bias and add the input offset to each input value they read),
bit-exact with TFLM on the host under ASan/UBSan: inputs 1 to 3 pixels wide or high,
paddings larger than the input, strides 1 and 2 (the 3x3 pixel pairs next to the border),
dilation, per-tensor and per-channel weights, channel counts that are not a multiple of 4
(the 1-channel remainder), input zero points at both ends of the int8 range, and
multipliers 4 and 8 on windows too large for tinyaot_depthwise_mult_s8 (the general
kernel's shared-input blocks)."""

import subprocess
import sys
from pathlib import Path

import numpy as np

from test_codegen import sanitizer_env
from test_depthwise_mult import SCRIPT, _kernels
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.conv import PADDING_SAME as SAME, PADDING_VALID as VALID, out_size
from tinyaot.testing.models_conv import RELU, RELU6, depthwise

ROOT = Path(__file__).resolve().parents[2]

# input [b, h, w, c], filter, options (padding, stride, dilation, act, per_channel), input zero point, multiplier
CASES = [
    ([1, 25, 3, 7], (3, 3), {}, -128, 1),                                   # DS-CNN-like, 3 wide, 7 channels
    ([1, 2, 1, 4], (3, 3), {"per_channel": False}, 127, 1),                 # 1 wide: border only
    ([1, 1, 2, 5], (3, 3), {"stride": (2, 2), "act": RELU}, 0, 1),
    ([1, 5, 6, 9], (3, 3), {"stride": (2, 2), "act": RELU6}, 12, 1),        # pairs at stride 2 beside the border
    ([1, 4, 5, 6], (3, 3), {"stride": (1, 2), "per_channel": False}, -40, 1),
    ([1, 3, 3, 3], (7, 7), {}, 100, 1),                                     # padding 3 on every side
    ([1, 6, 4, 10], (3, 3), {"dilation": (2, 2)}, -9, 1),
    ([2, 3, 2, 2], (5, 3), {"stride": (2, 1), "dilation": (1, 2), "act": RELU}, 33, 1),
    ([1, 5, 3, 8], (2, 2), {"padding": VALID}, -1, 1),                      # no border: the folded bias
    ([1, 2, 2, 1], (182, 182), {}, -128, 4),                                # window far past the input
    ([1, 3, 1, 2], (2, 16513), {"stride": (2, 1), "per_channel": False}, 127, 8),
]


def _model(case):
    shape, filt, opts, zp, mult = CASES[case]
    opts = dict(opts)
    padding, stride, dilation = opts.pop("padding", SAME), opts.get("stride", (1, 1)), opts.get("dilation", (1, 1))
    out_hw = [out_size(padding, shape[1 + i], filt[i], stride[i], dilation[i]) for i in range(2)]
    rng = np.random.default_rng(100 + case)
    mb = ModelBuilder()
    x = mb.input("x", "int8", shape, scale=0.05, zero_point=zp)
    y, _ = depthwise(mb, rng, x, (0.05, zp), [shape[0], *out_hw, shape[3] * mult], filt, multiplier=mult,
                     padding=padding, out_zp=int(rng.integers(-20, 20)), **opts)
    mb.output(y)
    return mb.build()


def test_border_cases_take_the_general_kernel(tmp_path):
    for case in range(len(CASES)):
        assert _kernels(tmp_path, _model(case)) == ["tinyaot_depthwise_conv2d_s8"], CASES[case]


def test_border_windows_match_tflm_under_sanitizers(tmp_path):
    paths = []
    for case in range(len(CASES)):
        (tmp_path / str(case)).mkdir()
        path = tmp_path / str(case) / "m.tflite"
        path.write_bytes(_model(case))
        paths.append(str(path))
    script = SCRIPT.format(python=str(ROOT / "python"), tests=str(ROOT / "tests"), paths=paths)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=sanitizer_env())
    assert "SANITIZED-OK" in result.stdout, f"{result.stdout}\n{result.stderr[-4000:]}"
