"""Residual band fusion (passes/fusion.py ResidualFusion): O = ADD(X, CONV_b(CONV_a(X))) run
in bands inside the ADD, O written over X, bit-exact with TFLM, with the RAM it saves
proven by the plan and the in-place write checked by the verifier."""

import json

import pytest

from host.test_models_host import check_against_tflm
from tinyaot.compiler import Options, compile_model
from tinyaot.errors import TinyAotError
from tinyaot.passes.fusion import ResidualFusion
from tinyaot.planner.greedy import align_up
from tinyaot.planner.verify import verify_plan
from tinyaot.testing import catalog
from tinyaot.testing.cli import run_tinyaot

FUSED = [n for n in catalog.names() if n.startswith("residual_") and n not in ("residual_not_fusable",
                                                                                "residual_height1")]


def _residual(model):
    (f,) = model.fusions.values()
    assert isinstance(f, ResidualFusion)
    return f


# test_codegen.py runs every catalog model under ASan/UBSan against TFLM, these fused blocks
# included: both ADD orders, int16, a downsampling block and resnet8's three blocks (every
# band, the T window's rows moved to its front) stay inside the arena.


@pytest.mark.parametrize("inputs_in_arena", [False, True])
@pytest.mark.parametrize("name", FUSED)
def test_fused_plan_holds_x_and_the_scratch(name, inputs_in_arena, own_model):
    """T and U leave the arena; the ADD's step holds X (with O exactly over it) and the two
    scratch buffers the fusion computed; the arena is the fused graph's bound and below the
    unfused plan."""
    path = own_model(name)
    fused = compile_model(path, Options("m", inputs_in_arena=inputs_in_arena))
    unfused = compile_model(path, Options("m", inputs_in_arena=inputs_in_arena, fusion=False))
    f = _residual(fused)
    g, a = fused.graph, fused.options.alignment
    t, u = (g.tensors[i] for i in f.tensors[:2])
    _, h, w, _ = t.shape
    rows_b = g.tensors[g.operators[f.conv_b].inputs[1]].shape[1]
    assert f.window_bytes == min(h, f.rows + rows_b - 1) * w * t.shape[3] * t.itemsize
    assert f.band_bytes == f.rows * w * u.shape[3] * u.itemsize
    by = {b.tensor: b for b in fused.buffers}
    x, o = by[f.block_input], by[g.operators[f.consumer].outputs[0]]
    assert (x.offset, x.last) == (o.offset, f.consumer) and o.exact == {f.block_input}
    assert (x.size == o.size) == (f.shortcut is None)
    assert all(b.tensor not in f.tensors for b in fused.buffers)
    scratch = sorted(b.size for b in fused.buffers if b.name.startswith(f"scratch:op{f.consumer}:"))
    bands = [f.band_bytes] * (len(f.tensors) - 1)
    assert scratch == sorted([f.window_bytes, *bands])
    assert fused.arena_size == fused.plan.overlap_bound
    assert fused.arena_size >= align_up(x.size, a) + sum(align_up(n, a) for n in (f.window_bytes, *bands))
    assert fused.arena_size < unfused.arena_size and fused.lower_bound == unfused.lower_bound


def test_resnet8_blocks(own_model):
    """resnet8's three blocks, in bands of 1 row. The first, 32x32x16: 16384 (X, O over it) +
    1536 (three rows of T) + 512 (a row of U) = 18432 bytes. The second, downsampling to
    16x16x32: X 16384 + window 1536 + bands of U and S 512 each = 18944, the arena (against
    33312 unfused, whose bound is the first block's X and T)."""
    path = own_model("resnet8")
    fused, unfused = compile_model(path, Options("m")), compile_model(path, Options("m", fusion=False))
    assert {k: (f.producers, f.rows, f.window_bytes, f.band_bytes) for k, f in fused.fusions.items()} == {
        3: ((1, 2), 1, 1536, 512), 7: ((4, 5, 6), 1, 1536, 512), 11: ((8, 9, 10), 1, 1536, 512)}
    assert (fused.arena_size, fused.plan.overlap_bound, fused.lower_bound) == (18944, 18944, 49152)
    assert (unfused.arena_size, unfused.plan.overlap_bound) == (33312, 33312)


def test_verifier_accepts_o_exactly_over_x_or_apart_only(own_model):
    """O may share X's bytes only starting exactly at X: one alignment unit above or below is
    refused; placed apart it is accepted."""
    model = compile_model(own_model("residual_u_first_remainder"), Options("m"))
    f = _residual(model)
    x = next(b for b in model.buffers if b.tensor == f.block_input)
    o = next(b for b in model.buffers if b.tensor == model.graph.operators[f.consumer].outputs[0])
    verify_plan(model.buffers, model.arena_size, 16, "m.tflite")
    base = model.arena_size + 64  # X moved above everything, O placed around it
    x.offset, top = base, base + 2 * x.size + 64
    for shift in (16, -16, 32):
        o.offset = base + shift
        with pytest.raises(TinyAotError, match=f"buffer 'o' overlaps 'conv3' starting {abs(shift)} bytes "
                                               f"{'above' if shift > 0 else 'below'} it; its kernel allows "
                                               "sharing bytes only starting exactly at it"):
            verify_plan(model.buffers, top, 16, "m.tflite")
    for o.offset in (base, base + align_up(x.size, 16)):  # exactly over X, or apart
        verify_plan(model.buffers, top, 16, "m.tflite")


def test_blocks_that_cannot_or_need_not_be_fused(own_model):
    """A 1x1 CONV_b after a padded 3x3 CONV_a would need X's rows after O overwrote them: not
    fused. At height 1 the window is all of T and the band all of U: nothing to save."""
    for name in ("residual_not_fusable", "residual_height1"):
        model = compile_model(own_model(name), Options("m"))
        assert not model.fusions and not any(n.startswith("fused") for n in model.notes)


def test_no_fusion_switch_inspect_and_json(own_model, tmp_path):
    path = own_model("residual_u_first_remainder")
    for flags, fusions in (([], 1), (["--no-fusion"], 0)):
        result = run_tinyaot("compile", path, "--name", "m", "--out", tmp_path / str(fusions), *flags)
        assert result.returncode == 0, result.stderr
        report = json.loads((tmp_path / str(fusions) / "m.json").read_text())
        assert len(report["fusions"]) == fusions
    report = json.loads((tmp_path / "1" / "m.json").read_text())
    (o,) = [b for b in report["plan"] if b["name"] == "o"]
    assert o["may_overlap"] == [{"input": "conv3", "tensor": 3, "limit": 0, "exact": True}]
    assert report["fusions"] == [{"kind": "residual", "producers": [1, 2], "consumer": 3,
                                  "tensors": ["conv6", "conv9"], "tensor_bytes": 44 + 352, "band_rows": 2,
                                  "window_bytes": 16, "band_bytes": 64}]
    c = (tmp_path / "1" / "m.c").read_text()
    assert "for (row = 0; row < 11; row += 2) {" in c and "tinyaot_band_keep_rows(window, 4, first" in c
    from tinyaot.planner.svg import plan_svg
    svg = plan_svg(compile_model(path, Options("m")))
    assert "fused graph's bound 432 bytes (fused: operators 1 and 2 into 3)" in svg
    assert "o written over conv3: 352 bytes shared at step 3 (starts at it; its kernel allows exactly at it)" in svg
    out = run_tinyaot("inspect", path, "--name", "m").stdout
    # The second convolution reads one channel: the depthwise multiplier kernel runs it.
    assert "tinyaot_conv2d_s8+tinyaot_depthwise_mult_s8+tinyaot_add in bands" in out
    assert "may overlap: o over conv3, starting exactly at it" in out
    assert "fused: operators 1 and 2 (CONV_2D) run inside operator 3 (ADD) in bands of 2 output rows: tensors " \
           "'conv6' (44 bytes) and 'conv9' (352 bytes) are never stored, the output is written over 'conv3'; " \
           "scratch 16 + 64 bytes (window, band)" in out


# Blocks CMSIS-NN fuses on the default core (cortex-m3): residual_u_first_remainder, _height2_5x5 and
# _x_first_odd plan smaller unfused there, their CMSIS-NN kernels' outputs written over their inputs.
@pytest.mark.parametrize("name", ["residual_1x1_then_3x3", "residual_1x3_filters", "residual_down_3x3_shortcut", "resnet8"])
def test_fused_block_with_cmsis_nn_matches_tflm(name, own_model, tmp_path, cmsis_nn):
    """CMSIS-NN's convolution kernels on each band (window input, top padding) and its ADD on the
    band's rows give TFLM's values (1x1 ones too: on the M3 --cmsis-nn-1x1 auto would keep the
    portable kernel, and --cmsis-nn-conv auto the 3x3 ones, whose scratch raises the arena)."""
    path = own_model(name)
    model = compile_model(path, Options("m", kernels="cmsis-nn", cmsis_nn_1x1="wrapper", cmsis_nn_conv="im2col"))
    f = min(model.fusions.values(), key=lambda f: f.consumer)
    (loop,) = model.calls[f.consumer][1]
    assert loop.kernel.startswith("tinyaot_cmsis_conv_s8+tinyaot_cmsis_conv_s8+tinyaot_cmsis_")
    check_against_tflm(path, name, tmp_path, calls=3, kernels="cmsis-nn", cmsis_nn_1x1="wrapper",
                       cmsis_nn_conv="im2col")


def test_random_blocks_match_tflm(tmp_path):
    """Seeded random blocks (filters 1x1 to 5x3, heights 1 to 14, channel counts, ADD order,
    activation, per-tensor weights, X the model's input, downsampling blocks with a shortcut):
    every fused one matches TFLM, and every one whose filters break the condition is left
    unfused."""
    import numpy as np
    from tinyaot.testing.models_residual import residual_block
    rng = np.random.default_rng(11)
    fused = downsampling = 0
    for k in range(20):
        fa, fb, fs = [(int(rng.integers(1, 6)), int(rng.integers(1, 4))) for _ in range(3)]
        shape = [1, int(rng.integers(1, 15)), int(rng.integers(1, 9)), int(rng.integers(1, 7))]
        down = {}
        if k % 3 == 2:  # downsampling: big enough for the bands to save something
            fa, fb = (int(rng.integers(1, 4)), fa[1]), (int(rng.integers(2, 4)), fb[1])
            shape = [1, int(rng.integers(6, 16)), int(rng.integers(3, 9)), int(rng.integers(2, 9))]
            down = dict(shortcut=fs, stride=2, out_ch=int(rng.integers(2, 9)))
        path = tmp_path / f"block{k}.tflite"
        path.write_bytes(residual_block(300 + k, shape, int(rng.integers(1, 7)), filters=(fa, fb),
                                        x_first=bool(k % 2), act=k % 3 % 2, per_channel=bool(k % 4),
                                        x_is_input=k % 5 == 4, **down))
        model = compile_model(path, Options("m"))
        if not down and (fb[0] - 1) - (fb[0] - 1) // 2 < (fa[0] - 1) // 2:  # SAME: top padding (f - 1) // 2
            assert not model.fusions, (k, fa, fb)
        if model.fusions:
            fused += 1
            downsampling += bool(down)
            check_against_tflm(path, f"block{k}", tmp_path / f"block{k}", calls=2, inputs_in_arena=bool(k % 3))
    assert fused >= 8 and downsampling >= 3, f"only {fused} of 20 random blocks were fused ({downsampling} " \
        "downsampling): the test would test little"


def _keep_fused_plans(monkeypatch):
    """Makes compile_model keep a fused plan even where the unfused one is smaller."""
    import dataclasses
    from tinyaot import compiler
    real = compiler._lower_and_plan

    def unfused_looks_larger(graph, views, options, fusions):
        planned = real(graph, views, options, fusions)
        return planned if fusions else planned._replace(outcome=dataclasses.replace(planned.outcome, arena_size=1 << 30))

    monkeypatch.setattr(compiler, "_lower_and_plan", unfused_looks_larger)
    return compiler


def test_height1_block_forced_fused_matches_tflm(own_model, tmp_path, monkeypatch):
    """Height 1 is never fused by choice (its window and band are all of T and U); forced (the
    unfused plan made to look larger), its one band, padding above and below, gives TFLM's values."""
    compiler = _keep_fused_plans(monkeypatch)
    monkeypatch.setattr(compiler, "find_fusions", lambda *_: {3: ResidualFusion(1, 2, 3, 3, (6, 9), 1, 9 * 7, 9 * 3)})
    path = own_model("residual_height1")
    model = compile_model(path, Options("m"))
    assert _residual(model).rows == 1 and tuple(model.graph.tensors[3].shape) == (1, 1, 9, 3)
    check_against_tflm(path, "residual_height1", tmp_path, calls=3)


def test_downsampling_block_whose_output_outgrows_x_is_not_fused(tmp_path, monkeypatch):
    """X 10x4x1 (4-byte rows) to O 5x2x8 (16-byte rows): O's first row, written over X's first
    four, lands on X's row 1, which the next band's CONV_a still reads. Not fused; forced past
    the check, it differs from TFLM."""
    from tinyaot.passes import fusion
    from tinyaot.testing.models_residual import residual_block
    path = tmp_path / "outgrows.tflite"
    path.write_bytes(residual_block(90, [1, 10, 4, 1], 2, shortcut=(1, 1), stride=2, out_ch=8, x_first=False))
    assert not compile_model(path, Options("m")).fusions
    _keep_fused_plans(monkeypatch)
    monkeypatch.setattr(fusion, "_o_over_x_is_safe", lambda *_: True)
    assert compile_model(path, Options("m")).fusions
    with pytest.raises(AssertionError, match="outputs differ from TFLM"):
        check_against_tflm(path, "outgrows", tmp_path / "out", calls=2)
