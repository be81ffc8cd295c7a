"""How far a CMSIS-NN kernel's output may overlap its input (see ops/overlap.py for
what a limit D means), on every core the backend offers (cores.CPU_ARCH: "scalar",
and "dsp" for cortex-m4, m7, m33, m35p; Helium is not offered).

Without DSP instructions CMSIS-NN runs its plain C paths; with them (ARM_MATH_DSP,
from __ARM_FEATURE_DSP in arm_nn_math_types.h; the generated .c refuses a core whose
extension differs from --cpu) its DSP paths. The host runs both:
tests/host/test_cmsis_nn_overlap.py builds CMSIS-NN once plain and once with
ARM_MATH_DSP through C models of the instructions (host/cmsis_nn_dsp.h, the
arithmetic of kernels/dsp/tinyaot_acle.h) and runs every declaring kernel at every
declared distance. The DSP paths keep each bound below: they read and write 4 bytes
at a time where the plain C does one, in the same order, or read more of a pixel's
window before its first write (arm_depthwise_conv_s8_opt gathers the pixel's whole
window, arm_avgpool_s8 sums all its channels), which only moves each write later. The bounds follow CMSIS-NN v7.0.0's plain C:
- arm_convolve_s8 (and arm_convolve_1_x_n_s8, which calls it off MVE) copies each
  output pixel's window into its scratch (im2col) and computes pixels two at a time
  from there: a pixel's input is free from the first output byte of its pair on.
- arm_convolve_s16 (16x8) does the same: two pixels' windows copied, then both written.
- arm_convolve_1x1_s8_fast and arm_convolve_1x1_s8: arm_nn_mat_mult_nt_t_s8 walks
  output channel pairs outermost, reading all the input (a row of it) again for
  each pair, so only an output below the whole input would be safe: none declared.
- arm_depthwise_conv_3x3_s8 reads a pixel's channels four at a time (then the
  remaining ones one by one) over the window and writes them after.
- arm_depthwise_conv_s8 (and _s8_opt, which calls it without DSP) computes one
  output channel at a time, the portable depthwise order, or, for a multiplier that
  is a multiple of 4 (batch 1, no dilation), four outputs per pass over the window;
  arm_depthwise_conv_s16 (16x8) always one output channel at a time.
- arm_avgpool_s8 (and _s16) reduces one channel's window, then writes it (the portable order).
- arm_max_pool_s8 (and _s16, which clamps the whole output after) copies the window's first pixel into the output pixel and takes
  maxima there: a pixel's output is written before its window is read, so its input
  is free from the next pixel on.
- arm_softmax_s8 (to int8), arm_elementwise_add_s8 and _mul_s8 (and their _s16): element by element.
arm_fully_connected_s8, arm_svdf_state_s16_s8 and arm_softmax_s8_s16 declare nothing:
the first two read their input again for every output (at most a byte or two to
gain), the last writes two bytes per value read.
"""

import numpy as np

from tinyaot.ops import overlap


def convolution(kernel, inp, out, f):
    """arm_convolve_s8, arm_convolve_1_x_n_s8 and arm_convolve_s16 (im2col, pixel pairs); the 1x1 kernels
    declare nothing."""
    if kernel not in ("tinyaot_cmsis_convolve_s8", "arm_convolve_1_x_n_s8", "arm_convolve_s16"):
        return []

    rows = overlap.last_reader(inp.shape[1], f["output_h"], f["filter_h"], f["stride_h"], f["dilation_h"], f["pad_h"])
    cols = overlap.last_reader(inp.shape[2], f["output_w"], f["filter_w"], f["stride_w"], f["dilation_w"], f["pad_w"])
    co = out.shape[3]
    limit = overlap.raster_limit(inp.shape, out.shape, rows, cols, np.zeros(inp.shape[3], np.int64),
                                 lambda p: p // 2 * 2 * co)
    return overlap.declared(inp, out, None if limit is None else limit * inp.itemsize)  # elements -> bytes


def depthwise(kernel, inp, out, f):
    """The depthwise kernel depthwise_kernel() picked: per input channel c, the first output byte of
    the pixel written after c's last read."""
    c = np.arange(inp.shape[3])
    mult = f["ch_mult"]
    if kernel == "arm_depthwise_conv_3x3_s8":
        whole = inp.shape[3] // 4 * 4  # channels read and written four at a time
        first_write = np.where(c < whole, c // 4 * 4, c)
    elif kernel != "arm_depthwise_conv_s16" and mult % 4 == 0 and f["input_n"] == 1 and f["dilation_h"] == 1 and f["dilation_w"] == 1:
        first_write = c * mult + mult - 4  # depthwise_conv_s8_mult_4: the last four outputs of c
    else:
        first_write = c * mult + mult - 1  # depthwise_conv_s8_generic
    return overlap.window_kernel(inp, out, f, first_write)


def pooling(is_max, inp, out, f):
    if is_max:
        return overlap.window_kernel(inp, out, f, np.full(inp.shape[3], out.shape[3]))
    return overlap.pooling(inp, out, f)


def elementwise(inputs, out):
    """arm_softmax_s8 (int8 out), arm_elementwise_add_s8 and _mul_s8."""
    return [d for t in inputs for d in overlap.elementwise(t, out)]
