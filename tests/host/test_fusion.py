"""Band fusion (passes/fusion.py): a convolution computed in bands inside the FULLY_CONNECTED
that reads it, bit-exact with TFLM, with the RAM it saves proven by the plan."""

import json

import pytest

from conftest import shared_model
from host.test_models_host import check_against_tflm
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.planner.greedy import align_up
from tinyaot.planner.verify import verify_plan
from tinyaot.testing import catalog
from tinyaot.testing.cli import run_tinyaot

FUSED = [n for n in catalog.names() if n.startswith("fusion_")]


def _model(name, own_model):
    return shared_model(name) if name.startswith("tflm_") else own_model(name)


# test_codegen.py runs every catalog and shared model under ASan/UBSan against TFLM, these
# fused ones included: every band (top and bottom padding, strides, dilation, a last band of
# fewer rows) stays inside the arena and the trimmed input.


@pytest.mark.parametrize("inputs_in_arena", [False, True])
@pytest.mark.parametrize("name", FUSED + ["tflm_micro_speech_quantized"])
def test_fused_arena_is_below_the_unfused_lower_bound(name, inputs_in_arena, own_model):
    """The fused plan beats the unfused graph's classic lower bound by at least the
    intermediate tensor less the band and accumulator scratch (and less the FULLY_CONNECTED's
    output when that is in the arena: it is now live with the convolution's input); both
    report that bound."""
    path = _model(name, own_model)
    fused = compile_model(path, Options("m", inputs_in_arena=inputs_in_arena))
    unfused = compile_model(path, Options("m", inputs_in_arena=inputs_in_arena, fusion=False))
    assert not unfused.fusions
    if not fused.fusions:
        # The input in the arena under an output written over it can beat the band: then the
        # compiler keeps the unfused plan, and says so.
        assert inputs_in_arena and fused.arena_size == unfused.arena_size
        assert any(n.startswith("band fusion not used: the unfused arena") for n in fused.notes)
        return
    assert len(fused.fusions) == 1
    (f,) = fused.fusions.values()
    a = fused.options.alignment
    saved = align_up(fused.graph.tensors[f.tensor].nbytes, a) - align_up(f.band_bytes, a) - \
        align_up(f.accumulator_bytes, a)
    saved -= sum(align_up(b.size, a) for b in fused.buffers if b.tensor in fused.graph.operators[f.consumer].outputs)
    assert saved > 0
    assert fused.lower_bound == unfused.lower_bound == unfused.plan.lower_bound
    assert fused.arena_size <= unfused.lower_bound - saved
    assert fused.arena_size < unfused.arena_size
    # Nothing in the fused plan holds the intermediate, and the scratch is the step's.
    assert all(b.tensor != f.tensor for b in fused.buffers)
    assert sorted(b.size for b in fused.buffers if b.name.startswith(f"scratch:op{f.consumer}:")) == \
        sorted([f.band_bytes, f.accumulator_bytes])


def test_verifier_rejects_the_band_over_the_convolutions_input(own_model):
    """The convolution's input is read by every band: the plan keeps it live through the
    FULLY_CONNECTED's step, so the verifier refuses a band scratch placed over it."""
    model = compile_model(own_model("fusion_conv_odd_padding_grouped"), Options("m", inputs_in_arena=True))
    (f,) = model.fusions.values()
    conv_input = next(b for b in model.buffers if b.tensor == model.graph.operators[f.producer].inputs[0])
    band = next(b for b in model.buffers if b.name == f"scratch:op{f.consumer}:1")
    assert (conv_input.first, conv_input.last) == (0, f.consumer) and band.size == f.band_bytes
    verify_plan(model.buffers, model.arena_size, 16, "m.tflite")
    band.offset = conv_input.offset
    with pytest.raises(TinyAotError, match="live at the same step and overlap"):
        verify_plan(model.buffers, model.arena_size, 16, "m.tflite")


def test_no_fusion_switch_and_inspect(own_model, tmp_path):
    path = own_model("fusion_depthwise_stride2_multiplier")
    for flags, fusions, arena in (([], 1, 96), (["--no-fusion"], 0, 400)):
        result = run_tinyaot("compile", path, "--name", "m", "--out", tmp_path / str(fusions), *flags)
        assert result.returncode == 0, result.stderr
        report = json.loads((tmp_path / str(fusions) / "m.json").read_text())
        assert (len(report["fusions"]), report["arena_size"], report["lower_bound"]) == (fusions, arena, 400)
        assert report["fusion"] == (not flags)
    c = (tmp_path / "1" / "m.c").read_text()
    assert "for (row = 0; row < 11; row += 2) {" in c and "tinyaot_depthwise_mult_s8(&band," in c
    out = run_tinyaot("inspect", path, "--name", "m").stdout
    assert "(fused)" in out and "tinyaot_depthwise_mult_s8+tinyaot_band_fc_s8" in out
    assert "fused: operator 0 (DEPTHWISE_CONV_2D) runs inside operator 1 (FULLY_CONNECTED) in bands of 2 output " \
           "rows: tensor 'dw3' (396 bytes) is never stored; scratch 72 + 4 bytes" in out
    assert "arena 96 bytes, lower bound 400 bytes unfused (fused graph: classic 96, overlap-aware 96)" in out


@pytest.mark.parametrize("name", FUSED + ["tflm_micro_speech_quantized"])
def test_fused_model_with_cmsis_nn_matches_tflm(name, own_model, tmp_path, cmsis_nn):
    """CMSIS-NN's convolution kernels on each band (trimmed input, top padding) give TFLM's values
    (1x1 ones too: on the M3 --cmsis-nn-1x1 auto would keep the portable kernel, and --cmsis-nn-conv
    auto others where their scratch raises the arena)."""
    path = _model(name, own_model)
    model = compile_model(path, Options("m", kernels="cmsis-nn", cmsis_nn_1x1="wrapper", cmsis_nn_conv="im2col"))
    assert model.fusions
    # Grouped filters stay on the portable kernel (CMSIS-NN has none), fused all the same.
    on_cmsis = any(c.kernel.startswith("tinyaot_cmsis_") for _, calls in model.calls for c in calls)
    assert on_cmsis == (name != "fusion_conv_odd_padding_grouped")
    check_against_tflm(path, name, tmp_path, calls=5, kernels="cmsis-nn", cmsis_nn_1x1="wrapper",
                       cmsis_nn_conv="im2col")


def test_plan_svg_names_both_bounds(own_model):
    """The picture keeps the unfused graph's classic LB and draws the fused graph's bound."""
    from tinyaot.planner.svg import plan_svg
    svg = plan_svg(compile_model(own_model("fusion_depthwise_stride2_multiplier"), Options("m")))
    assert "lower bound 400 bytes unfused; fused graph's bound 96 bytes (fused: operator 0 into 1)" in svg
    assert "LB (unfused) 400</text>" in svg and "fused graph's bound 96</text>" in svg


def _random_pair(rng, k):
    """A seeded random convolution/depthwise -> FULLY_CONNECTED pair large enough to be fused."""
    from tinyaot.ops.conv import out_size
    from tinyaot.testing.models_conv import conv, depthwise
    from tinyaot.testing.models_fusion import _pair
    kind = [conv, depthwise][k % 2]
    fh, fw = int(rng.integers(1, 6)), int(rng.integers(1, 4))
    sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    dh = int(rng.integers(1, 3)) if fh > 1 else 1
    padding = int(rng.integers(0, 2))
    h, w, c = int(rng.integers(12, 30)), int(rng.integers(4, 12)), int(rng.integers(1, 5))
    oh, ow = out_size(padding, h, fh, sh, dh), out_size(padding, w, fw, sw, 1)
    mult = int(rng.integers(1, 4)) if kind is depthwise else 1
    oc = c * mult if kind is depthwise else int(rng.integers(2, 9))
    extra = {"multiplier": mult} if kind is depthwise else {}
    return _pair(100 + k, [1, h, w, c], (0.05, int(rng.integers(-20, 20))), kind, int(rng.integers(1, 40)),
                 bool(k % 3), out_shape=[1, oh, ow, oc], filter_hw=(fh, fw), padding=padding, stride=(sh, sw),
                 dilation=(dh, 1), **extra)


def test_random_pairs_match_tflm(tmp_path):
    """Seeded random shapes (filters, strides 1-3, dilation, SAME/VALID, depth multipliers,
    1 to 39 outputs): every fused one matches TFLM."""
    import numpy as np
    rng = np.random.default_rng(7)
    fused = 0
    for k in range(12):
        path = tmp_path / f"pair{k}.tflite"
        path.write_bytes(_random_pair(rng, k))
        if compile_model(path, Options("m")).fusions:
            fused += 1
            check_against_tflm(path, f"pair{k}", tmp_path / f"pair{k}", calls=3)
    assert fused >= 8, f"only {fused} of 12 random pairs were fused: the test would test little"
