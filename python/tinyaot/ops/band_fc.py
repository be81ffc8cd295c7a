"""The step of a fused convolution and FULLY_CONNECTED pair (passes/fusion.py): the
two operators' own lowerings, their calls rearranged into one BandLoop.

The convolution kernel (portable, or CMSIS-NN's through tinyaot_cmsis_nn.h) is called
unchanged, once per band, with its parameters cut to the band (output rows, input
rows, top padding: every kernel's struct names them alike) and its input pointer moved
to the band's first input row; its output goes to the band scratch. The band is a
convolution of its own, whose padding is no larger than the whole image's, so the
kernel CMSIS-NN's wrapper picked for the image holds for it (3x3 with padding <= 1, 1x1
without padding) and the scratch sized for the image suffices. The fully connected
layer's parameters, folded bias and requantization tables are its portable lowering's
(tinyaot_band_fc_s8.h takes the same struct).
"""

from tinyaot.errors import TinyAotError
from tinyaot.ops.base import BandInput, BandLoop, KernelCall, ParamStruct, ScratchRef, TensorRef

# Per convolution kernel, its arguments' positions (ops/conv.py, backends/cmsis_nn.py):
# parameters, input, output.
BAND_KERNELS = {"tinyaot_conv2d_s8": (0, 3, 6), "tinyaot_conv2d_1x1_s8": (0, 3, 6),
                "tinyaot_conv2d_1x1_s8_dsp": (0, 3, 6), "tinyaot_conv2d_1x1_s8_mve": (0, 3, 6),
                "tinyaot_depthwise_conv2d_s8_dsp": (0, 3, 6), "tinyaot_depthwise_mult_s8_dsp": (0, 3, 6),
                "tinyaot_conv2d_gather_s8_dsp": (0, 3, 6), "tinyaot_conv2d_s8_mve": (0, 3, 6),
                "tinyaot_depthwise_conv2d_s8_mve": (0, 3, 5),
                "tinyaot_depthwise_conv2d_s8": (0, 3, 6), "tinyaot_depthwise_mult_s8": (0, 3, 6),
                "tinyaot_cmsis_conv_s8": (0, 4, 7), "tinyaot_cmsis_depthwise_conv_s8": (0, 4, 7)}

# FULLY_CONNECTED kernels whose arguments tinyaot_band_fc_s8.h takes (the same tables; the weights are
# the model's tensor, not the DSP kernel's re-laid out copy).
FC_KERNELS = ("tinyaot_fully_connected_s8", "tinyaot_fully_connected_s8_dsp", "tinyaot_fully_connected_s8_mve")


def lower_band_fc(graph, fusion, conv_calls, fc_calls):
    """[BandLoop] of the pair, from the convolution's and the FULLY_CONNECTED's calls."""
    (conv,), (fc,) = conv_calls, fc_calls
    if conv.kernel not in BAND_KERNELS or fc.kernel not in FC_KERNELS:
        raise TinyAotError(f"internal error: cannot fuse {conv.kernel} into {fc.kernel}", file=graph.source,
                           op_index=fusion.consumer, op_type="FULLY_CONNECTED")
    at_params, at_input, at_output = BAND_KERNELS[conv.kernel]
    params = conv.args[at_params]
    f = params.fields
    window = {"output_h": f["output_h"], "input_h": f["input_h"], "stride_h": f["stride_h"],
              "dilation_h": f.get("dilation_h", 1), "filter_h": f.get("filter_h", 1), "pad_h": f.get("pad_h", 0)}
    out_row = f["output_w"] * graph.tensors[fusion.tensor].shape[3]
    in_row = graph.tensors[conv.args[at_input].tensor].shape[2] * graph.tensors[conv.args[at_input].tensor].shape[3]
    fc_params, multipliers, shifts, _, _, bias, output = fc.args
    # The band's slices take the rows two at a time: no loop specialised to the whole depth.
    fc_params = ParamStruct(fc_params.ctype, {**fc_params.fields, "rows4": "NULL"})
    weights = TensorRef(graph.operators[fusion.consumer].inputs[1])  # the model's rows, whichever kernel's layout
    accumulators, band = ScratchRef(0, "int32_t"), ScratchRef(1, "int8_t")
    # The convolution's own scratch (CMSIS-NN's) follows the band's.
    band_conv = [ScratchRef(a.index + 2, a.ctype) if isinstance(a, ScratchRef) else a for a in conv.args]
    band_conv[at_params] = "&band"
    band_conv[at_input] = BandInput(conv.args[at_input].tensor, in_row)
    band_conv[at_output] = band
    header = "tinyaot_band_fc_s8.h"
    # a DSP or Helium core (the portable lowering took that level's kernel): the slices' sums with
    # SMLAD or VMLADAVA
    accumulate, accumulate_header = {
        "tinyaot_fully_connected_s8_dsp": ("tinyaot_band_fc_accumulate_s8_dsp", "tinyaot_band_fc_s8_dsp.h"),
        "tinyaot_fully_connected_s8_mve": ("tinyaot_band_fc_accumulate_s8_mve", "tinyaot_band_fc_s8_mve.h"),
    }.get(fc.kernel, ("tinyaot_band_fc_accumulate_s8", header))
    return [BandLoop(
        kernel=f"{conv.kernel}+tinyaot_band_fc_s8", params=params, window=window, rows=fusion.rows,
        before=[KernelCall("tinyaot_band_fc_start_s8", [fc_params, bias, accumulators], header=header)],
        body=[KernelCall(conv.kernel, band_conv, header=conv.header, instances=conv.instances),
              KernelCall(accumulate, [
                  fc_params, band, f"row * {out_row}", f"band.output_h * {out_row}", weights, accumulators],
                  header=accumulate_header)],
        after=[KernelCall("tinyaot_band_fc_finish_s8", [fc_params, multipliers, shifts, accumulators,
                                                            output], header=header)],
        scratch=[fusion.accumulator_bytes, fusion.band_bytes, *conv.scratch])]

