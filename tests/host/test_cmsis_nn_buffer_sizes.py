"""Every CMSIS-NN scratch size the generator plans (convolutions, pooling) equals what CMSIS-NN's own
*_get_buffer_size functions return, for each core class --cpu offers.

The C side is CMSIS-NN itself, built for the host: the plain functions give
the scalar sizes (x86 has neither DSP nor MVE; Cortex-M0/M3), the _dsp variants
those of cores with the DSP extension (Cortex-M4/M7/M33) and the _mve ones those
of Helium cores (Cortex-M55), which CMSIS-NN provides for planning on a host.
"""

import itertools
import subprocess

import numpy as np
import pytest

from conftest import SHARED_MODEL_NAMES, SHARED_MODELS
from tinyaot.host import cmsis_nn as cmsis_nn_host
from tinyaot.cores import CPU_ARCH
from tinyaot.backends.cmsis_nn import (avgpool_buffer_size, conv_buffer_size, conv_kernel, depthwise_buffer_size,
                                       kernel_sums)
from tinyaot.compiler import Options, compile_model
from tinyaot.testing import catalog

CPUS = {"scalar": "cortex-m3", "dsp": "cortex-m4", "mve": "cortex-m55"}
SUFFIX = {"scalar": "", "dsp": "_dsp", "mve": "_mve"}
KINDS = {"tinyaot_cmsis_conv_s8": "conv", "tinyaot_cmsis_depthwise_conv_s8": "depthwise",
         "tinyaot_cmsis_pool_s8": "pool"}
IM2COL = "tinyaot_cmsis_convolve_s8"  # arm_convolve_s8


def _python_size(kind, f, arch):
    if kind == "pool":
        return 0 if f["max"] else avgpool_buffer_size(arch, f["channels"])
    if kind == "im2col":
        return conv_buffer_size(f, IM2COL)
    return conv_buffer_size(f, arch=arch) if kind == "conv" else depthwise_buffer_size(f, arch)


def _c_call(kind, f, arch):
    """A C block printing CMSIS-NN's buffer size for parameter set f (a glue struct's fields)."""
    if kind == "pool":
        if f["max"]:  # arm_max_pool_s8 has no buffer size function: it takes no buffer
            return "printf(\"0\\n\");"
        return (f"printf(\"%ld\\n\", (long)arm_avgpool_s8_get_buffer_size{SUFFIX[arch]}"
                f"({f['output_w']}, {f['channels']}));")
    tiles = "{%d, %d}, {%d, %d}, {%d, %d}" % (f["stride_w"], f["stride_h"], f["pad_w"], f["pad_h"],
                                             f["dilation_w"], f["dilation_h"])
    if kind in ("conv", "im2col"):
        params = f"cmsis_nn_conv_params p = {{1, 0, {tiles}, {{-128, 127}}}};"
        filter_dims = (f["output_c"], f["filter_h"], f["filter_w"], f["input_c"])
        function = "arm_convolve_wrapper_s8_get_buffer_size"
    else:
        params = f"cmsis_nn_dw_conv_params p = {{1, 0, {f['ch_mult']}, {tiles}, {{-128, 127}}}};"
        filter_dims = (1, f["filter_h"], f["filter_w"], f["output_c"])
        function = "arm_depthwise_conv_wrapper_s8_get_buffer_size"
    dims = {"i": (f["input_n"], f["input_h"], f["input_w"], f["input_c"]), "w": filter_dims,
            "o": (f["input_n"], f["output_h"], f["output_w"], f["output_c"])}
    decl = ", ".join(f"{k} = {{{', '.join(map(str, v))}}}" for k, v in dims.items())
    if kind == "im2col":  # a 1x1 convolution compile_model put on arm_convolve_s8 or _1_x_n_s8 (same size off MVE)
        return (f"{{ {params} cmsis_nn_dims {decl}; (void)p; (void)o; "
                f"printf(\"%ld\\n\", (long)arm_convolve_s8_get_buffer_size(&i, &w)); }}")
    return (f"{{ {params} cmsis_nn_dims {decl}; "
            f"printf(\"%ld\\n\", (long){function}{SUFFIX[arch]}(&p, &i, &w, &o)); }}")


def _grid():
    """Parameter sets reaching every branch of the size functions (1x1, 1xN, 3x3, general; batches,
    dilation, depth multipliers)."""
    cases = []
    for (n, ih, iw, ic), (fh, fw), (sh, sw), (ph, pw), (dh, dw) in itertools.product(
            [(1, 1, 10, 4), (1, 1, 9, 3), (1, 7, 7, 8), (2, 5, 6, 1)], [(1, 1), (1, 3), (3, 3), (5, 2)],
            [(1, 1), (1, 2), (2, 2)], [(0, 0), (1, 1), (0, 2)], [(1, 1), (1, 2), (2, 1)]):
        base = dict(input_n=n, input_h=ih, input_w=iw, input_c=ic, filter_h=fh, filter_w=fw,
                    output_h=max(1, (ih + 2 * ph - (fh - 1) * dh - 1) // sh + 1),
                    output_w=max(1, (iw + 2 * pw - (fw - 1) * dw - 1) // sw + 1),
                    stride_h=sh, stride_w=sw, pad_h=ph, pad_w=pw, dilation_h=dh, dilation_w=dw)
        cases.append(("conv", {**base, "output_c": 6, "ch_mult": 1}))
        for mult in (1, 3):
            cases.append(("depthwise", {**base, "output_c": ic * mult, "ch_mult": mult}))
    cases += [("pool", {"max": 0, "output_w": w, "channels": c}) for w, c in ((1, 1), (5, 8), (7, 33))]
    return cases


def _planned(arch, folder):
    """(kind, fields, planned scratch bytes) of every CMSIS-NN convolution in every model, for arch's core."""
    paths = [catalog.build(n, folder) for n in catalog.names()]
    paths += [p for p in (SHARED_MODELS / f"{n}.tflite" for n in SHARED_MODEL_NAMES) if p.exists()]
    cases = []
    for path in paths:
        model = compile_model(path, Options("m", kernels="cmsis-nn", cpu=CPUS[arch], cmsis_nn_conv="im2col"))
        for _, calls in model.calls:
            for call in calls:
                if call.kernel in KINDS:
                    f = call.args[0].fields
                    # A 1x1 convolution compile_model put on arm_convolve_s8, not the wrapper's kernel.
                    im2col = call.kernel == "tinyaot_cmsis_conv_s8" and call.args[-1] != conv_kernel(f)
                    cases.append(("im2col" if im2col else KINDS[call.kernel], f, sum(call.scratch)))
    return cases


def _c_sizes(tmp_path, blocks):
    root = cmsis_nn_host.cmsis_nn_dir()
    src, exe = tmp_path / "sizes.c", tmp_path / "sizes"
    src.write_text("#include <stdio.h>\n#include \"arm_nnfunctions.h\"\nint main(void)\n{\n"
                   + "\n".join(blocks) + "\nreturn 0;\n}\n")
    subprocess.run(["cc", "-std=c99", *cmsis_nn_host.compile_flags(root), str(src),
                    str(cmsis_nn_host.host_library("cc")), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return [int(line) for line in out.split()]


@pytest.mark.parametrize("arch", sorted(CPUS))
def test_scratch_sizes_match_cmsis_nn(arch, tmp_path, cmsis_nn):
    assert CPU_ARCH[CPUS[arch]] == arch
    planned = _planned(arch, tmp_path)
    assert planned, "no model has a CMSIS-NN convolution"
    cases = [(kind, f) for kind, f, _ in planned] + _grid()
    expected = _c_sizes(tmp_path, [_c_call(kind, f, arch) for kind, f in cases])
    # What the planner reserved for each call of the models ...
    wrong = [(f, size, want) for (_, f, size), want in zip(planned, expected) if size != want]
    assert not wrong, f"{len(wrong)} planned scratch buffers differ from CMSIS-NN's sizes, e.g. {wrong[:2]}"
    # ... and the size functions themselves, over every branch.
    got = [_python_size(kind, f, arch) for kind, f in cases]
    wrong = [(cases[i], got[i], expected[i]) for i in range(len(cases)) if got[i] != expected[i]]
    assert not wrong, f"{len(wrong)} of {len(cases)} sizes differ from CMSIS-NN's, e.g. {wrong[:2]}"
    assert sum(map(bool, expected)) > 20, "too few cases need a buffer for the comparison to mean much"


def test_mve_kernel_sums_match_arm_vector_sum_s8(tmp_path, cmsis_nn):
    """The fully connected kernel sums the generator tables for MVE cores equal arm_vector_sum_s8's
    (its plain C path, the sums its MVE path computes too): with and without bias, filter offset
    and input offset."""
    rng = np.random.default_rng(26)
    weights = rng.integers(-128, 128, (7, 37), dtype=np.int8)
    bias = rng.integers(-5000, 5000, 7, dtype=np.int32)
    cases = [(bias, 128, 0), (None, 3, -2), (bias, 0, 5)]
    table = ", ".join(map(str, weights.ravel()))
    blocks = [f"static const int8_t w[] = {{{table}}}; static const int32_t b[] = {{{', '.join(map(str, bias))}}};"
              "int32_t sums[7]; int k;"]
    for b, lhs, rhs in cases:
        blocks.append(f"arm_vector_sum_s8(sums, 37, 7, w, {lhs}, {rhs}, {'b' if b is not None else 'NULL'});"
                      "for (k = 0; k < 7; k++) printf(\"%ld\\n\", (long)sums[k]);")
    got = _c_sizes(tmp_path, blocks)
    want = [int(v) for b, lhs, rhs in cases
            for v in kernel_sums(weights, b, lhs, rhs)]
    assert got == want
    assert len(set(got)) > 14  # distinct sums: the offsets and the bias all showed
