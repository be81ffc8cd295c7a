"""DEPTHWISE_CONV_2D on cores with the DSP extension (kernels/dsp/tinyaot_depthwise_conv2d_s8_dsp.h):
which layers its SIMD kernel takes, and its filter layout."""

import numpy as np

# The kernel's second pixel waits in a buffer of this many channels (TINYAOT_PAIR_MAX_CH).
MAX_CHANNELS = 128


def fits(ctx, weights, inp, multiplier):
    """3x3 filters, depth multiplier 1, stride_w 1 or 2 (any stride_h), no dilation, up to
    MAX_CHANNELS channels: what carries DS-CNN's and MobileNet's depthwise time."""
    opts = ctx.op.options
    return (multiplier == 1 and tuple(weights.shape[1:3]) == (3, 3) and opts.get("stride_w", 1) in (1, 2)
            and opts.get("dilation_h_factor", 1) == opts.get("dilation_w_factor", 1) == 1
            and inp.shape[3] <= MAX_CHANNELS)


def filter_groups(weights):
    """A [1][3][3][channels] filter as the kernel reads it: per group of four channels its
    9 taps' four weights ([3][3][4], one 32-bit load a tap), the last group's missing
    channels 0. The same bytes as the model's but for at most 3 zeros a tap."""
    w = np.asarray(weights, np.int8).reshape(9, -1)
    channels = w.shape[1]
    padded = np.zeros((9, -(-channels // 4) * 4), np.int8)
    padded[:, :channels] = w
    return padded.reshape(9, -1, 4).transpose(1, 0, 2).reshape(-1)
