"""The step of a fused chain U = B(CONV_a(X)) (passes/fusion.py ChainFusion): the two
operators' own lowerings, their calls rearranged into one ResidualLoop without an ADD.

As in a residual block (ops/band_residual.py), each kernel (portable or CMSIS-NN's) is
called unchanged with its parameters cut to the band: CONV_a from X's rows into the T
window, B (a convolution or pooling, whose structs name output_h, input_h and pad_h as
the convolutions' do) from the window into U's rows. T's values and B's arithmetic are
the unfused ones: only the order changes.
"""

from itertools import zip_longest

from tinyaot.errors import TinyAotError
from tinyaot.ops.band_residual import CONV_KERNELS
from tinyaot.ops.base import BandInput, ResidualLoop, ScratchRef

# Per kernel, its arguments' positions: parameters, input, output.
CHAIN_KERNELS = {**CONV_KERNELS, "tinyaot_conv2d_f32": (0, 1, 4), "tinyaot_depthwise_conv2d_f32": (0, 1, 4),
                 "tinyaot_max_pool_s8": (0, 1, 2), "tinyaot_avg_pool_s8": (0, 1, 2), "tinyaot_pool_f32": (0, 1, 2),
                 "tinyaot_cmsis_pool_s8": (0, 2, 3)}


def lower_band_chain(graph, fusion, conv_calls, b_calls):
    """[ResidualLoop] of the chain, from CONV_a's and B's calls."""
    b_op = graph.operators[fusion.consumer]
    (conv,), (b,) = conv_calls, b_calls
    for call in (conv, b):
        if call.kernel not in CHAIN_KERNELS:
            raise TinyAotError(f"internal error: cannot run {call.kernel} in bands", file=graph.source,
                               op_index=fusion.consumer, op_type=b_op.type)
    x, t, u = graph.tensors[graph.operators[fusion.producer].inputs[0]], graph.tensors[fusion.tensor], \
        graph.tensors[b_op.outputs[0]]
    t_row, u_row, x_row = (i.shape[2] * i.shape[3] for i in (t, u, x))  # elements
    # B's own scratch (CMSIS-NN's) and CONV_a's follow the window; one call ends before the next
    # starts, so they share it.
    scratch = [fusion.window_bytes] + [max(sizes) for sizes in zip_longest(conv.scratch, b.scratch, fillvalue=0)]
    looped = []
    for call, name, inp, dest in ((conv, "band_a", BandInput(x.index, x_row, "first_a"),
                                   f"window + (computed - first) * {t_row}"),
                                  (b, "band_b", "window", BandInput(u.index, u_row, "row"))):
        at_params, at_input, at_output = CHAIN_KERNELS[call.kernel]
        args = [ScratchRef(a.index + 1, a.ctype) if isinstance(a, ScratchRef) else a for a in call.args]
        params = args[at_params]
        args[at_params], args[at_input], args[at_output] = f"&{name}", inp, dest
        f = params.fields
        looped.append((call.__class__(call.kernel, args, header=call.header, instances=call.instances), params,
                       f.get("filter_h", 1), f.get("pad_h", 0), f["stride_h"]))
    kernel = f"{conv.kernel}+{b.kernel} in bands"
    return [ResidualLoop(kernel, tuple(looped), None, None, u.shape[1], x.shape[1], fusion.rows, t.ctype, t_row,
                         u_row, scratch, t_height=t.shape[1])]
