"""Test models: residual blocks O = ADD(X, CONV_b(CONV_a(X))), and downsampling ones
O = ADD(CONV_s(X), CONV_b(CONV_a(X))), which residual band fusion (passes/fusion.py
ResidualFusion) runs in bands of output rows inside the ADD, writing O over X.

Between them they stress the banding: both ADD input orders, odd channel counts, T
with fewer or more channels than X, heights the band does not divide, heights 1 and 2,
1x1, 3x3, 5x5 and 1x3 filters (pointwise and general kernels), an activation on the
ADD, per-tensor weights. X is produced by a convolution of the model's input, so that
it lives in the arena. (residual_not_fusable has a block whose CONV_b cannot leave X's
rows alone: a 1x1 CONV_b after a padded 3x3 CONV_a.)
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing.catalog import M3_ONLY, test_model
from tinyaot.testing.models_conv import NONE, RELU, conv


def residual_block(seed, shape, t_ch, filters=((3, 3), (3, 3)), x_first=True, act=NONE, per_channel=True,
                   x_is_input=False, shortcut=None, stride=1, out_ch=None):
    """input -> CONV_2D 1x1 -> X [shape] (or X the input); T = CONV_a(X) with t_ch channels,
    U = CONV_b(T), O = ADD(X, U) (or ADD(U, X)) -> CONV_2D 1x1 -> output (so that O, too, is
    in the arena); SAME padding. With a `shortcut` filter: a downsampling block, CONV_a and
    S = CONV_s(X) with strides `stride`, out_ch channels, O = ADD(S, U) (or ADD(U, S))."""
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    q = (0.05, -3)
    inp = mb.input("x", "int8", [*shape[:3], shape[3] if x_is_input else 2], scale=q[0], zero_point=q[1])
    x, xq = (inp, q) if x_is_input else conv(mb, rng, inp, q, shape, (1, 1), out_zp=1)
    size = [1, -(-shape[1] // stride), -(-shape[2] // stride)]
    out_shape = [*size, out_ch or shape[3]]
    t, tq = conv(mb, rng, x, xq, [*size, t_ch], filters[0], act=RELU, out_zp=-128, per_channel=per_channel,
                 stride=(stride, stride))
    u, uq = conv(mb, rng, t, tq, out_shape, filters[1], out_zp=-2, per_channel=per_channel)
    if shortcut is not None:
        x, xq = conv(mb, rng, x, xq, out_shape, shortcut, out_zp=-1, stride=(stride, stride))
    o_scale = float(max(xq[0], uq[0])) * 1.5
    o = mb.tensor("o", "int8", out_shape, scale=o_scale, zero_point=4)
    mb.op("ADD", [x, u] if x_first else [u, x], [o], "AddOptions", fused_activation_function=act)
    mb.output(conv(mb, rng, o, (o_scale, 4), [*size, 2], (1, 1), out_zp=-1)[0])
    return mb.build()


@test_model("residual_x_first_odd", targets=M3_ONLY)
def residual_x_first_odd():
    """ADD(X, U), X 7x6x5, T 3 channels, 3x3 SAME twice: bands of 1 row."""
    return residual_block(80, [1, 7, 6, 5], 3)


@test_model("residual_u_first_remainder")
def residual_u_first_remainder():
    """ADD(U, X) with RELU, X 11x4x8, T 1 channel: bands of 2 rows, the last one row."""
    return residual_block(81, [1, 11, 4, 8], 1, x_first=False, act=RELU)


@test_model("residual_height1", targets=False)
def residual_height1():
    """X 1x9x3, T 7 channels (more than X): one band, all of it padding above and below."""
    return residual_block(82, [1, 1, 9, 3], 7, per_channel=False)


@test_model("residual_height2_5x5", targets=False)
def residual_height2_5x5():
    """X 2x5x4, 5x5 SAME twice (2 rows of padding): one band of 1 row, then the other."""
    return residual_block(83, [1, 2, 5, 4], 3, filters=((5, 5), (5, 5)), x_first=False)


@test_model("residual_1x1_then_3x3", targets=False)
def residual_1x1_then_3x3():
    """CONV_a 1x1 (the pointwise kernel, no padding), CONV_b 3x3: X 13x5x6, T 9 channels."""
    return residual_block(84, [1, 13, 5, 6], 9, filters=((1, 1), (3, 3)))


@test_model("residual_1x3_filters", targets=False)
def residual_1x3_filters():
    """1x3 filters both (one row each, no row padding): X 9x7x3, T 2 channels."""
    return residual_block(85, [1, 9, 7, 3], 2, filters=((1, 3), (1, 3)), x_first=False)


@test_model("residual_pointwise_pair", targets=False)
def residual_pointwise_pair():
    """1x1 CONV_a and CONV_b (pointwise kernels, no row of T kept between bands): X 9x6x8,
    T 12 channels."""
    return residual_block(87, [1, 9, 6, 8], 12, filters=((1, 1), (1, 1)))


@test_model("residual_down_1x1_shortcut", targets=M3_ONLY)
def residual_down_1x1_shortcut():
    """A downsampling block: CONV_a 3x3 and a 1x1 shortcut with strides 2x2, X 9x7x4 -> O
    5x4x8, T 6 channels, ADD(U, S): O's rows written from X's first byte on."""
    return residual_block(88, [1, 9, 7, 4], 6, x_first=False, shortcut=(1, 1), stride=2, out_ch=8)


@test_model("residual_down_3x3_shortcut", targets=False)
def residual_down_3x3_shortcut():
    """A downsampling block with a 3x3 shortcut and RELU on the ADD(S, U): X 12x5x3 -> O 6x3x5,
    T 2 channels."""
    return residual_block(89, [1, 12, 5, 3], 2, act=RELU, shortcut=(3, 3), stride=2, out_ch=5)


@test_model("residual_not_fusable", targets=False)
def residual_not_fusable():
    """CONV_a 3x3 SAME then CONV_b 1x1: T's row r needs X's row r + 1, which O's row r would
    already have overwritten (filter_b - 1 - pad_b = 0 < pad_a = 1): left unfused."""
    return residual_block(86, [1, 8, 8, 4], 4, filters=((3, 3), (1, 1)))
