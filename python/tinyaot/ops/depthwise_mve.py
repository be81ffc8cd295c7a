"""DEPTHWISE_CONV_2D on Helium (MVE) cores (kernels/mve/tinyaot_depthwise_conv2d_s8_mve.h): which
layers its kernel takes, and its filter, requantization and zero-point tables."""

import numpy as np

# The kernel's tap pointers on the stack (TINYAOT_DEPTHWISE_MVE_MAX_TAPS).
MAX_TAPS = 64

# Channels a vector holds.
LANES = 16

# The channel of each lane of the kernel's four sums in a group of 16: VMULLB/VMULLT take the even
# and odd byte lanes, VMOVLB/VMOVLT the even and odd 16-bit lanes of those.
SUM_CHANNELS = np.concatenate([np.arange(0, 16, 4), np.arange(2, 16, 4), np.arange(1, 16, 4), np.arange(3, 16, 4)])


def fits(weights, multiplier):
    """Depth multiplier 1 and a window of up to MAX_TAPS taps (any stride, dilation, padding)."""
    return multiplier == 1 and weights.shape[1] * weights.shape[2] <= MAX_TAPS


def twin_pixels(channels, stride_w):
    """Whether the kernel computes two horizontally adjacent pixels per vector where their windows
    are inside the input: 8 channels (half a vector) and stride 1 across, so that a tap's 16
    inputs for both pixels are one load (the kernel's TINYAOT_DEPTHWISE_MVE_TWIN). The filter and
    table then hold the 8 channels' values in the upper 8 lanes too."""
    return channels == LANES // 2 and stride_w == 1


def _groups(channels):
    return -(-channels // LANES)


def filter_groups(weights, twin=False):
    """A [1][h][w][channels] filter as the kernel reads it: per group of 16 channels, each tap's
    16 weights ([h * w][16]), the last group's missing channels 0 (with twin: the 8 again)."""
    w = np.asarray(weights, np.int8).reshape(-1, weights.shape[3])  # [tap][channel]
    taps, channels = w.shape
    padded = np.zeros((taps, _groups(channels) * LANES), np.int8)
    padded[:, :channels] = w
    if twin:
        padded[:, channels:] = w
    return padded.reshape(taps, -1, LANES).transpose(1, 0, 2).reshape(-1)


def pairs_taps(weights):
    """Whether two taps' products fit 16 bits: |x * w| <= 128 * 127 unless a weight is -128."""
    return int(np.asarray(weights).min() > -128)


def requant_table(folded_bias, multipliers, shifts, channels, twin=False):
    """Per group of 16 channels, in the sums' lane order (SUM_CHANNELS): the folded bias, the
    multiplier, the left shift (>= 0) and the right shift (<= 0), 16 values each; one multiplier
    and shift for all (per-tensor) repeated; channels past the last 0 (with twin: the 8 again)."""
    size = _groups(channels) * LANES
    rows = []
    for values in (folded_bias, multipliers, np.maximum(shifts, 0), np.minimum(shifts, 0)):
        v = np.broadcast_to(np.asarray(values, np.int64).reshape(-1), (channels,)) if len(values) == 1 \
            else np.asarray(values, np.int64).reshape(-1)
        padded = np.zeros(size, np.int64)
        padded[:channels] = v
        if twin:
            padded[channels:] = v
        rows.append(padded.reshape(-1, LANES)[:, SUM_CHANNELS])
    return np.stack(rows, axis=1).reshape(-1).astype(np.int32)


def zero_point_row(zero_point, channels):
    """The input zero point once per channel, rounded up to 16: what taps outside the input read."""
    return np.full(_groups(channels) * LANES, zero_point, np.int8)
