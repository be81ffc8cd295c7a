"""tinyaot profile: per-operator figures from the generated run()'s opt-in hook."""

import pytest

from tinyaot import harness
from tinyaot.measure import profile


@pytest.fixture(scope="module")
def mini_mobilenet(tmp_path_factory):
    from tinyaot.testing import catalog
    return catalog.build("mini_mobilenet", tmp_path_factory.mktemp("profile"))


def test_steps_add_up_to_the_whole_run(mini_mobilenet, boards):
    for board in boards:
        p = profile.profile_model(mini_mobilenet, "mini_mobilenet", board)
        assert p["bit_exact"] and p["unit"] == "instructions"
        steps = p["steps"]
        assert [r["step"] for r in steps] == list(range(len(steps)))
        assert all(r["instructions"] > 0 for r in steps if r["kernels"])
        # Everything is accounted for: steps, one hook call per step and one after, and the
        # few instructions of run() around the operators (argument checks).
        assert 0 < p["hook"] < 100
        assert 0 <= p["outside_operators"] < 200, p
        assert sum(r["instructions"] for r in steps) + p["hook"] * (len(steps) + 1) + p["outside_operators"] \
            == p["total"]
        for r in steps:
            if r["type"] in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"):
                assert r["macs"] > 0 and r["instructions_per_mac"] == round(r["instructions"] / r["macs"], 2)


def test_profile_adds_up_to_the_plain_run(mini_mobilenet, boards):
    """The hook changes run() alone (each step is a function of its own, never inlined), so the
    plain firmware's whole run equals the profile's steps plus what run() does outside them,
    within one hook call's cost; without TINYAOT_PROFILE_HOOK the firmware has no figures."""
    for board in boards:
        p = profile.profile_model(mini_mobilenet, "mini_mobilenet", board)
        plain = harness.build_firmware(board, model=mini_mobilenet, name="mini_mobilenet")
        with harness.open_device(plain) as dev:
            mismatches, figures = dev.compare_with_tflm(mini_mobilenet, calls=1)
            assert dev.profile().cycles == []  # a firmware without the profile has no figures
        assert not mismatches
        profiled = sum(r["instructions"] for r in p["steps"]) + p["outside_operators"]
        assert abs(figures[0].instructions - profiled) <= p["hook"], (board, figures[0].instructions, p)


def test_command_prints_the_table(mini_mobilenet, boards, capsys):
    assert profile.main([str(mini_mobilenet), "--board", boards[0]]) == 0
    out = capsys.readouterr().out
    assert f"mini_mobilenet on {boards[0]} (portable kernels):" in out and "bit-exact with TFLM" in out
    assert "tinyaot_depthwise_conv2d_s8" in out and "per MAC" in out
    assert "profile hook:" in out and "outside the operators" in out
