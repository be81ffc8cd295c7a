"""CONV_2D on cores with the DSP extension (kernels/dsp/tinyaot_conv2d_gather_s8_dsp.h): which
layers its kernel takes, and its filter layout."""

import numpy as np

# The largest window the kernel gathers (TINYAOT_CONV2D_GATHER_DEPTH).
GATHER_DEPTH = 576


def _padded(values):
    return -(-values // 4) * 4


def gather_fits(weights):
    """A window of up to GATHER_DEPTH values (filter_h * filter_w * channels, rounded up to 4)."""
    return _padded(int(np.prod(weights.shape[1:]))) <= GATHER_DEPTH


def gather_filter(weights):
    """[output_ch][filter_h][filter_w][channels] filters as the kernel reads them: each row
    zero-padded to a multiple of 4 values (at most 3 bytes a filter more)."""
    w = np.asarray(weights, np.int8).reshape(weights.shape[0], -1)
    padded = np.zeros((w.shape[0], _padded(w.shape[1])), np.int8)
    padded[:, :w.shape[1]] = w
    return padded.reshape(-1)
