"""The step of a fused convolution and FULLY_CONNECTED pair (passes/fusion.py): the
two operators' own lowerings, their calls rearranged into one BandLoop.

The convolution kernel is called unchanged, once per band, with its parameters cut to
the band (output rows, input rows, top padding) and its input pointer moved to the
band's first input row; its output goes to the band scratch. The fully connected
layer's parameters, folded bias and requantization tables are its own lowering's
(tinyaot_band_fc_s8.h takes the same struct).
"""

from tinyaot.errors import TinyAotError
from tinyaot.ops.base import BandInput, BandLoop, KernelCall, ScratchRef

BAND_KERNELS = ("tinyaot_conv2d_s8", "tinyaot_conv2d_1x1_s8", "tinyaot_depthwise_conv2d_s8")
# The convolution calls' argument positions (ops/conv.py): parameters, input, output.
CONV_PARAMS, CONV_INPUT, CONV_OUTPUT = 0, 3, 6


def lower_band_fc(graph, fusion, conv_calls, fc_calls):
    """[BandLoop] of the pair, from the convolution's and the FULLY_CONNECTED's calls."""
    (conv,), (fc,) = conv_calls, fc_calls
    if conv.kernel not in BAND_KERNELS or fc.kernel != "tinyaot_fully_connected_s8":
        raise TinyAotError(f"internal error: cannot fuse {conv.kernel} into {fc.kernel}", file=graph.source,
                           op_index=fusion.consumer, op_type="FULLY_CONNECTED")
    params = conv.args[CONV_PARAMS]
    f = params.fields
    window = {"output_h": f["output_h"], "input_h": f["input_h"], "stride_h": f["stride_h"],
              "dilation_h": f.get("dilation_h", 1), "filter_h": f.get("filter_h", 1), "pad_h": f.get("pad_h", 0)}
    out_row = f["output_w"] * graph.tensors[fusion.tensor].shape[3]
    fc_params, multipliers, shifts, _, weights, bias, output = fc.args
    accumulators, band = ScratchRef(0, "int32_t"), ScratchRef(1, "int8_t")
    band_conv = list(conv.args)
    band_conv[CONV_PARAMS] = "&band"
    band_conv[CONV_INPUT] = BandInput(conv.args[CONV_INPUT].tensor, f["input_w"] * f["input_ch"])
    band_conv[CONV_OUTPUT] = band
    header = "tinyaot_band_fc_s8.h"
    return [BandLoop(
        kernel=f"{conv.kernel}+tinyaot_band_fc_s8", params=params, window=window, rows=fusion.rows,
        before=[KernelCall("tinyaot_band_fc_start_s8", [fc_params, bias, accumulators], header=header)],
        body=[KernelCall(conv.kernel, band_conv, header=conv.header),
              KernelCall("tinyaot_band_fc_accumulate_s8", [
                  fc_params, band, f"row * {out_row}", f"band.output_h * {out_row}", weights, accumulators],
                  header=header)],
        after=[KernelCall("tinyaot_band_fc_finish_s8", [fc_params, multipliers, shifts, accumulators,
                                                            output], header=header)],
        scratch=[fusion.accumulator_bytes, fusion.band_bytes])]

