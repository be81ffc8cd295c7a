"""The step of a fused residual block (passes/fusion.py ResidualFusion): the convolutions'
and the ADD's own lowerings, their calls rearranged into one ResidualLoop.

Each convolution kernel (portable, or CMSIS-NN's) is called unchanged with its
parameters cut to the band, as band fusion into a FULLY_CONNECTED does
(ops/band_fc.py, BAND_KERNELS): CONV_a from X's rows into the T window, CONV_b from
the window into the band of U, CONV_s (a downsampling block's shortcut) from X's rows
into the band of S. The ADD kernel is called on the band's rows with its size cut to
them; the portable one walks them as rows of the image (a table of two dimensions,
[height, row]) so that a band may stop at any row. The int8 (int16) values of T, U, S
and the ADD's arithmetic are the unfused ones: only the order changes.
"""

from itertools import zip_longest

import numpy as np

from tinyaot.errors import TinyAotError
from tinyaot.ops.band_fc import BAND_KERNELS
from tinyaot.ops.overlap import EXACT
from tinyaot.ops.base import BandInput, ParamArray, ParamStruct, ResidualLoop, ScratchRef, TensorRef

ADD_KERNELS = ("tinyaot_add", "tinyaot_add_s8_dsp", "tinyaot_cmsis_add_s8", "tinyaot_cmsis_add_s16")
# The 16x8 convolutions take their arguments where the int8 ones do.
CONV_KERNELS = {**BAND_KERNELS, "tinyaot_conv2d_s16": BAND_KERNELS["tinyaot_conv2d_s8"],
                "tinyaot_cmsis_conv_s16": BAND_KERNELS["tinyaot_cmsis_conv_s8"]}


def lower_band_residual(graph, fusion, conv_calls, add_calls):
    """[ResidualLoop] of the block, from its operators' calls: CONV_a's, CONV_b's (and
    CONV_s's) in fusion.producers' order, then the ADD's."""
    conv_calls, (add,) = [calls[0] for calls in conv_calls], add_calls
    for call in conv_calls:
        if call.kernel not in CONV_KERNELS:
            raise TinyAotError(f"internal error: cannot run {call.kernel} in bands", file=graph.source,
                               op_index=fusion.consumer, op_type="ADD")
    if add.kernel not in ADD_KERNELS:
        raise TinyAotError(f"internal error: cannot run {add.kernel} in bands", file=graph.source,
                           op_index=fusion.consumer, op_type="ADD")
    x, (t, u, *s) = fusion.block_input, fusion.tensors
    out = graph.operators[fusion.consumer].outputs[0]
    _, height, width, channels = graph.tensors[out].shape
    t_row, o_row = width * graph.tensors[t].shape[3], width * channels  # elements
    x_row = graph.tensors[x].shape[2] * graph.tensors[x].shape[3]
    ctype = graph.tensors[x].ctype
    # The convolutions' own scratch (CMSIS-NN's) follows the window and the bands; one call
    # ends before the next starts, so they share it.
    shared = [max(sizes) for sizes in zip_longest(*(c.scratch for c in conv_calls), fillvalue=0)]
    scratch = [fusion.window_bytes, fusion.band_bytes] + [fusion.band_bytes] * len(s) + shared
    conv = []
    for call, name, inp, dest in zip(conv_calls, ("band_a", "band_b", "band_s"),
                                     (BandInput(x, x_row, "first_a"), "window", BandInput(x, x_row, "first_s")),
                                     (f"window + (computed - first) * {t_row}", ScratchRef(1, ctype),
                                      ScratchRef(2, ctype))):
        at_params, at_input, at_output = CONV_KERNELS[call.kernel]
        args = [ScratchRef(a.index + 2 + len(s), a.ctype) if isinstance(a, ScratchRef) else a for a in call.args]
        params = args[at_params]
        args[at_params], args[at_input], args[at_output] = f"&{name}", inp, dest
        f = params.fields
        band_call = call.__class__(call.kernel, args, header=call.header, instances=call.instances)
        conv.append((band_call, params, f.get("filter_h", 1), f.get("pad_h", 0), f["stride_h"]))
    params = add.args[0]
    args = list(add.args)
    if add.kernel == "tinyaot_add":
        params = ParamStruct(params.ctype, {**params.fields, "rank": 2})
        args[1:4] = [ParamArray("int32_t", np.array(d, np.int32)) for d in ([height, o_row], [o_row, 1], [o_row, 1])]
    args[0] = "&band_add"
    # The ADD's inputs in their order: U's band and X from the band's row on, or S's band.
    bands = {TensorRef(u): ScratchRef(1, ctype), **{TensorRef(i): ScratchRef(2, ctype) for i in s}}
    args = [(bands.get(a) or BandInput(a.tensor, o_row, "row")) if isinstance(a, TensorRef) else a for a in args]
    kernel = "+".join(c.kernel for c in conv_calls) + f"+{add.kernel} in bands"
    return [ResidualLoop(kernel, tuple(conv), add.__class__(add.kernel, args, header=add.header), params, height,
                         graph.tensors[x].shape[1], fusion.rows, ctype, t_row, o_row, scratch,
                         overlaps=[(x, out, EXACT)])]
