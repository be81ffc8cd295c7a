"""How far a portable kernel's output may overlap its input, from the kernel's own
read/write order (see KernelCall.overlaps).

A limit D says: with the output placed at input + d, every d <= D is safe, i.e. each
output byte is written only after the last read of the input byte it lands on. For a
kernel that walks output positions in order, that holds when, for every input byte i
that is read, D <= i - t(i), t(i) being the first output byte written at or after the
last read of i. tests/host/test_overlap*.py run every declaring kernel in C at every
allowed d (and just past the limit where it is tight); a kernel whose loop order
changes must keep them passing, by changing the declaration here if need be.
The window kernels' bounds are worked out in elements and declared in bytes: their
input and output have one element size (int8, int16 or float32), and each element
is read, or written, whole.
The CMSIS-NN backend's kernels declare theirs in backends/cmsis_nn_overlap.py (its plain C
and its DSP paths, which the host runs through C models of the instructions).
"""

import numpy as np

# A limit of EXACT: the output may share bytes with the input only when it starts exactly at
# it (a fused residual block, ops/band_residual.py: each band's output overwrites the input rows
# the band read last, and any other placement would also depend on the order of the ADD kernel,
# CMSIS-NN's among them, within a band).
EXACT = "exact"


def declared(inp, out, limit):
    """[(input, output, D)], or [] when the output cannot overlap at all."""
    if limit is None or limit <= -out.nbytes:
        return []
    return [(inp.index, out.index, int(min(limit, 0)))]


def elementwise(inp, out):
    """A forward walk reading element k of the input before writing element k of the
    output, elements of one size: the output may start at the input (D = 0). Also
    tinyaot_softmax_f32, whose row's reads all come before or with its writes."""
    same = inp.nbytes == out.nbytes and tuple(inp.shape) == tuple(out.shape)
    return declared(inp, out, 0) if same else []


def narrowing(inp, out):
    """A forward walk reading element k of the input before writing element k of the output,
    the output's elements no wider (QUANTIZE float32 -> int8/int16): output byte j of element
    k lands, at d = 0, on input element floor(j / in_size) <= k, already read; so the output
    may start at the input (a float input kept in the arena takes its int8 form in place)."""
    narrower = inp.num_elements == out.num_elements and out.itemsize <= inp.itemsize
    return declared(inp, out, 0) if narrower else []


def forward_copy(inp, out, last):
    """tinyaot_pad walks the output forward byte by byte, reading input byte k just
    before writing it to its place p(k) >= k; `last`: the output element the last
    input element lands on, the furthest any byte moves up. Each write lands at or
    below the byte just read when the output starts at most that far below the input."""
    return declared(inp, out, inp.nbytes - (last + 1) * inp.itemsize)


def last_reader(size, out_size, taps, stride, dilation, pad):
    """Per input position on one axis, the last output position whose window reads it
    (taps outside the input are skipped), or -1."""
    y = np.arange(size)
    last = np.full(size, -1)
    for f in range(taps):
        start = y + pad - f * dilation
        ok = (start >= 0) & (start % stride == 0) & (start // stride < out_size)
        last = np.where(ok, np.maximum(last, start // stride), last)
    return last


def raster_limit(in_shape, out_shape, rows, cols, channel_first_write, out_pixel_bytes_of):
    """min over read input bytes of i - t(i) (see the module doc) for an NHWC kernel
    whose output pixels come in raster order, one batch after another. rows/cols: the
    last output row/column reading each input row/column (-1: never read);
    channel_first_write[c]: t's offset within the last reading pixel's output, per
    input channel; out_pixel_bytes_of(p): where output pixel p (in its image) starts,
    or that of the next pixel group when writes of a group interleave with its reads."""
    batches, h, w, ci = in_shape
    _, oh, ow, co = out_shape
    y, x, c = np.meshgrid(np.arange(h), np.arange(w), np.arange(ci), indexing="ij")
    read = (rows[y] >= 0) & (cols[x] >= 0)
    if not read.any():
        return None
    i = (y * w + x) * ci + c
    t = out_pixel_bytes_of(rows[y] * ow + cols[x]) + np.asarray(channel_first_write)[c]
    limit = int((i - t)[read].min())
    # Later images: input and output advance by one image each.
    return limit + min(0, (batches - 1) * (h * w * ci - oh * ow * co))


def window_kernel(inp, out, geometry, channel_first_write):
    """Depthwise convolution, pooling, convolution: output pixels in raster order, each
    from a window of input pixels."""
    g = geometry
    rows = last_reader(inp.shape[1], g["output_h"], g["filter_h"], g["stride_h"], g.get("dilation_h", 1), g["pad_h"])
    cols = last_reader(inp.shape[2], g["output_w"], g["filter_w"], g["stride_w"], g.get("dilation_w", 1), g["pad_w"])
    co = out.shape[3]
    limit = raster_limit(inp.shape, out.shape, rows, cols, channel_first_write, lambda p: p * co)
    return declared(inp, out, None if limit is None else limit * inp.itemsize)


def depthwise(inp, out, geometry, depth_multiplier):
    """tinyaot_depthwise_conv2d_s8 writes a pixel's output channels in increasing order,
    each after every tap it reads (a few channels computed together, then written);
    input channel c feeds output channels c * multiplier ... c * multiplier +
    multiplier - 1, so output bytes from the last of them on come after its reads.
    (With multiplier 1 that is as tight as the kernel's order allows.) The float32
    and int16 kernels compute one output channel at a time, in the same order: the
    same bound, exact for them."""
    last = np.arange(inp.shape[3]) * depth_multiplier + depth_multiplier - 1
    return window_kernel(inp, out, geometry, last)


def depthwise_vectors(inp, out, geometry, lanes):
    """tinyaot_depthwise_conv2d_s8_mve (depth multiplier 1) reads a pixel's window for a group of
    `lanes` channels, then stores the group's outputs at once: input channel c is last read
    before the store of its group, which starts at the group's first channel."""
    return window_kernel(inp, out, geometry, np.arange(inp.shape[3]) // lanes * lanes)


def pooling(inp, out, geometry):
    """tinyaot_avg_pool_s8 / tinyaot_max_pool_s8 (and _pool_s16, _pool_f32) reduce one
    channel's window, then write it."""
    return window_kernel(inp, out, geometry, np.arange(inp.shape[3]))


def convolution(inp, out, geometry):
    """tinyaot_conv2d_s8 reads an output pixel's window again for each block of filters and
    writes between (a pixel computed together with the next one writes the next one's
    outputs after both windows are done): a pixel's input is safe to overwrite only from
    the next pixel on."""
    return window_kernel(inp, out, geometry, np.full(inp.shape[3], out.shape[3]))


def convolution_per_filter(inp, out, geometry, groups):
    """tinyaot_conv2d_f32 and tinyaot_conv2d_s16 compute one output value at a time,
    filter by filter, each from its group's channels of the pixel's window, and write
    it: input channel c is last read by the last filter of its group."""
    group_of = np.arange(inp.shape[3]) // (inp.shape[3] // groups)
    return window_kernel(inp, out, geometry, (group_of + 1) * (out.shape[3] // groups) - 1)


def pointwise(inp, out, stride_h, stride_w):
    """tinyaot_conv2d_1x1_s8 computes output pixels two at a time, each output channel
    pair written while the pair's input is still being read: a pair's input is safe to
    overwrite only from the next pair's output on. On Armv6-M it computes one pixel at a
    time: the bound keeps every output byte below its whole pair's input, which covers that
    order too (tests/host/test_overlap_kernels.py proves both builds)."""
    _, h, w, _ = inp.shape
    _, oh, ow, co = out.shape
    rows = last_reader(h, oh, 1, stride_h, 1, 0)
    cols = last_reader(w, ow, 1, stride_w, 1, 0)
    next_pair = lambda p: np.minimum((p // 2 * 2 + 2) * co, oh * ow * co)  # noqa: E731
    limit = raster_limit(inp.shape, out.shape, rows, cols, np.zeros(inp.shape[3], np.int64), next_pair)
    return declared(inp, out, limit)


def pointwise_quads(inp, out, stride_h, stride_w):
    """tinyaot_conv2d_1x1_s8_dsp (and _mve) computes output pixels four at a time, each image's from its
    first pixel, reading (widening) all four pixels' inputs before writing any of their
    outputs: a quad's input is safe to overwrite from the quad's own first output byte on."""
    _, h, w, _ = inp.shape
    _, oh, ow, co = out.shape
    rows = last_reader(h, oh, 1, stride_h, 1, 0)
    cols = last_reader(w, ow, 1, stride_w, 1, 0)
    quad_start = lambda p: p // 4 * 4 * co  # noqa: E731
    limit = raster_limit(inp.shape, out.shape, rows, cols, np.zeros(inp.shape[3], np.int64), quad_start)
    return declared(inp, out, limit)
