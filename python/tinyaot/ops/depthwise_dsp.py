"""DEPTHWISE_CONV_2D on cores with the DSP extension (kernels/dsp/tinyaot_depthwise_conv2d_s8_dsp.h,
tinyaot_depthwise_mult_s8_dsp.h): which layers their SIMD kernels take, and their filter layouts."""

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


# The one-channel kernel's largest window (TINYAOT_DEPTHWISE_MULT_DSP_TAPS).
MULT_MAX_TAPS = 128


# Output channels from which gathering a pixel's window once pays: on mps2_an386 DS-CNN's first
# layer (64) 3.98 -> 2.71 instructions per multiply-accumulate, micro_speech's (8) 1.09M -> 1.16M
# instructions in all.
MULT_MIN_CHANNELS = 16


def mult_fits(inp, weights):
    """A one-channel input (depthwise with the output channels as multiplier, or CONV_2D on
    one channel), at least MULT_MIN_CHANNELS output channels and a window of up to
    MULT_MAX_TAPS taps, rounded up to 4."""
    return (inp.shape[3] == 1 and weights.shape[3] >= MULT_MIN_CHANNELS
            and -(-weights.shape[1] * weights.shape[2] // 4) * 4 <= MULT_MAX_TAPS)


def mult_filter(weights):
    """A [1][h][w][channels] filter as tinyaot_depthwise_mult_s8_dsp reads it: per block of
    four output channels, per word of four taps (zero weights past the window's last), the
    four channels' four weights: [blocks][words][4 channels][4 taps], the last block's
    missing channels 0."""
    w = np.asarray(weights, np.int8).reshape(-1, weights.shape[3])  # [tap][channel]
    taps, channels = w.shape
    padded = np.zeros((-(-taps // 4) * 4, -(-channels // 4) * 4), np.int8)
    padded[:taps, :channels] = w
    words, blocks = padded.shape[0] // 4, padded.shape[1] // 4
    return padded.reshape(words, 4, blocks, 4).transpose(2, 0, 3, 1).reshape(-1)
