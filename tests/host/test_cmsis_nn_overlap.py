"""Proof of the CMSIS-NN kernels' declared overlaps (backends/cmsis_nn_overlap.py), as
test_overlap_kernels.py proves the portable kernels': each kernel runs on the host with its
output at every allowed distance from its input, under ASan/UBSan (CMSIS-NN built with them
too), over seeded random shapes and parameters that reach every code path the backend
selects, equal byte for byte to the run with separate buffers, which equals TFLM; and some
case breaks one byte past its limit.

CMSIS-NN runs its plain C on --cpu cortex-m0/m0plus/m1/m3 (ARM_MATH_DSP unset), its DSP paths
on cortex-m4/m7/m33/m35p: the host has no DSP instructions and builds those with C models of
them (tinyaot.host.cmsis_nn.dsp_flags()), for the families whose kernels have a DSP path of
their own (the generic depthwise and softmax do not; conv_1xn and pointwise call
arm_convolve_s8, as conv does).
"""

import re
from functools import partial

import pytest

from test_overlap_kernels import _elementwise_model, _run_family, _window_model, check_cases
from tinyaot.host import cmsis_nn as cmsis_nn_host
from tinyaot.compiler import Options
from tinyaot.host.model import SANITIZE_FLAGS
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.ops.conv import PADDING_SAME, PADDING_VALID, out_size
from tinyaot.testing.models_conv import conv, depthwise

IM2COL, ONE_BY_N = "tinyaot_cmsis_convolve_s8", "arm_convolve_1_x_n_s8"
DW_3X3, DW_OPT, DW = "arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8"


def _q(rng):
    return float(rng.uniform(0.01, 0.1)), int(rng.integers(-20, 20))


def _dw_model(rng, family):
    """dw_3x3: the 3x3 kernel's cases (multiplier 1, batch 1, padding <= 1), with channel counts
    that leave 0 to 3 channels after the groups of four; dw_opt: multiplier 1 and another filter
    (arm_depthwise_conv_s8_opt); dw_mult4: a multiplier of 4 or 8."""
    while True:
        c = int(rng.integers(1, 10))
        h, w = (int(v) for v in rng.integers(1, 8, 2))
        stride = tuple(int(v) for v in rng.integers(1, 3, 2))
        padding = int(rng.choice([PADDING_SAME, PADDING_VALID]))
        filt = (3, 3) if family == "dw_3x3" else tuple(int(v) for v in rng.integers(1, 5, 2))
        oh, ow = (out_size(padding, n, f, s, 1) for n, f, s in zip((h, w), filt, stride))
        if oh >= 1 and ow >= 1 and (family != "dw_opt" or filt != (3, 3)):
            break
    mult = int(rng.choice([4, 8])) if family == "dw_mult4" else 1
    mb = ModelBuilder()
    q = _q(rng)
    x = mb.input("x", "int8", [1, h, w, c], scale=q[0], zero_point=q[1])
    y, _ = depthwise(mb, rng, x, q, [1, oh, ow, c * mult], filt, multiplier=mult, stride=stride, padding=padding,
                     out_zp=int(rng.integers(-10, 10)))
    mb.output(y)
    return mb.build()


def _conv_1xn_model(rng, _family):
    """A row image (height 1, filter 1 x N): arm_convolve_1_x_n_s8's cases (stride x channels a multiple of 4)."""
    while True:
        c, stride_w = int(rng.choice([4, 8])), int(rng.integers(1, 3))
        w, fw = int(rng.integers(2, 12)), int(rng.integers(2, 5))
        padding = int(rng.choice([PADDING_SAME, PADDING_VALID]))
        ow = out_size(padding, w, fw, stride_w, 1)
        if ow >= 1:
            break
    mb = ModelBuilder()
    q = _q(rng)
    x = mb.input("x", "int8", [int(rng.integers(1, 3)), 1, w, c], scale=q[0], zero_point=q[1])
    y, _ = conv(mb, rng, x, q, [mb.tensors[x]["shape"][0], 1, ow, int(rng.integers(1, 9))], (1, fw),
                stride=(1, stride_w), padding=padding, out_zp=int(rng.integers(-10, 10)))
    mb.output(y)
    return mb.build()


# family: (model builder, the CMSIS-NN kernels its cases must call, all of them, or the C call's name)
FAMILIES = {
    "conv": (_window_model, {IM2COL}),
    "conv_1xn": (_conv_1xn_model, {ONE_BY_N}),
    "pointwise": (_window_model, {IM2COL, ONE_BY_N}),  # with --cmsis-nn-1x1 im2col, as compile_model picks it
    "depthwise": (_window_model, {DW, DW_OPT, DW_3X3}),
    "dw_3x3": (_dw_model, {DW_3X3}),
    "dw_opt": (_dw_model, {DW_OPT}),
    "dw_mult4": (_dw_model, {DW}),
    "avg_pool": (_window_model, {"tinyaot_cmsis_pool_s8"}),
    "max_pool": (_window_model, {"tinyaot_cmsis_pool_s8"}),
    "softmax": (_elementwise_model, {"tinyaot_cmsis_softmax_s8"}),
    "add": (_elementwise_model, {"tinyaot_cmsis_add_s8"}),
    "mul": (_elementwise_model, {"tinyaot_cmsis_mul_s8"}),
}
# The 16x8 forms of these families (tinyaot.testing.variants), on CMSIS-NN's s16 kernels (plain C only:
# they have no DSP paths of their own but arm_elementwise_mul_s16's SMULBB, the same order).
FAMILIES_16X8 = {"depthwise": {"tinyaot_cmsis_depthwise_conv_s16"}, "avg_pool": {"tinyaot_cmsis_pool_s16"},
                 "max_pool": {"tinyaot_cmsis_pool_s16"}, "add": {"tinyaot_cmsis_add_s16"},
                 "mul": {"tinyaot_cmsis_mul_s16"}}
# Bytes past the limit within which some case must break: the declarations are exact (the
# first output byte written after the last read), but max pooling writes a pixel's output
# before reading its window, so it is declared from the next pixel on (safe up to then).
SLACK = {"max_pool": 8}
# arm_max_pool_s8 memcpy()s a window pixel into the output pixel: past the limit the two can
# overlap, which ASan stops at. Its allowed distances run under full ASan, those past the
# limit (where that memcpy is a break of the bound) without ASan's memcpy checks.
PAST_WITHOUT_MEMCPY_CHECKS = {"max_pool"}
# A core without DSP keeps tinyaot's 16x8 depthwise kernel (cmsis_nn_s16.DEPTHWISE_ON_SCALAR):
# arm_depthwise_conv_s16 (plain C on every core) runs here as a DSP core calls it.
CPU_16X8 = {"depthwise": "cortex-m4"}
# The families whose kernels run code of their own on DSP cores (see the module's docstring).
DSP_FAMILIES = ["avg_pool", "conv", "dw_3x3", "dw_opt", "max_pool", "add", "mul"]


def _options(family, cpu, name):
    return Options(name, kernels="cmsis-nn", cpu=cpu, cmsis_nn_1x1="im2col" if family == "pointwise" else "auto",
                   cmsis_nn_conv="im2col")


@pytest.fixture(scope="module")
def sanitized_cmsis_nn():
    """cpu -> (flags for the generated .c, [CMSIS-NN built for that core's paths]), each built once."""
    from tinyaot.harness.build import cmsis_nn_dir
    root = cmsis_nn_dir()
    if root is None:
        pytest.skip("no CMSIS-NN tree (TINYAOT_CMSIS_NN_DIR, or ../shared/third_party/CMSIS-NN): "
                    "the CMSIS-NN kernels' overlaps cannot be run")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(cmsis_nn_host.ENV, str(root))
        # CMSIS-NN shifts negative values left (arm_elementwise_add_s8): undefined in C99, what GCC
        # does on every target; Arm's code, not ours to fix, so that check alone is off for it.
        flags = [*SANITIZE_FLAGS, "-fno-sanitize=shift-base"]
        paths = {"cortex-m3": [], "cortex-m4": cmsis_nn_host.dsp_flags()}
        yield lambda cpu: ([*cmsis_nn_host.compile_flags(root), *paths[cpu]],
                           [str(cmsis_nn_host.host_library("cc", [*flags, *paths[cpu]]))])


@pytest.mark.parametrize("family, cpu, form", [(f, "cortex-m3", None) for f in sorted(FAMILIES)]
                         + [(f, "cortex-m4", None) for f in DSP_FAMILIES]
                         + [(f, CPU_16X8.get(f, "cortex-m3"), "16x8") for f in sorted(FAMILIES_16X8)])
def test_cmsis_nn_output_overlapping_the_input_as_declared_changes_nothing(family, cpu, form, tmp_path,
                                                                             sanitized_cmsis_nn):
    build, kernels = FAMILIES[family]
    kernels = FAMILIES_16X8[family] if form else kernels
    cflags, libs = sanitized_cmsis_nn(cpu)
    run = partial(_run_family, family, form, tmp_path, build, partial(_options, family, cpu), cflags, libs)
    if family in PAST_WITHOUT_MEMCPY_CHECKS:
        run(past=0)  # fails on any ASan report at an allowed distance (differences: the next run)
        cases = run(past=SLACK[family], asan=":replace_intrin=0")
    else:
        cases = run(past=SLACK.get(family, 1))
    called = {k for name in cases for k in re.findall(r"\b(arm_\w+|tinyaot_cmsis_\w+_s(?:8|16))\)?;",
                                                       (tmp_path / f"{name}.c").read_text())}
    assert called & kernels == called - {"tinyaot_cmsis_conv_s8", "tinyaot_cmsis_depthwise_conv_s8"}, called
    if form:  # the s16 calls take no kernel argument: the cases call them by name
        s16 = {k for name in cases
               for k in re.findall(r"\b(tinyaot_cmsis_\w+_s16)\(", (tmp_path / f"{name}.c").read_text())}
        assert s16 == kernels, s16
    check_cases(family, cases, SLACK.get(family, 1) * (2 if form else 1))  # elements -> bytes
