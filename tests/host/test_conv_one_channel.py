"""CONV_2D on a one-channel input (groups 1) lowered as a depthwise convolution with the
output channels as depth multiplier (ops/conv.py, _conv_one_channel_call), on
tinyaot_depthwise_mult_s8: bit-exact with TFLM on the host under ASan/UBSan for output
channel counts 1, 3, 5, 8, 13 and 64 (every chunk size of the kernel), strides 1 and 2,
SAME and VALID padding, dilation, per-tensor and per-channel weights, fused RELU and
RELU6, no bias, a batch of two, input zero points at both ends of the int8 range. The
overlap its memory plan may use is the depthwise kernel's (proven for this case in
test_overlap_kernels.py, family conv_one_channel)."""

from sanitized import check_all_sanitized
from test_depthwise_mult import _kernels, one_layer_model
from tinyaot.compiler import Options, compile_model
from tinyaot.ops import overlap
from tinyaot.ops.conv import PADDING_VALID as VALID
from tinyaot.testing.models_conv import RELU, RELU6, conv

# output channels: input [b, h, w, 1], filter, options (padding, stride, dilation, act, per_channel, bias),
# input zero point
CASES = {
    1: ([1, 6, 5, 1], (3, 3), {"act": RELU}, 4),
    3: ([1, 7, 6, 1], (3, 2), {"padding": VALID, "stride": (2, 2), "per_channel": False}, -128),
    5: ([2, 5, 7, 1], (2, 3), {"dilation": (2, 2), "act": RELU6}, 127),
    8: ([1, 9, 6, 1], (4, 3), {"stride": (2, 2), "act": RELU, "bias": False}, -3),
    13: ([1, 8, 8, 1], (3, 3), {"padding": VALID, "dilation": (2, 1), "per_channel": False, "act": RELU}, 17),  # gathered
    64: ([1, 13, 10, 1], (10, 4), {"stride": (2, 2), "act": RELU}, -100),   # DS-CNN's first layer, shorter
}


def _model(out_ch):
    return one_layer_model(CASES[out_ch], conv, out_ch, out_ch)


def test_one_channel_convolutions_take_the_depthwise_multiplier_kernel(tmp_path):
    for out_ch in CASES:
        assert _kernels(tmp_path, _model(out_ch)) == ["tinyaot_depthwise_mult_s8"], out_ch


def test_declared_overlap_is_the_depthwise_kernels(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_model(64))
    model = compile_model(path, Options("m"))
    (op, (call,)), = model.calls
    inp, out = (model.graph.tensors[t] for t in (op.inputs[0], op.outputs[0]))
    geometry = {k: call.args[0].fields[k] for k in ("output_h", "output_w", "filter_h", "filter_w", "stride_h",
                                                  "stride_w", "dilation_h", "dilation_w", "pad_h", "pad_w")}
    assert call.overlaps == overlap.depthwise(inp, out, geometry, 64) != overlap.convolution(inp, out, geometry)


def test_matches_tflm_under_sanitizers(tmp_path):
    check_all_sanitized(tmp_path, {out_ch: _model(out_ch) for out_ch in CASES})

