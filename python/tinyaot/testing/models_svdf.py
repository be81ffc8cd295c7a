"""Test models: SVDF (int8 input/output, int16 time weights and variable state).

All are stateful: the host test runs them call after call without a reset, so
the state shift and its persistence are checked too.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.testing.catalog import test_model


def svdf(mb, rng, x, in_scale, batches, input_size, units, rank, memory, out_zp, act=0, bias=True,
         scale_1=0.3, scale_2=4e-6, time_range=3000, zero_bias=False):
    """Adds an SVDF layer reading x ([batches, input_size]); returns (output, output scale).

    scale_1 (input * feature -> state) and scale_2 (state * time -> output) are
    the requantization factors; the tensor scales are derived from them.
    """
    filters = units * rank
    f_scale = np.float32(0.01)
    state_scale = np.float32(np.float32(in_scale) * f_scale / np.float32(scale_1))
    t_scale = np.float32(0.002)
    out_scale = np.float32(state_scale * t_scale / np.float32(scale_2))
    n = len(mb.tensors)
    feature = mb.const(f"feature{n}", random_int8(rng, (filters, input_size)), scale=f_scale)
    time = mb.const(f"time{n}", rng.integers(-time_range, time_range + 1, size=(filters, memory)).astype(np.int16),
                    scale=t_scale)
    b = -1
    if bias:
        values = rng.integers(-200000, 200001, size=units).astype(np.int32)
        b = mb.const(f"bias{n}", values * 0 if zero_bias else values, scale=np.float32(state_scale * t_scale))
    state = mb.tensor(f"state{n}", "int16", [batches, memory * filters], scale=state_scale, variable=True)
    y = mb.tensor(f"svdf{n}", "int8", [batches, units], scale=out_scale, zero_point=out_zp)
    mb.op("SVDF", [x, feature, time, b, state], [y], "SVDFOptions", rank=rank, fused_activation_function=act)
    return y, out_scale


def _single(seed, batches, input_size, units, rank, memory, **kw):
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    in_scale = np.float32(0.05)
    x = mb.input("x", "int8", [batches, input_size], scale=in_scale, zero_point=kw.pop("in_zp", -3))
    y, _ = svdf(mb, rng, x, in_scale, batches, input_size, units, rank, memory, **kw)
    mb.output(y)
    return mb.build()


@test_model("svdf_rank1_relu")
def svdf_rank1_relu():
    """Output zero point 10: TFLM's integer SVDF ignores RELU, so negatives must come out."""
    return _single(40, 1, 16, 8, 1, 4, out_zp=10, act=1)


@test_model("svdf_rank2_batch2")
def svdf_rank2_batch2():
    return rank2_batch2_model()


def rank2_batch2_model(bias=True, zero_bias=False):
    """Also built without a bias by tests/host/test_errors_svdf.py: TFLM's Prepare
    dereferences the bias unconditionally (TODO #1751 there) and crashes on such a
    model, so that variant is checked against this one with an all-zero bias."""
    return _single(41, 2, 12, 6, 2, 10, out_zp=-5, bias=bias, zero_bias=zero_bias)


@test_model("svdf_rank2_batch2_relu")
def svdf_rank2_batch2_relu():
    return _single(42, 2, 20, 5, 2, 6, out_zp=-128, act=1, in_zp=7)


@test_model("svdf_rank1_batch2_saturating")
def svdf_rank1_batch2_saturating():
    """scale_1 above 1 (a left shift) saturates the int16 state; full-range time weights."""
    return _single(43, 2, 8, 4, 1, 5, out_zp=0, scale_1=3.0, scale_2=1e-7, time_range=32767)


@test_model("svdf_keyword_like_stack")
def svdf_keyword_like_stack():
    """SVDF -> FULLY_CONNECTED -> SVDF, shaped like a small keyword spotter."""
    rng = np.random.default_rng(44)
    mb = ModelBuilder()
    in_scale = np.float32(0.06)
    x = mb.input("features", "int8", [1, 24], scale=in_scale, zero_point=-128)
    h, h_scale = svdf(mb, rng, x, in_scale, 1, 24, 16, 1, 8, out_zp=-128, act=1)
    w = mb.const("fc_w", random_int8(rng, (8, 16)), scale=np.float32(0.006))
    fc_bias = mb.const("fc_b", rng.integers(-500, 501, size=8).astype(np.int32),
                       scale=np.float32(h_scale * np.float32(0.006)))
    fc_scale = np.float32(0.3)
    f = mb.tensor("fc", "int8", [1, 8], scale=fc_scale, zero_point=-7)
    mb.op("FULLY_CONNECTED", [h, w, fc_bias], [f], "FullyConnectedOptions")
    y, _ = svdf(mb, rng, f, fc_scale, 1, 8, 6, 2, 7, out_zp=3)
    mb.output(y)
    return mb.build()


@test_model("svdf_odd_filters")
def svdf_odd_filters():
    """The kernel takes feature rows four at a time: 7 filters leave three alone; a
    memory of 1 keeps no history to shift."""
    return _single(45, 2, 7, 7, 1, 1, out_zp=2)


@test_model("svdf_rank3_pairs_across_units")
def svdf_rank3_pairs_across_units():
    """Rank 3: blocks of four filters straddle units (filters 0-3 belong to units 0 and 1)."""
    return _single(46, 1, 9, 3, 3, 3, out_zp=-20, in_zp=5)
