"""The memory planner: lifetimes, the lower bound, placement, and the verifier."""

import json
from pathlib import Path

import pytest

from tinyaot.errors import TinyAotError
from tinyaot.planner.greedy import align_up, lower_bound, overlap_bound, place
from tinyaot.compiler import Options, compile_model
from tinyaot.planner.search import branch_and_bound
from tinyaot.planner.strategies import FITS, ORDERS, PlanOutcome
from tinyaot.planner.sweep import sweep_place
from tinyaot.planner.strategies import plan as plan_outcome
from tinyaot.planner.lifetimes import Buffer
from tinyaot.planner.verify import verify_plan


def plan(buffers, alignment):
    return plan_outcome(buffers, alignment).arena_size


def buffers(*specs):
    return [Buffer(f"b{i}", size, first, last) for i, (size, first, last) in enumerate(specs)]


def test_lower_bound_is_the_largest_live_sum_after_alignment():
    bs = buffers((10, 0, 1), (20, 1, 2), (40, 2, 3))
    # step 1: 16 + 32; step 2: 32 + 48
    assert lower_bound(bs, 16) == 80
    assert lower_bound(bs, 4) == 20 + 40


def test_chain_reuses_memory_and_reaches_the_bound():
    bs = buffers((100, 0, 1), (100, 1, 2), (100, 2, 3), (100, 3, 4))
    size = plan(bs, 16)
    assert size == lower_bound(bs, 16) == 2 * align_up(100, 16)
    verify_plan(bs, size, 16, "m")


def test_best_fit_fills_the_smallest_gap():
    # a and c live throughout with a hole between them once b (step 0 only) is gone.
    bs = buffers((64, 0, 3), (32, 0, 0), (64, 0, 3), (16, 2, 3), (32, 1, 3))
    size = plan(bs, 16)
    verify_plan(bs, size, 16, "m")
    assert size == lower_bound(bs, 16) == 64 + 64 + 32 + 16


def test_offsets_respect_alignment():
    bs = buffers((3, 0, 0), (5, 0, 0), (7, 0, 0))
    size = plan(bs, 8)
    assert all(b.offset % 8 == 0 for b in bs)
    assert size == 24


def test_verifier_rejects_overlap_of_live_buffers():
    bs = buffers((32, 0, 1), (32, 1, 2))
    bs[0].offset = bs[1].offset = 0
    with pytest.raises(TinyAotError, match=r"m: internal error, memory plan is invalid: buffers 'b0' and 'b1' "
                                           r"are live at the same step and overlap"):
        verify_plan(bs, 64, 16, "m")


def test_verifier_rejects_buffer_past_the_arena():
    bs = buffers((32, 0, 1))
    bs[0].offset = 16
    with pytest.raises(TinyAotError, match=r"buffer 'b0' ends at 48, past the 32-byte arena"):
        verify_plan(bs, 32, 16, "m")


def test_verifier_rejects_misaligned_offset():
    bs = buffers((32, 0, 1))
    bs[0].offset = 4
    with pytest.raises(TinyAotError, match=r"buffer 'b0' has offset 4, not a multiple of 16"):
        verify_plan(bs, 64, 16, "m")


def test_disjoint_lifetimes_may_share_bytes():
    bs = buffers((32, 0, 0), (32, 1, 1))
    assert plan(bs, 16) == 32
    assert bs[0].offset == bs[1].offset == 0


def test_exact_search_finds_what_greedy_by_size_misses():
    """The FC-stack shape: a wide input, narrow middle layers, a wide output. Largest-first
    best fit strands a gap; the exact search reaches the bound and says so."""
    bs = buffers((640, 0, 0), (128, 0, 1), (128, 1, 2), (8, 2, 3), (128, 3, 4), (640, 4, 4))
    outcome = plan_outcome(bs, 16)
    verify_plan(bs, outcome.arena_size, 16, "m")
    assert outcome.arena_size == outcome.lower_bound == 768
    assert outcome.proven_optimal


def test_exhausted_search_proves_that_nothing_smaller_exists():
    # Three buffers live together: 48 bytes is the least; asked for less, the search says none exists.
    bs = buffers((16, 0, 0), (16, 0, 0), (16, 0, 0))
    found, complete = branch_and_bound(bs, 16, best_size=48, target=0)
    assert found is None and complete


def test_search_out_of_budget_claims_no_proof():
    bs = buffers((16, 0, 0), (16, 0, 0), (16, 0, 0))
    found, complete = branch_and_bound(bs, 16, best_size=48, target=0, node_budget=2)
    assert found is None and not complete
    note = PlanOutcome(64, 48, "greedy by size, best fit", False).note()
    assert note == ("planned by greedy by size, best fit: arena is 64 bytes, 16 above the lower bound 48; "
                    "not proven optimal (the exact search ran out of its node budget)")


@pytest.mark.parametrize("name,inputs_in_arena,arena,classic", [
    ("mobilenet_v1_025_96x96x3", True, 36880, 55296),  # greedy by size alone: 64512 without overlaps
    ("fc_autoencoder", False, 256, 256),               # greedy by size alone: 272
    ("ds_cnn_kws", False, 10048, 16000),               # 8000 + 4 x (384 + 128): the chain of overlaps
    # Every greedy order: 92160 and 184320 (a chain of overlaps climbing); the time sweep steps down.
    ("mobilenet_v1_025_96x96x3_16x8", True, 73744, 110592),
    ("mobilenet_v1_025_96x96x3_float32", True, 147488, 221184),
])
def test_planner_reaches_the_bound_where_greedy_by_size_did_not(own_model, name, inputs_in_arena, arena, classic):
    model = compile_model(own_model(name), Options("m", inputs_in_arena=inputs_in_arena))
    assert model.arena_size == model.plan.overlap_bound == arena
    assert model.lower_bound == classic
    assert model.plan.proven_optimal and not model.notes


def pair(out, inp, limit):
    """Declares that out may start at most `limit` bytes above inp, sharing bytes."""
    for b in (out, inp):
        b.tensor = id(b) if b.tensor is None else b.tensor
    out.overlaps[inp.tensor] = limit


def test_output_overlaps_its_input_as_far_as_declared():
    # in (steps 0-1) -> out (1-2): out may start up to 32 bytes below in.
    bs = buffers((256, 0, 1), (256, 1, 2))
    pair(bs[1], bs[0], -32)
    outcome = plan_outcome(bs, 16)
    verify_plan(bs, outcome.arena_size, 16, "m")
    assert outcome.lower_bound == 512 and outcome.overlap_bound == outcome.arena_size == 256 + 32
    assert bs[1].offset - bs[0].offset == -32 and outcome.proven_optimal


def test_no_declaration_no_overlap_and_declarations_are_per_pair():
    bs = buffers((256, 0, 1), (256, 1, 2), (64, 1, 1))
    pair(bs[1], bs[0], 0)  # the scratch (b2), live at step 1 too, may overlap neither
    outcome = plan_outcome(bs, 16)
    verify_plan(bs, outcome.arena_size, 16, "m")
    assert outcome.arena_size == outcome.overlap_bound == 256 + 64


def test_verifier_rejects_an_overlap_past_the_declared_limit():
    bs = buffers((256, 0, 1), (256, 1, 2))
    pair(bs[1], bs[0], -32)
    bs[0].offset, bs[1].offset = 32, 16  # out starts 16 below in: 16 more than allowed
    with pytest.raises(TinyAotError, match=r"memory plan is invalid: buffer 'b1' overlaps 'b0' starting 16 bytes "
                                           r"below it; its kernel allows sharing bytes only starting at least 32 "
                                           r"bytes below it"):
        verify_plan(bs, 288, 16, "m")
    bs[0].offset, bs[1].offset = 0, 32  # above its input: never declared
    with pytest.raises(TinyAotError, match=r"buffer 'b1' overlaps 'b0' starting 32 bytes above it; its kernel "):
        verify_plan(bs, 288, 16, "m")


def test_verifier_rejects_an_overlap_nobody_declared():
    bs = buffers((256, 0, 1), (256, 1, 2))
    pair(bs[1], bs[0], -32)
    bs[2:] = buffers((16, 1, 2))
    bs[2].name = "s"
    bs[0].offset, bs[1].offset, bs[2].offset = 32, 0, 0  # s sits inside b1
    with pytest.raises(TinyAotError, match=r"buffers 'b1' and 's' are live at the same step and overlap"):
        verify_plan(bs, 288, 16, "m")


def test_overlap_bound_follows_a_chain_of_overlaps():
    """Each output may start at most 64 bytes below its input: four 1024-byte buffers in a
    chain need 1024 + 3 x 64 (no pair fits side by side below 2048), which the search and
    the greedy orders reach."""
    bs = buffers((1024, 0, 1), (1024, 1, 2), (1024, 2, 3), (1024, 3, 4))
    for out, inp in zip(bs[1:], bs):
        pair(out, inp, -64)
    outcome = plan_outcome(bs, 16)
    verify_plan(bs, outcome.arena_size, 16, "m")
    assert outcome.overlap_bound == outcome.arena_size == 1024 + 3 * 64 and outcome.lower_bound == 2048
    found, complete = branch_and_bound(bs, 16, best_size=2048, target=0)
    assert complete and max(o + 1024 for o in found) == 1024 + 3 * 64


def test_time_sweep_steps_down_where_every_greedy_order_climbs():
    """b1 may start 32 bytes below b0, b2 at or below b1, b3 32 bytes below b2. Taken in
    any one order, each input rests on its output and the offsets climb to 80 bytes; placing
    b1 clear below b0 (which fits: b0 is 16 bytes) reaches the bound, 64."""
    bs = buffers((16, 0, 1), (64, 1, 2), (16, 2, 3), (48, 3, 4))
    for out, inp, limit in ((1, 0, -32), (2, 1, 0), (3, 2, -32)):
        pair(bs[out], bs[inp], limit)
    assert min(place(order(bs), 16, fit) for order in ORDERS.values() for fit in FITS) == 80
    assert sweep_place(bs, 16) == overlap_bound(bs, 16) == 64
    verify_plan(bs, 64, 16, "m")
    outcome = plan_outcome(bs, 16)
    assert (outcome.arena_size, outcome.strategy, outcome.proven_optimal) == (64, "time sweep", True)


def test_plan_picture_draws_every_buffer_and_the_bound(own_model):
    from tinyaot.planner.svg import plan_svg
    model = compile_model(own_model("fc_autoencoder"), Options("fc"))
    svg = plan_svg(model)
    assert svg == plan_svg(compile_model(own_model("fc_autoencoder"), Options("fc")))  # deterministic
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and svg.rstrip().endswith("</svg>")
    for b in model.buffers:
        assert f"<title>{b.name}: {b.size} bytes at offset {b.offset}, steps {b.first}-{b.last}</title>" in svg
    assert svg.count("<title>") == len(model.buffers)
    assert "LB 256</text>" in svg and "fc: arena 256 bytes, lower bound 256 bytes</text>" in svg
    assert "planned by time sweep</text>" in svg and "overlap-aware" not in svg


def test_plan_picture_shows_overlaps_and_both_bounds(own_model):
    from tinyaot.planner.svg import plan_svg
    svg = plan_svg(compile_model(own_model("ds_cnn_kws"), Options("kws")))
    assert "kws: arena 10048 bytes, lower bound 16000 bytes, overlap-aware 10048 bytes</text>" in svg
    assert "LB 16000</text>" in svg and "overlap-aware bound 10048</text>" in svg
    # conv3 (8000 bytes) -> dw6, 384 bytes lower: they share 7616 bytes at step 1.
    assert ("<title>dw6 written over conv3: 7616 bytes shared at step 1 (starts 384 bytes below it; its kernel "
            "allows at least 384 bytes below it)</title>") in svg
    assert svg.count('fill="url(#shared)"') == 9  # 4 depthwise, 4 pointwise, the average pool


def test_cli_writes_the_plan_picture(own_model, tmp_path):
    import subprocess
    import sys
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "tinyaot", "compile", str(own_model("ds_cnn_kws")), "--name", "kws",
                             "--out", str(out), "--plan-svg"], capture_output=True, text=True,
                            env={"PYTHONPATH": str(Path(__file__).parents[2] / "python")})
    assert result.returncode == 0, result.stderr
    assert f"plan picture: {out / 'kws.plan.svg'}" in result.stdout
    plan = json.loads((out / "kws.json").read_text())["plan"]
    assert (out / "kws.plan.svg").read_text().count(" bytes at offset ") == len(plan)


def test_cmsis_nn_kernels_declare_overlaps_and_pointwise_on_im2col_where_cheap(own_model):
    """Cortex-M0 runs CMSIS-NN's plain C: the DS-CNN's pointwise convolutions keep the portable
    kernel, or with --cmsis-nn-1x1 im2col go on arm_convolve_s8; both outputs may overlap their
    inputs (arm_convolve_1x1_s8_fast's may not), and the arena shrinks. Cortex-M4 runs its DSP paths, which declare the same overlaps, but there
    arm_convolve_s8 costs 9% more than the 1x1 kernel: that stays, and a note gives the arena
    --cmsis-nn-1x1 im2col would."""
    def kernels(model):
        return {c.args[-1] for _, calls in model.calls for c in calls if c.kernel == "tinyaot_cmsis_conv_s8"}

    dsp = compile_model(own_model("ds_cnn_kws"), Options("m", kernels="cmsis-nn", cpu="cortex-m4"))
    assert sum(bool(b.overlaps) for b in dsp.buffers) == 5  # 4 depthwise, the average pool
    assert dsp.arena_size == dsp.lower_bound == dsp.plan.overlap_bound == 16000
    assert "arm_convolve_1x1_s8_fast" in kernels(dsp)
    assert ("arena 16000 bytes: arm_convolve_1x1_s8[_fast]'s output cannot overlap its input; --cmsis-nn-1x1 "
            "im2col (arm_convolve_s8, whose output may) gives 9536 bytes for about 9% more instructions on this "
            "DSP core") in dsp.notes
    dsp_im2col = compile_model(own_model("ds_cnn_kws"), Options("m", kernels="cmsis-nn", cpu="cortex-m4",
                                                                cmsis_nn_1x1="im2col"))
    assert sum(bool(b.overlaps) for b in dsp_im2col.buffers) == 9 and dsp_im2col.arena_size == 9536
    scalar = compile_model(own_model("ds_cnn_kws"), Options("m", kernels="cmsis-nn", cpu="cortex-m0",
                                                            cmsis_nn_1x1="im2col"))
    assert sum(bool(b.overlaps) for b in scalar.buffers) == 9  # 4 depthwise, 4 pointwise, the average pool
    assert scalar.arena_size == scalar.plan.overlap_bound == 9536
    assert kernels(scalar) == {"tinyaot_cmsis_convolve_s8"}
    # auto: the portable 1x1 kernel, faster than CMSIS-NN's plain C, its output over its input too (and
    # the first convolution, of one input channel, on the portable kernel whatever the choice)
    auto = compile_model(own_model("ds_cnn_kws"), Options("m", kernels="cmsis-nn", cpu="cortex-m0"))
    assert sum(bool(b.overlaps) for b in auto.buffers) == 9 and auto.arena_size == 10048
    assert [k for k, (backend, reason) in auto.backends.items() if backend == "portable"] == [0, 2, 4, 6, 8]
    assert auto.backends[0][1].startswith("tinyaot_depthwise_mult_s8 (one input channel) is faster than CMSIS-NN")
    assert auto.backends[2][1].startswith("tinyaot_conv2d_1x1_s8 is faster than CMSIS-NN's plain C")
    wrapper = compile_model(own_model("ds_cnn_kws"), Options("m", kernels="cmsis-nn", cpu="cortex-m0",
                                                             cmsis_nn_1x1="wrapper"))
    assert wrapper.arena_size == 16000 and "arm_convolve_1x1_s8_fast" in kernels(wrapper)


def test_input_also_read_through_an_undeclared_view_keeps_its_bytes(tmp_path):
    """ADD(hv, h) where hv is a view of h: hv has the output's shape (declared), h does not
    (broadcast, undeclared), so the output may not overlap their shared storage."""
    import numpy as np
    from tinyaot.modelbuilder import ModelBuilder
    mb = ModelBuilder()
    q = dict(scale=0.1, zero_point=0)
    x = mb.input("x", "int8", [2, 2], **q)
    h = mb.tensor("h", "int8", [2, 2], **q)
    mb.op("RELU", [x], [h])
    hv = mb.tensor("hv", "int8", [1, 2, 2], **q)
    mb.op("RESHAPE", [h, mb.const("s", np.array([1, 2, 2], np.int32))], [hv], "ReshapeOptions", new_shape=[1, 2, 2])
    y = mb.tensor("y", "int8", [1, 2, 2], **q)
    mb.op("ADD", [hv, h], [y], "AddOptions")
    z = mb.tensor("z", "int8", [1, 2, 2], **q)
    mb.op("RELU", [y], [z])
    mb.output(z)
    path = tmp_path / "m.tflite"
    path.write_bytes(mb.build())
    model = compile_model(path, Options("m"))
    (add_call,), = [calls for op, calls in model.calls if op.type == "ADD"]
    assert [t for t, _, _ in add_call.overlaps] == [hv]  # declared for the view only
    assert not any(b.overlaps for b in model.buffers)
