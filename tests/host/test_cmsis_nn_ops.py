"""Each CMSIS-NN lowering across its parameter space, bit-exact with TFLM on the
host.

One single-operator model per case, so that a mismatch names the parameters
(and the CMSIS-NN kernel the wrapper picks for them) that cause it.
"""

import json
import re

import numpy as np
import pytest

from test_models_host import check_against_tflm
from tinyaot.backends.cmsis_nn import PORTABLE_ON_SCALAR
from tinyaot.backends.cmsis_nn_lstm import PORTABLE_ON_SCALAR as LSTM_ON_SCALAR
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.models_basic import fc
from tinyaot.testing.models_conv import RELU, RELU6, RELU_N1_TO_1, VALID, conv, depthwise, pool
from tinyaot.testing.models_lstm import lstm
from tinyaot.testing.variants import variant_of


def _run_single_op(tmp_path, build, cmsis_nn_1x1="auto"):
    """Builds a one-operator model with build(mb, rng, x, q), checks it against TFLM with
    --kernels cmsis-nn (--cmsis-nn-conv im2col: auto would keep a lone convolution on tinyaot's
    kernel, which needs no scratch) and returns its operators' (type, backend, reason)."""
    rng = np.random.default_rng(7)
    mb = ModelBuilder()
    y, _ = build(mb, rng, (0.04, -7))
    mb.output(y)
    path = tmp_path / "m.tflite"
    path.write_bytes(mb.build())
    check_against_tflm(path, "m", tmp_path / "out", calls=3, kernels="cmsis-nn", cmsis_nn_1x1=cmsis_nn_1x1,
                       cmsis_nn_conv="im2col")
    report = json.loads((tmp_path / "out" / "m.json").read_text())
    return [(op["type"], op["backend"], op["backend_reason"]) for op in report["operators"]]


def _called_kernel(tmp_path):
    """The CMSIS-NN convolution kernel the generated code calls (the wrapper's run-time choice)."""
    code = (tmp_path / "out" / "m.c").read_text()
    (kernel,) = set(re.findall(r"\b(arm_\w+|tinyaot_cmsis_convolve_s8)\);", code))
    return kernel


# kernel, input shape, output shape, filter hw, options: the kernel arm_convolve_wrapper_s8 would
# pick, which the generated code calls directly: the 1x1 fast kernel, the strided 1x1, the 1xN row
# kernel or the general im2col one (arm_convolve_s8).
IM2COL = "tinyaot_cmsis_convolve_s8"  # arm_convolve_s8 with the other kernels' signature
CONV_CASES = {
    "1x1": ("arm_convolve_1x1_s8_fast", [1, 5, 6, 8], [1, 5, 6, 4], (1, 1), {}),
    "1x1_stride2_per_tensor": ("arm_convolve_1x1_s8", [1, 5, 6, 8], [1, 3, 3, 4], (1, 1),
                               {"stride": (2, 2), "per_channel": False}),
    "1xN_row": ("arm_convolve_1_x_n_s8", [1, 1, 12, 4], [1, 1, 6, 6], (1, 3), {"stride": (1, 2), "act": RELU}),
    "1xN_valid_batch2_no_bias": ("arm_convolve_1_x_n_s8", [2, 1, 9, 8], [2, 1, 7, 3], (1, 3),
                                 {"padding": VALID, "bias": False}),
    "3x3_same": (IM2COL, [1, 7, 7, 3], [1, 7, 7, 5], (3, 3), {"act": RELU6}),
    "3x2_valid_strides": (IM2COL, [1, 9, 10, 3], [1, 4, 3, 6], (3, 2), {"padding": VALID, "stride": (2, 3)}),
    "dilation_batch2": (IM2COL, [2, 8, 9, 3], [2, 4, 9, 4], (3, 3), {"stride": (2, 1), "dilation": (2, 3)}),
    "per_tensor_odd_channels": (IM2COL, [1, 6, 5, 5], [1, 6, 5, 7], (2, 3),
                                {"per_channel": False, "act": RELU_N1_TO_1}),
}


@pytest.mark.parametrize("case", sorted(CONV_CASES))
def test_conv(case, tmp_path, cmsis_nn):
    kernel, in_shape, out_shape, hw, opts = CONV_CASES[case]

    def build(mb, rng, q):
        return conv(mb, rng, mb.input("x", "int8", in_shape, scale=q[0], zero_point=q[1]), q, out_shape, hw,
                    out_zp=3, **opts)

    # CMSIS-NN's 1x1 kernels: on the M3 --cmsis-nn-1x1 auto keeps the portable one (test_planner.py)
    wrapper = "wrapper" if kernel.startswith("arm_convolve_1x1") else "auto"
    assert _run_single_op(tmp_path, build, wrapper) == [("CONV_2D", "cmsis-nn", None)]
    assert _called_kernel(tmp_path) == kernel


# As arm_depthwise_conv_wrapper_s8 picks: multiplier 1 and batch 1 take the 3x3 or the optimised
# kernel, the rest arm_depthwise_conv_s8. (TFLM crashes on a depthwise
# convolution without bias, so every case has one.)
DW_3X3, DW_OPT, DW_GENERAL = "arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8"
DEPTHWISE_CASES = {
    "3x3_same": (DW_3X3, [1, 7, 6, 8], [1, 7, 6, 8], (3, 3), {}),
    "3x3_stride2_valid": (DW_3X3, [1, 9, 9, 4], [1, 4, 4, 4], (3, 3), {"padding": VALID, "stride": (2, 2)}),
    "5x5_opt_per_tensor": (DW_OPT, [1, 8, 8, 6], [1, 8, 8, 6], (5, 5), {"per_channel": False, "act": RELU}),
    "multiplier3": (DW_GENERAL, [1, 6, 5, 2], [1, 6, 5, 6], (3, 3), {"multiplier": 3}),
    "multiplier4_one_channel": (DW_GENERAL, [1, 6, 6, 1], [1, 3, 3, 4], (3, 3), {"multiplier": 4, "stride": (2, 2)}),
    "dilation": (DW_GENERAL, [1, 9, 9, 4], [1, 9, 9, 4], (3, 3), {"dilation": (2, 2)}),
    "batch2": (DW_GENERAL, [2, 5, 5, 4], [2, 5, 5, 4], (2, 3), {"act": RELU6}),
}


@pytest.mark.parametrize("case", sorted(DEPTHWISE_CASES))
def test_depthwise(case, tmp_path, cmsis_nn):
    kernel, in_shape, out_shape, hw, opts = DEPTHWISE_CASES[case]

    def build(mb, rng, q):
        return depthwise(mb, rng, mb.input("x", "int8", in_shape, scale=q[0], zero_point=q[1]), q, out_shape,
                         hw, out_zp=-4, **opts)

    if in_shape[3] == 1:  # one input channel: on the M3 tinyaot's kernel, the faster (arm_depthwise_conv_s8,
        # the same code at any channel count, runs in the other DW_GENERAL cases)
        assert _run_single_op(tmp_path, build) == [("DEPTHWISE_CONV_2D", "portable",
                                                    PORTABLE_ON_SCALAR["tinyaot_depthwise_mult_s8"])]
        return
    assert _run_single_op(tmp_path, build) == [("DEPTHWISE_CONV_2D", "cmsis-nn", None)]
    assert _called_kernel(tmp_path) == kernel


# input shape, units, options: per-tensor and per-channel, batches (rows of a higher-rank input).
FC_CASES = {
    "per_tensor_odd_depth": ([1, 7], 5, {}),
    "per_channel_batch4_rank4": ([2, 2, 3, 5], 6, {"per_channel": True, "act": RELU6}),
    "per_tensor_batch3_no_bias": ([3, 16], 9, {"bias": False, "act": RELU}),
}


@pytest.mark.parametrize("case", sorted(FC_CASES))
def test_fully_connected(case, tmp_path, cmsis_nn):
    in_shape, units, opts = FC_CASES[case]
    depth = in_shape[-1]
    batches = int(np.prod(in_shape)) // depth

    def build(mb, rng, q):
        x = mb.input("x", "int8", in_shape, scale=q[0], zero_point=q[1])
        return fc(mb, rng, x, q[0], units, depth, [batches, units], 0.05, -9, **opts), None

    assert _run_single_op(tmp_path, build) == [("FULLY_CONNECTED", "cmsis-nn", None)]


# op, input shape, output shape, filter hw, options: arm_avgpool_s8 / arm_max_pool_s8 (the
# catalog's `pooling` model adds VALID windows as large as the input and every activation).
POOL_CASES = {
    "avg_same_stride2_batch2": ("AVERAGE_POOL_2D", [2, 7, 8, 3], [2, 4, 4, 3], (3, 3), {"stride": (2, 2)}),
    "avg_valid_many_channels": ("AVERAGE_POOL_2D", [1, 4, 6, 40], [1, 2, 5, 40], (3, 2),
                                {"padding": VALID, "act": RELU}),
    "max_same_unequal": ("MAX_POOL_2D", [1, 9, 7, 4], [1, 3, 4, 4], (2, 3), {"stride": (3, 2), "act": RELU6}),
    "max_valid_batch3": ("MAX_POOL_2D", [3, 5, 5, 2], [3, 2, 2, 2], (2, 2), {"padding": VALID, "stride": (2, 2)}),
}


@pytest.mark.parametrize("case", sorted(POOL_CASES))
def test_pooling(case, tmp_path, cmsis_nn):
    op, in_shape, out_shape, hw, opts = POOL_CASES[case]

    def build(mb, rng, q):
        return pool(mb, op, mb.input("x", "int8", in_shape, scale=q[0], zero_point=q[1]), q, out_shape, hw,
                    **opts), None

    assert _run_single_op(tmp_path, build) == [(op, "cmsis-nn", None)]


@pytest.mark.parametrize("dtype,shape,beta", [("int8", [3, 10], 1.0), ("int8", [2, 3, 7], 0.5),
                                              ("int16", [4, 12], 2.0)], ids=["s8", "s8_rank3", "s8_s16"])
def test_softmax(dtype, shape, beta, tmp_path, cmsis_nn):
    """arm_softmax_s8 and arm_softmax_s8_s16, over the last dimension of any rank."""
    def build(mb, rng, q):
        x = mb.input("x", "int8", shape, scale=0.1, zero_point=3)
        y = mb.tensor("y", dtype, shape, **(dict(scale=1.0 / 256, zero_point=-128) if dtype == "int8" else
                                             dict(scale=1.0 / 65536, zero_point=-32768)))
        mb.op("SOFTMAX", [x], [y], "SoftmaxOptions", beta=beta)
        return y, None

    assert _run_single_op(tmp_path, build) == [("SOFTMAX", "cmsis-nn", None)]


def _binary(op, shape_a, shape_b, out_shape, act):
    def build(mb, rng, q):
        a = mb.input("a", "int8", shape_a, scale=0.03, zero_point=-5)
        b = mb.input("b", "int8", shape_b, scale=0.05, zero_point=9)
        y = mb.tensor("y", "int8", out_shape, scale=0.07 if op == "ADD" else 0.1, zero_point=-2)
        mb.op(op, [a, b], [y], f"{op.capitalize()}Options", fused_activation_function=act)
        return y, None
    return build


@pytest.mark.parametrize("op", ["ADD", "MUL"])
@pytest.mark.parametrize("act", [0, RELU, RELU6], ids=["none", "relu", "relu6"])
def test_elementwise_equal_shapes(op, act, tmp_path, cmsis_nn):
    """arm_elementwise_add_s8 / arm_elementwise_mul_s8 (equal shapes only, as TFLM's glue)."""
    assert _run_single_op(tmp_path, _binary(op, [2, 3, 5], [2, 3, 5], [2, 3, 5], act)) == [(op, "cmsis-nn", None)]


@pytest.mark.parametrize("op", ["ADD", "MUL"])
def test_elementwise_broadcast_falls_back_with_reason(op, tmp_path, cmsis_nn):
    (chosen,) = _run_single_op(tmp_path, _binary(op, [2, 3, 5], [1, 3, 1], [2, 3, 5], RELU))
    assert chosen == (op, "portable", "broadcast of [2, 3, 5] and [1, 3, 1]: CMSIS-NN's elementwise kernels "
                                      "take equal shapes only")


def _two_lstms(recurrent_reach=40, cell_clip=2.0, cell_scale=2 ** -11):
    """x[2, 5, 12] -> int8 LSTM of 16 units, batch major (hidden zero point 2, cell clip) ->
    its [2, 5, 16] output read time major (2 steps of 5 batches) by an LSTM of 8 units."""
    rng = np.random.default_rng(5)
    mb = ModelBuilder()
    scale = np.float32(0.02)
    x = mb.input("x", "int8", [2, 5, 12], scale=scale, zero_point=-3)
    h = lstm(mb, rng, x, scale, [2, 5, 12], 16, out_zp=2, cell_clip=cell_clip, cell_scale=cell_scale,
             recurrent_reach=recurrent_reach)
    mb.output(lstm(mb, rng, h, np.float32(1 / 128), [2, 5, 16], 8, time_major=True, recurrent_reach=recurrent_reach))
    return mb.build()


@pytest.mark.parametrize("form", ["int8", "16x8"])
def test_lstm_keeps_state(form, tmp_path, cmsis_nn):
    """arm_nn_lstm_step_s8 / _s16 step by step, batch major and time major: 4 calls carrying
    the hidden and cell states (the variable tensors), bit-exact with TFLM. The arena holds
    the first layer's output and the second's two int16 gate buffers (time major: one step's 5
    batches of 8 units; the first's, one batch at a time, are smaller). --cmsis-nn-lstm step: on
    this core without DSP the default keeps tinyaot's faster kernel."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_lstms() if form == "int8" else variant_of(_two_lstms, "16x8")())
    check_against_tflm(path, "m", tmp_path / "out", calls=4, kernels="cmsis-nn", cmsis_nn_lstm="step")
    report = json.loads((tmp_path / "out" / "m.json").read_text())
    assert [(op["backend"], op["backend_reason"]) for op in report["operators"]] == [("cmsis-nn", None)] * 2
    activation_bytes = 2 * 5 * 16 * (1 if form == "int8" else 2)
    assert report["arena_size"] == activation_bytes + 2 * 2 * 5 * 8


@pytest.mark.parametrize("change,reason", [
    ({"recurrent_reach": 127}, "the output gate's recurrent weights can take its recurrent term out of int16: "
                               "TFLM saturates it before adding, CMSIS-NN does not"),
    ({"cell_clip": 1e-4}, "the cell clip quantizes to 0: TFLM clips the cell state to 0, CMSIS-NN reads 0 as no "
                          "clipping"),
    ({"cell_scale": 2 ** -16}, "the input gate x cell gate product can leave int16 at this cell state scale: TFLM "
                               "saturates it before adding, CMSIS-NN does not"),
])
def test_lstm_falls_back_with_reason(change, reason, tmp_path):
    """Where CMSIS-NN's LSTM would not saturate as TFLM does, the portable kernel stays
    (under --cmsis-nn-lstm step too: that reason comes first)."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_lstms(**change))
    emit(compile_model(path, Options("m", kernels="cmsis-nn", cmsis_nn_lstm="step")), tmp_path / "out")
    report = json.loads((tmp_path / "out" / "m.json").read_text())
    assert (report["operators"][0]["backend"], report["operators"][0]["backend_reason"]) == ("portable", reason)


@pytest.mark.parametrize("cpu,form,backend,reason", [
    ("cortex-m3", "int8", "portable", LSTM_ON_SCALAR["tinyaot_lstm_s8"]),
    ("cortex-m0", "int8", "portable", LSTM_ON_SCALAR["tinyaot_lstm_s8_small"]),  # no long multiply: int8 weights
    ("cortex-m4", "int8", "cmsis-nn", None),
    ("cortex-m0", "16x8", "portable", LSTM_ON_SCALAR["tinyaot_lstm_s16"]),
    ("cortex-m3", "int8 size", "portable", LSTM_ON_SCALAR["tinyaot_lstm_s8_small"]),
])
def test_lstm_auto_keeps_tinyaot_kernel_where_faster(cpu, form, backend, reason, tmp_path):
    """--cmsis-nn-lstm auto (the default): tinyaot's LSTM kernel where it is the faster (the reason
    in the report), CMSIS-NN's step elsewhere."""
    path = tmp_path / "m.tflite"
    path.write_bytes(variant_of(_two_lstms, "16x8")() if form == "16x8" else _two_lstms())
    optimize = "size" if form.endswith("size") else "speed"
    emit(compile_model(path, Options("m", kernels="cmsis-nn", cpu=cpu, optimize=optimize)), tmp_path / "out")
    report = json.loads((tmp_path / "out" / "m.json").read_text())
    assert [(op["backend"], op["backend_reason"]) for op in report["operators"]] == [(backend, reason)] * 2
