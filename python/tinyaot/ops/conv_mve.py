"""CONV_2D on Helium (MVE) cores (kernels/mve/tinyaot_conv2d_1x1_s8_mve.h and
tinyaot_conv2d_s8_mve.h): the tables their four-pixel loop reads, built ahead: the filters'
rows padded with zero weights to whole 16-byte chunks (one VLDRB each, none predicated), and
per filter its requantization row."""

import numpy as np

# Bytes a VLDRB.8 loads.
CHUNK = 16


def chunks(depth):
    return -(-depth // CHUNK)


def padded_rows(weights):
    """[output_ch][...] filters as [output_ch][chunks * 16], zero weights after each row's depth."""
    w = np.asarray(weights, np.int8).reshape(weights.shape[0], -1)
    padded = np.zeros((w.shape[0], chunks(w.shape[1]) * CHUNK), np.int8)
    padded[:, :w.shape[1]] = w
    return padded.reshape(-1)


def requant_rows(folded_bias, multipliers, shifts, channels):
    """Per filter {folded bias, multiplier, left shift (>= 0), right shift (<= 0)}: one multiplier
    and shift for all (per-tensor) repeated."""
    def per_channel(values):
        return np.broadcast_to(np.asarray(values, np.int64).reshape(-1), (channels,))
    shifts = per_channel(shifts)
    return np.stack([per_channel(folded_bias), per_channel(multipliers), np.maximum(shifts, 0),
                     np.minimum(shifts, 0)], axis=1).reshape(-1).astype(np.int32)


def conv_scratch(depth):
    """tinyaot_conv2d_s8_mve's scratch: four windows in chunks, then one as gathered."""
    return 4 * CHUNK * chunks(depth) + depth
