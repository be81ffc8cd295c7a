"""CONV_2D on Helium (MVE) cores (kernels/mve/tinyaot_conv2d_1x1_s8_mve.h and
tinyaot_conv2d_s8_mve.h): the tables their loop of four pixels by two filters reads, built
ahead: the filters in pairs of 16-byte chunks (one VLDRB each, none predicated), and per
filter its requantization row."""

import numpy as np

# Bytes a VLDRB.8 loads.
CHUNK = 16


def chunks(depth):
    return -(-depth // CHUNK)


def filter_pairs(weights):
    """[output_ch][...] filters as the kernel reads them, [pair][chunk][filter][16]: each row padded
    with zero weights to whole chunks, an odd last filter paired with a filter of zeros."""
    w = np.asarray(weights, np.int8).reshape(weights.shape[0], -1)
    filters = w.shape[0] + w.shape[0] % 2
    padded = np.zeros((filters, chunks(w.shape[1]) * CHUNK), np.int8)
    padded[:w.shape[0], :w.shape[1]] = w
    return padded.reshape(filters // 2, 2, -1, CHUNK).transpose(0, 2, 1, 3).reshape(-1)


def requant_rows(folded_bias, multipliers, shifts, channels):
    """Per filter {folded bias, multiplier, left shift (>= 0), right shift (<= 0)}: one multiplier
    and shift for all (per-tensor) repeated; an odd count's zero partner a row of zeros."""
    def per_channel(values):
        return np.broadcast_to(np.asarray(values, np.int64).reshape(-1), (channels,))
    shifts = per_channel(shifts)
    rows = np.zeros((channels + channels % 2, 4), np.int64)
    rows[:channels] = np.stack([per_channel(folded_bias), per_channel(multipliers), np.maximum(shifts, 0),
                                np.minimum(shifts, 0)], axis=1)
    return rows.reshape(-1).astype(np.int32)


def conv_scratch(depth, channels):
    """tinyaot_conv2d_s8_mve's scratch: four windows in chunks, then one staged in whole chunks
    where the windows' rows do not fall on chunks (channels not a multiple of 16)."""
    return (4 + (channels % CHUNK != 0)) * CHUNK * chunks(depth)
