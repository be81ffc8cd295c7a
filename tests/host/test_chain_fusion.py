"""Chain fusion (passes/fusion.py ChainFusion): the first convolution run in bands inside the
convolution or pooling that reads it, bit-exact with TFLM, with the RAM it saves proven by the
plan (issue 25: model RAM as TFLM counts its arena <= 0.6x)."""

import numpy as np
import pytest

from host.test_models_host import check_against_tflm
from tinyaot.compiler import Options, compile_model
from tinyaot.modelbuilder import ModelBuilder
from tinyaot.passes.fusion import ChainFusion
from tinyaot.planner.greedy import align_up
from tinyaot.testing.models_conv import RELU, SAME, VALID, conv, depthwise, pool
from tinyaot.testing.variants import variant_of


def _three_chains():
    """Three model inputs, each read by a first operator whose output only the next reads:
    a 3x3 SAME convolution into a 3x3 stride-2 SAME one (top padding in both), a 5x1 VALID
    stride-2 depthwise into a 2x2 stride-2 SAME average pooling (a last band of fewer rows), a
    4x3 SAME convolution into a 3x3 stride-3 max pooling whose output stays in the arena."""
    rng = np.random.default_rng(25)
    mb = ModelBuilder()
    q = (0.05, -3)
    x1 = mb.input("x1", "int8", [1, 11, 6, 3], scale=q[0], zero_point=q[1])
    x2 = mb.input("x2", "int8", [1, 13, 4, 4], scale=q[0], zero_point=q[1])
    x3 = mb.input("x3", "int8", [1, 16, 5, 2], scale=q[0], zero_point=q[1])
    h, hq = conv(mb, rng, x1, q, [1, 11, 6, 8], (3, 3), act=RELU, out_zp=-128, spread=100)
    y1, _ = conv(mb, rng, h, hq, [1, 6, 3, 5], (3, 3), stride=(2, 2), out_zp=4)
    h, hq = depthwise(mb, rng, x2, q, [1, 5, 4, 4], (5, 1), padding=VALID, stride=(2, 1), out_zp=-2)
    y2 = pool(mb, "AVERAGE_POOL_2D", h, hq, [1, 3, 2, 4], (2, 2), padding=SAME, stride=(2, 2))
    h, hq = conv(mb, rng, x3, q, [1, 16, 5, 6], (4, 3), out_zp=1)
    h = pool(mb, "MAX_POOL_2D", h, hq, [1, 6, 2, 6], (3, 3), padding=SAME, stride=(3, 3))
    y3, _ = conv(mb, rng, h, hq, [1, 6, 2, 3], (1, 1), out_zp=0)
    for y in (y1, y2, y3):
        mb.output(y)
    return mb.build()


def _chains(model):
    assert model.fusions and all(isinstance(f, ChainFusion) for f in model.fusions.values())
    return {k: (f.producer, f.rows, f.window_bytes) for k, f in model.fusions.items()}


@pytest.mark.parametrize("form", ["int8", "float32"])
def test_three_chains_match_tflm(form, tmp_path):
    """Each chain fused (one T row per band where T is small), every band's cut (top padding,
    strides, the last band's rows) giving TFLM's values; float32 with the inputs in the arena."""
    path = tmp_path / f"chains_{form}.tflite"
    path.write_bytes((_three_chains if form == "int8" else variant_of(_three_chains, "float32"))())
    size = 1 if form == "int8" else 4
    model = compile_model(path, Options("m"))
    # window rows: (rows - 1) * stride_b + filter_b of T's rows (6 x 8, 4 x 4, 5 x 6 values)
    assert _chains(model) == {1: (0, 1, 3 * 48 * size), 3: (2, 1, 2 * 16 * size), 5: (4, 1, 3 * 30 * size)}
    check_against_tflm(path, f"chains_{form}", tmp_path / "out", calls=2, inputs_in_arena=form == "float32")


def test_three_chains_with_cmsis_nn_match_tflm(tmp_path, cmsis_nn):
    """CMSIS-NN's convolution, depthwise and pooling kernels cut to each band give TFLM's values."""
    path = tmp_path / "chains.tflite"
    path.write_bytes(_three_chains())
    # im2col: on the M3 --cmsis-nn-conv auto keeps tinyaot's convolutions, whose arena is smaller.
    model = compile_model(path, Options("m", kernels="cmsis-nn", cmsis_nn_conv="im2col"))
    assert {model.calls[k][1][0].kernel for k in _chains(model)} == {
        "tinyaot_cmsis_conv_s8+tinyaot_cmsis_conv_s8 in bands",
        "tinyaot_cmsis_depthwise_conv_s8+tinyaot_cmsis_pool_s8 in bands",
        "tinyaot_cmsis_conv_s8+tinyaot_cmsis_pool_s8 in bands"}
    check_against_tflm(path, "chains", tmp_path / "out", calls=2, kernels="cmsis-nn", cmsis_nn_conv="im2col")


@pytest.mark.parametrize("name,rows,window,arena", [
    # 40x7x28 never stored: 10 rows of it (1960) + the second convolution's output (960) + the
    # 490-byte input (as TFLM counts it)
    ("cnn_kws_small", 1, 1960, 3424),
    # 128x3x8 float32 never stored: 30 rows of it (2880) + the pooling's output (1376) + the input (1536)
    ("magic_wand_float32", 10, 2880, 5792),
])
def test_first_convolution_in_bands_is_below_0_6_of_tflms_arena(name, rows, window, arena, own_model):
    """With the inputs in the arena (as TFLM counts it) the model needs under 0.6x of what TFLM's
    arena must hold at its first operator alone: the input and the first convolution's output."""
    path = own_model(name)
    model = compile_model(path, Options("m", inputs_in_arena=True))
    ((k, f),) = model.fusions.items()
    assert (k, f.producer, f.rows, f.window_bytes) == (1, 0, rows, window)
    g = model.graph
    t, x = g.tensors[f.tensor], g.tensors[g.inputs[0]]
    assert model.arena_size == model.plan.overlap_bound == arena
    assert arena >= sum(align_up(n, 16) for n in (x.nbytes, window, g.tensors[g.operators[1].outputs[0]].nbytes))
    assert arena <= 0.6 * (x.nbytes + t.nbytes)
    assert compile_model(path, Options("m", inputs_in_arena=True, fusion=False)).arena_size > 1.5 * arena
