"""tinyaot_conv2d_s8 on cores with the DSP extension (--cpu cortex-m4): its pixel pairs'
loop of kernels/dsp/tinyaot_conv2d_s8_dsp.h, bit-exact with TFLM on the host under
ASan/UBSan through the C models of the instructions: the pairs' corners (pairs in the
middle and at the borders, odd widths, strides, distances below 4 between a pair's inputs:
the general loop), odd filter counts (the filters left after the blocks of four), grouped
filters, dilation, per-tensor and per-channel weights, a batch of two."""

from test_depthwise_mult import check_all_sanitized
from tinyaot.compiler import Options, compile_model
from tinyaot.testing import catalog

MODELS = ["conv_pixel_pairs", "conv_edge_shapes", "conv_grouped", "conv_dilation_relu6_no_bias"]


def test_dsp_cores_take_the_loop_of_their_level(tmp_path):
    calls = [c for name in MODELS
             for _, calls in compile_model(catalog.build(name, tmp_path), Options("m", cpu="cortex-m4")).calls
             for c in calls if c.kernel == "tinyaot_conv2d_s8"]
    assert calls and all(c.header == "tinyaot_conv2d_s8_dsp.h" for c in calls)
    loops = {c.args[0].fields["pair4"] for c in calls}
    assert "TINYAOT_CONV2D_PAIR4_DSP(any)" in loops and "TINYAOT_CONV2D_PAIR4_DSP(6)" in loops
    assert all(i.startswith("TINYAOT_CONV2D_PAIR4_DSP_STEP(") for c in calls for i in c.instances)


def test_matches_tflm_under_sanitizers(tmp_path):
    check_all_sanitized(tmp_path, {name: catalog.build(name, tmp_path).read_bytes() for name in MODELS},
                        cpu="cortex-m4")
