"""How far a CMSIS-NN kernel's output may overlap its input (see ops/overlap.py for
what a limit D means), on cores without DSP instructions only (--cpu cortex-m0,
cortex-m0plus, cortex-m1, cortex-m3: CPU_ARCH "scalar").

There CMSIS-NN's ARM_MATH_DSP and ARM_MATH_MVEI are unset (arm_nn_math_types.h
derives them from __ARM_FEATURE_DSP / __ARM_FEATURE_MVE, and the generated .c
refuses a core whose DSP extension differs from --cpu), so CMSIS-NN runs its plain
C paths: the very code the host compiles, which tests/host/test_cmsis_nn_overlap.py
runs at every declared overlap. DSP cores take other paths (4-byte reads and
writes, other loop orders): nothing is declared for them. The bounds follow
CMSIS-NN v7.0.0's plain C:
- arm_convolve_s8 (and arm_convolve_1_x_n_s8, which calls it off MVE) copies each
  output pixel's window into its scratch (im2col) and computes pixels two at a time
  from there: a pixel's input is free from the first output byte of its pair on.
- arm_convolve_1x1_s8_fast and arm_convolve_1x1_s8: arm_nn_mat_mult_nt_t_s8 walks
  output channel pairs outermost, reading all the input (a row of it) again for
  each pair, so only an output below the whole input would be safe: none declared.
- arm_depthwise_conv_3x3_s8 reads a pixel's channels four at a time (then the
  remaining ones one by one) over the window and writes them after.
- arm_depthwise_conv_s8 (and _s8_opt, which calls it without DSP) computes one
  output channel at a time, the portable depthwise order, or, for a multiplier that
  is a multiple of 4 (batch 1, no dilation), four outputs per pass over the window.
- arm_avgpool_s8 reduces one channel's window, then writes it (the portable order).
- arm_max_pool_s8 copies the window's first pixel into the output pixel and takes
  maxima there: a pixel's output is written before its window is read, so its input
  is free from the next pixel on.
- arm_softmax_s8 (to int8), arm_elementwise_add_s8 and _mul_s8: element by element.
arm_fully_connected_s8, arm_svdf_state_s16_s8 and arm_softmax_s8_s16 declare nothing:
the first two read their input again for every output (at most a byte or two to
gain), the last writes two bytes per value read.
"""

import numpy as np

from tinyaot.ops import overlap


def _scalar(arch, declare):
    return declare() if arch == "scalar" else []


def convolution(arch, kernel, inp, out, f):
    """arm_convolve_s8 and arm_convolve_1_x_n_s8 (im2col, pixel pairs); the 1x1 kernels declare nothing."""
    if kernel not in ("tinyaot_cmsis_convolve_s8", "arm_convolve_1_x_n_s8"):
        return []

    def im2col():
        rows = overlap.last_reader(inp.shape[1], f["output_h"], f["filter_h"], f["stride_h"], f["dilation_h"],
                                    f["pad_h"])
        cols = overlap.last_reader(inp.shape[2], f["output_w"], f["filter_w"], f["stride_w"], f["dilation_w"],
                                    f["pad_w"])
        co = out.shape[3]
        limit = overlap.raster_limit(inp.shape, out.shape, rows, cols, np.zeros(inp.shape[3], np.int64),
                               lambda p: p // 2 * 2 * co)
        return overlap.declared(inp, out, limit)
    return _scalar(arch, im2col)


def depthwise(arch, kernel, inp, out, f):
    """The depthwise kernel depthwise_kernel() picked: per input channel c, the first output byte of
    the pixel written after c's last read."""
    c = np.arange(inp.shape[3])
    mult = f["ch_mult"]
    if kernel == "arm_depthwise_conv_3x3_s8":
        whole = inp.shape[3] // 4 * 4  # channels read and written four at a time
        first_write = np.where(c < whole, c // 4 * 4, c)
    elif mult % 4 == 0 and f["input_n"] == 1 and f["dilation_h"] == 1 and f["dilation_w"] == 1:
        first_write = c * mult + mult - 4  # depthwise_conv_s8_mult_4: the last four outputs of c
    else:
        first_write = c * mult + mult - 1  # depthwise_conv_s8_generic
    return _scalar(arch, lambda: overlap.window_kernel(inp, out, f, first_write))


def pooling(arch, is_max, inp, out, f):
    if is_max:
        return _scalar(arch, lambda: overlap.window_kernel(inp, out, f, np.full(inp.shape[3], out.shape[3])))
    return _scalar(arch, lambda: overlap.pooling(inp, out, f))


def elementwise(arch, inputs, out):
    """arm_softmax_s8 (int8 out), arm_elementwise_add_s8 and _mul_s8."""
    return _scalar(arch, lambda: [d for t in inputs for d in overlap.elementwise(t, out)])
