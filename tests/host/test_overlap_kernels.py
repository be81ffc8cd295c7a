"""Proof of every declared overlap (ops/overlap.py): each kernel that declares how far
its output may overlap an input runs in C, under ASan/UBSan, with the output placed at
every allowed distance d from the input in one buffer (and just past the limit), over
seeded random shapes and parameters; the result must equal, byte for byte, the run with
separate buffers, which must equal TFLM's. The float32 and 16x8 kernels are proven on the
float32 and 16x8 forms of the same random models (tinyaot.testing.variants), with the
output moved a whole element at a time.

A kernel whose read/write order changes so that a declared overlap no longer holds
fails here: then correct its declaration in ops/overlap.py, not this test.
"""

import os
import subprocess

import numpy as np
import pytest

from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import SANITIZE_FLAGS, WARNING_FLAGS
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.host.oracle import random_inputs, tflm_interpreter
from tinyaot.ops.conv import PADDING_SAME, PADDING_VALID, out_size
from tinyaot.testing.models_conv import conv, depthwise, pool
from tinyaot.testing.variants import variant_of

CASES = 8  # per family


def _geometry(rng, image, max_filter=3):
    filt = tuple(int(v) for v in rng.integers(1, max_filter + 1, 2))
    stride = tuple(int(v) for v in rng.integers(1, 3, 2))
    dilation = tuple(int(v) for v in rng.integers(1, 3, 2))
    padding = int(rng.choice([PADDING_SAME, PADDING_VALID]))
    out = tuple(out_size(padding, image[i], filt[i], stride[i], dilation[i]) for i in range(2))
    return filt, stride, dilation, padding, out


def _image(rng, max_side=7, max_ch=6):
    return (int(rng.integers(1, 3)), int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1)),
            int(rng.integers(1, max_ch + 1)))


def _window_model(rng, family):
    while True:
        b, h, w, c = _image(rng)
        c = 1 if family == "conv_one_channel" else c
        filt, stride, dilation, padding, (oh, ow) = _geometry(rng, (h, w))
        if family == "pointwise":
            filt, dilation, padding, (oh, ow) = (1, 1), (1, 1), PADDING_VALID, ((h - 1) // stride[0] + 1,
                                                                                 (w - 1) // stride[1] + 1)
        if family in ("avg_pool", "max_pool"):
            dilation = (1, 1)
            (oh, ow) = (out_size(padding, h, filt[0], stride[0], 1), out_size(padding, w, filt[1], stride[1], 1))
        if family in ("conv", "conv_one_channel") and filt == (1, 1):
            continue  # a 1x1 filter without groups is the pointwise kernel's
        if oh >= 1 and ow >= 1:
            break
    mb = ModelBuilder()
    q = (float(rng.uniform(0.01, 0.1)), int(rng.integers(-20, 20)))
    x = mb.input("x", "int8", [b, h, w, c], scale=q[0], zero_point=q[1])
    geometry = dict(padding=padding, stride=stride)
    if family == "depthwise":
        mult = int(rng.integers(1, 4))
        y, _ = depthwise(mb, rng, x, q, [b, oh, ow, c * mult], filt, multiplier=mult, dilation=dilation,
                         out_zp=int(rng.integers(-10, 10)), **geometry)
    elif family in ("conv", "conv_one_channel", "pointwise"):
        out_ch = int(rng.integers(1, 9))
        y, _ = conv(mb, rng, x, q, [b, oh, ow, out_ch], filt, dilation=dilation, out_zp=int(rng.integers(-10, 10)),
                    **geometry)
    else:
        y = pool(mb, "AVERAGE_POOL_2D" if family == "avg_pool" else "MAX_POOL_2D", x, q, [b, oh, ow, c], filt,
                 **geometry)
    mb.output(y)
    return mb.build()


def _elementwise_model(rng, family):
    shape = [int(v) for v in rng.integers(1, 6, int(rng.integers(1, 5)))]
    mb = ModelBuilder()
    in_scale, in_zp = float(rng.uniform(0.005, 0.1)), int(rng.integers(-50, 50))
    x = mb.input("x", "int8", shape, scale=in_scale, zero_point=in_zp)
    out_q = dict(scale=float(rng.uniform(0.005, 0.1)), zero_point=int(rng.integers(-50, 50)))
    if family in ("logistic", "softmax"):
        out_q = dict(scale=1.0 / 256, zero_point=-128)
    elif family == "tanh":
        out_q = dict(scale=1.0 / 128, zero_point=0)
    elif family == "hard_swish":
        out_q = dict(scale=in_scale * float(rng.uniform(0.5, 2.0)), zero_point=int(rng.integers(-50, 50)))
    if family == "pad":
        pads = rng.integers(0, 3, (len(shape), 2))
        y = mb.tensor("y", "int8", [n + int(a + b) for n, (a, b) in zip(shape, pads)], scale=in_scale,
                      zero_point=in_zp)
        mb.op("PAD", [x, mb.const("p", pads.astype(np.int32))], [y])
        mb.output(y)
        return mb.build()
    y = mb.tensor("y", "int8", shape, **out_q)
    if family in ("add", "mul"):
        other = mb.input("x2", "int8", shape, scale=float(rng.uniform(0.005, 0.1)),
                         zero_point=int(rng.integers(-50, 50)))
        mb.op(family.upper(), [x, other], [y], "AddOptions" if family == "add" else "MulOptions")
    elif family == "leaky_relu":
        mb.op("LEAKY_RELU", [x], [y], "LeakyReluOptions", alpha=float(rng.uniform(0.05, 0.5)))
    elif family == "softmax":
        mb.op("SOFTMAX", [x], [y], "SoftmaxOptions", beta=float(rng.uniform(0.5, 2.0)))
    else:
        mb.op({"relu": "RELU", "relu6": "RELU6", "logistic": "LOGISTIC", "tanh": "TANH", "hard_swish": "HARD_SWISH",
               "quantize": "QUANTIZE"}[family], [x], [y])
    mb.output(y)
    return mb.build()


WINDOW = ["depthwise", "conv", "pointwise", "avg_pool", "max_pool"]
# CONV_2D on one input channel: the depthwise multiplier kernel (int8 only).
ONE_CHANNEL = ["conv_one_channel"]
ELEMENTWISE = ["relu", "relu6", "logistic", "tanh", "leaky_relu", "hard_swish", "quantize", "add", "mul", "pad"]
# The families whose float32 and 16x8 kernels declare overlaps.
FORM_FAMILIES = {
    "float32": WINDOW + ["relu", "relu6", "logistic", "tanh", "leaky_relu", "softmax", "add", "mul", "pad"],
    "16x8": WINDOW + ["add", "mul", "pad"],
}
# Elements past the declared limit within which some case must break: the declaration is as
# tight as the kernel's order (1), or short by at most the output channels the int8
# convolutions compute together before writing them (their declarations count whole pixels
# or pixel pairs, the one-channel one from a pixel's last output channel, written with a
# chunk of up to 8; the float32 and 16x8 ones compute one value at a time: exact).
SLACK = {("conv", None): 8, ("pointwise", None): 8, ("conv_one_channel", None): 8}

DRIVER = r"""
#include <stdio.h>
#include <string.h>
%(includes)s

/* Whole elements of any dtype at every distance tried. */
#define ALIGNED __attribute__((aligned(16)))

/* Runs case `model` with input `k` copied into big at base and the output at base + d. */
static int run_at(const struct tinyaot_model *model, void **inputs, const int8_t *data, unsigned k,
                  unsigned in_bytes, unsigned out_bytes, int8_t *big, long base, long d, const int8_t *ref)
{
    void *ins[4];
    void *outs[1];
    unsigned i;
    for (i = 0; i < model->num_inputs; i++) {
        ins[i] = inputs[i];
    }
    memcpy(big + base, data, in_bytes);
    ins[k] = big + base;
    outs[0] = big + base + d;
    if (model->run(ins, outs) != 0) {
        return -1;
    }
    return memcmp(big + base + d, ref, out_bytes) != 0;
}

int main(void)
{
%(body)s
    return 0;
}
"""

CASE = r"""
    {
%(data)s
        static int8_t ref[%(out)d] ALIGNED;
        static int8_t big[%(big)d] ALIGNED;
        void *inputs[] = {%(inputs)s};
        void *outs[] = {ref};
        long d;
        unsigned i;
        if (tinyaot_%(name)s_model.run(inputs, outs) != 0) {
            return 1;
        }
        printf("%(name)s ref");
        for (i = 0; i < %(out)d; i++) {
            printf(" %%d", ref[i]);
        }
        printf("\n");
        for (d = %(d_min)d; d <= %(d_max)d; d += %(step)d) {
            if (run_at(&tinyaot_%(name)s_model, inputs, in%(k)d, %(k)d, %(in)d, %(out)d, big, %(base)d, d, ref)) {
                printf("%(name)s differs %%ld\n", d);
            }
        }
    }
"""


def _c_bytes(values):
    return ", ".join(str(int(v)) for v in np.asarray(values).reshape(-1).view(np.int8))


def _run_family(family, form, tmp_path, build=None, options=Options, cflags=(), libs=(), past=None, asan=""):
    """{case: (declared D, TFLM output as bytes, separate-buffer output, distances that differ)};
    form: None (int8), "float32" or "16x8"; build(rng, family): the model (default: this module's
    families); options(name): how to compile it; cflags, libs: for the C compiler (CMSIS-NN);
    past: elements tried past the limit (default SLACK's); asan: more ASAN_OPTIONS."""
    rng = np.random.default_rng(sum(map(ord, family)))
    cases, body, includes = {}, [], []
    build = build or (_window_model if family in WINDOW + ONE_CHANNEL else _elementwise_model)
    for n in range(CASES):
        name = f"{family}{n}"
        path = tmp_path / f"{name}.tflite"
        path.write_bytes(variant_of(lambda: build(rng, family), form)() if form else build(rng, family))
        model = compile_model(path, options(name))
        (op, calls), = model.calls
        declared = calls[0].overlaps
        if not declared:
            continue
        emit(model, tmp_path)
        interp = tflm_interpreter(path)
        specs = [{"dtype": model.graph.tensors[t].dtype, "shape": model.graph.tensors[t].shape}
                 for t in model.graph.inputs]
        inputs = random_inputs(specs, rng)
        for i, x in enumerate(inputs):
            interp.set_input(x, i)
        interp.invoke()
        in_t, _, limit = declared[0]
        k = list(op.inputs).index(in_t)
        in_bytes, out_bytes = inputs[k].nbytes, model.graph.tensors[op.outputs[0]].nbytes
        step = inputs[k].itemsize
        beyond = (SLACK.get((family, form), 1) if past is None else past) * step
        cases[name] = (limit, interp.get_output(0).reshape(-1).view(np.int8), None, [])
        data = "\n".join(f"        static int8_t in{i}[{x.nbytes}] ALIGNED = {{{_c_bytes(x)}}};"
                         for i, x in enumerate(inputs))
        body.append(CASE % dict(name=name, data=data, out=out_bytes, **{"in": in_bytes}, k=k, base=out_bytes,
                                big=out_bytes + max(in_bytes, limit + beyond + out_bytes) + 1,
                                inputs=", ".join(f"in{i}" for i in range(len(inputs))),
                                d_min=-(out_bytes - step), d_max=limit + beyond, step=step))
        includes.append(f'#include "{name}.c"')
    driver = tmp_path / "driver.c"
    driver.write_text(DRIVER % dict(includes="\n".join(includes), body="".join(body)))
    exe = tmp_path / "driver"
    cc = os.environ.get("CC", "cc")
    # -O2 as the firmware: the compiler may reorder only what aliasing rules allow.
    subprocess.run([cc, *WARNING_FLAGS, "-Wno-unused-function", "-O2", "-g", *SANITIZE_FLAGS, "-I", str(tmp_path),
                    *cflags, str(driver), *libs, "-o", str(exe), "-lm"], check=True, capture_output=True, text=True)
    result = subprocess.run([str(exe)], capture_output=True, text=True,
                            env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0" + asan))
    assert result.returncode == 0, result.stderr[-3000:]
    for line in result.stdout.splitlines():
        name, what, *values = line.split()
        limit, expected, _, differs = cases[name]
        if what == "ref":
            cases[name] = (limit, expected, np.array(values, np.int64), differs)
        else:
            differs.append(int(values[0]))
    return cases


@pytest.mark.parametrize("family, form", [(f, None) for f in WINDOW + ONE_CHANNEL + ELEMENTWISE]
                         + [(f, form) for form, families in FORM_FAMILIES.items() for f in families])
def test_output_overlapping_the_input_as_declared_changes_nothing(family, form, tmp_path):
    itemsize = 1 if form is None else 4 if form == "float32" else 2
    check_cases(family, _run_family(family, form, tmp_path), SLACK.get((family, form), 1) * itemsize)


@pytest.mark.parametrize("family, form", [(f, None) for f in WINDOW]
                         + [("conv", "16x8"), ("depthwise", "16x8"), ("add", "16x8")])
def test_armv6m_builds_of_the_kernels_overlap_as_declared(family, form, tmp_path):
    """The kernels as Cortex-M0/M0+/M23 build them (one output pixel at a time, requantization in
    32-bit multiplies; 16x8 CONV_2D four filters a step, 16x8 DEPTHWISE_CONV_2D's rescale in
    16-bit halves, int16 ADD's rows), on the host: as exact and as safe at every declared
    distance. Their order may leave room past the limit (the
    declarations are the two-pixel paths')."""
    cases = _run_family(family, form, tmp_path, cflags=["-DTINYAOT_PIXEL_PAIRS=0", "-DTINYAOT_LONG_MULTIPLY=0"])
    check_cases(family, cases, None)


# Per family, its kernel for cores with the DSP extension (kernels/dsp/), which declares its own overlap.
DSP_FAMILIES = ["pointwise", "add"]


@pytest.mark.parametrize("family", DSP_FAMILIES)
def test_dsp_kernels_overlap_as_declared(family, tmp_path):
    """The kernels generated for --cpu cortex-m4, on the host through the C models of the DSP
    instructions: as exact and as safe at every declared distance, and as tight."""
    cases = _run_family(family, None, tmp_path, options=lambda name: Options(name, cpu="cortex-m4"))
    check_cases(family, cases, SLACK.get((family, None), 1))


def check_cases(family, cases, slack):
    """Every case declares an overlap (most of them), equals TFLM with separate buffers and at every
    declared distance, and some case breaks within `slack` bytes past its limit (None: no such check)."""
    assert len(cases) >= CASES // 2, f"only {len(cases)} of {CASES} random {family} cases declare an overlap"
    past_limit = 0
    for name, (limit, expected, separate, differs) in cases.items():
        assert np.array_equal(separate, expected.astype(np.int64)), f"{name}: separate buffers differ from TFLM"
        allowed = [d for d in differs if d <= limit]
        assert not allowed, f"{name}: output at {allowed[:5]} bytes from the input (declared <= {limit}) differs"
        past_limit += any(d <= limit + (slack or 0) for d in differs)
    assert slack is None or past_limit, \
        f"no {family} case breaks within {slack} bytes past its declared limit: it is loose"
