"""The step of a fused residual block (passes/fusion.py ResidualFusion): the two
convolutions' and the ADD's own lowerings, their calls rearranged into one ResidualLoop.

Each convolution kernel (portable, or CMSIS-NN's) is called unchanged with its
parameters cut to the band, as band fusion into a FULLY_CONNECTED does
(ops/band_fc.py, BAND_KERNELS): CONV_a from X's rows into the T window, CONV_b from
the window into the band of U. The ADD kernel is called on the band's rows of X and
U with its size cut to them; the portable one walks them as rows of the image (a
table of two dimensions, [height, row]) so that a band may stop at any row. The
int8 values of T and U and the ADD's arithmetic are the unfused ones: only the
order changes.
"""

from itertools import zip_longest

import numpy as np

from tinyaot.errors import TinyAotError
from tinyaot.ops.band_fc import BAND_KERNELS
from tinyaot.ops.overlap import EXACT
from tinyaot.ops.base import BandInput, ParamArray, ParamStruct, ResidualLoop, ScratchRef, TensorRef

ADD_KERNELS = ("tinyaot_add", "tinyaot_cmsis_add_s8")
# The 16x8 convolution takes its arguments where the int8 one does.
CONV_KERNELS = {**BAND_KERNELS, "tinyaot_conv2d_s16": BAND_KERNELS["tinyaot_conv2d_s8"]}


def lower_band_residual(graph, fusion, conv_a_calls, conv_b_calls, add_calls):
    """[ResidualLoop] of the block, from its three operators' calls."""
    (conv_a,), (conv_b,), (add,) = conv_a_calls, conv_b_calls, add_calls
    for call in (conv_a, conv_b):
        if call.kernel not in CONV_KERNELS:
            raise TinyAotError(f"internal error: cannot run {call.kernel} in bands", file=graph.source,
                               op_index=fusion.consumer, op_type="ADD")
    if add.kernel not in ADD_KERNELS:
        raise TinyAotError(f"internal error: cannot run {add.kernel} in bands", file=graph.source,
                           op_index=fusion.consumer, op_type="ADD")
    x, (t, u) = fusion.block_input, fusion.tensors
    _, height, width, channels = graph.tensors[x].shape
    t_row, x_row = width * graph.tensors[t].shape[3], width * channels  # elements
    ctype = graph.tensors[x].ctype
    # The convolutions' own scratch (CMSIS-NN's) follows; one call ends before the other starts,
    # so they share it.
    shared = [max(sizes) for sizes in zip_longest(conv_a.scratch, conv_b.scratch, fillvalue=0)]
    scratch = [fusion.window_bytes, fusion.band_bytes, *shared]
    conv = []
    for call, name, inp, out in ((conv_a, "band_a", BandInput(x, x_row, "first_a"),
                                  f"window + (computed - first) * {t_row}"),
                                 (conv_b, "band_b", "window", ScratchRef(1, ctype))):
        at_params, at_input, at_output = CONV_KERNELS[call.kernel]
        args = [ScratchRef(a.index + 2, a.ctype) if isinstance(a, ScratchRef) else a for a in call.args]
        params = args[at_params]
        args[at_params], args[at_input], args[at_output] = f"&{name}", inp, out
        f = params.fields
        conv.append((call.__class__(call.kernel, args, header=call.header), params, f.get("filter_h", 1),
                     f.get("pad_h", 0)))
    params = add.args[0]
    args = list(add.args)
    if add.kernel == "tinyaot_add":
        params = ParamStruct(params.ctype, {**params.fields, "rank": 2})
        args[1:4] = [ParamArray("int32_t", np.array(d, np.int32)) for d in ([height, x_row], [x_row, 1], [x_row, 1])]
    args[0] = "&band_add"
    # The ADD's inputs in their order: X from the band's row on, U's band.
    args = [BandInput(x, x_row, "row") if a == TensorRef(x) else ScratchRef(1, ctype) if a == TensorRef(u)
            else BandInput(a.tensor, x_row, "row") if isinstance(a, TensorRef) else a for a in args]
    out = graph.operators[fusion.consumer].outputs[0]
    kernel = f"{conv_a.kernel}+{conv_b.kernel}+{add.kernel} in bands"
    return [ResidualLoop(kernel, tuple(conv), add.__class__(add.kernel, args, header=add.header), params, height,
                         fusion.rows, ctype, t_row, x_row, scratch, overlaps=[(x, out, EXACT)])]
