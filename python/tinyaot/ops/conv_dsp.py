"""CONV_2D on cores with the DSP extension (kernels/dsp/tinyaot_conv2d_gather_s8_dsp.h): which
layers its kernel takes, and its filter layout."""

import numpy as np

# The largest window the kernel gathers (TINYAOT_CONV2D_GATHER_DEPTH).
GATHER_DEPTH = 576


def _padded(values):
    return -(-values // 4) * 4


# Filters from which gathering a pixel pair's windows once pays: on mps2_an386 resnet8's first
# layer (16 filters, 3x3x3) 4.03 instructions per multiply-accumulate (CMSIS-NN 4.77);
# mobilenet_v1_025_96x96x3's (8 filters, 3x3x3) 4.47, where the pair loop takes 4.08.
GATHER_MIN_FILTERS = 16


def gather_fits(weights):
    """At least GATHER_MIN_FILTERS filters and a window of up to GATHER_DEPTH values
    (filter_h * filter_w * channels, rounded up to 4)."""
    return weights.shape[0] >= GATHER_MIN_FILTERS and _padded(int(np.prod(weights.shape[1:]))) <= GATHER_DEPTH


def gather_filter(weights):
    """[output_ch][filter_h][filter_w][channels] filters as the kernel reads them: each row
    zero-padded to a multiple of 4 values (at most 3 bytes a filter more)."""
    w = np.asarray(weights, np.int8).reshape(weights.shape[0], -1)
    padded = np.zeros((w.shape[0], _padded(w.shape[1])), np.int8)
    padded[:, :w.shape[1]] = w
    return padded.reshape(-1)
