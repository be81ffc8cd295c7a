"""tinyaot_requantize (one pass on magnitudes, 32-bit multiplies on cores without a
long multiply: three where they settle the result, else four) is bit-exact with TFLite's
two-step reference, on both code paths, under ASan/UBSan: every shift x edge values
crossed, rounding ties, 2 million random cases; so are the per-tensor fold of both roundings
and the output zero point into one 64-bit multiply-accumulate (tinyaot_tensor_requant_of)
and the per-channel one (tinyaot_channel_requant_folds); so is int8 and int16 ADD's input
scaling in 32-bit arithmetic (tinyaot_add_scale_input), for every input value; so is the int8
LSTM's saturating gate rescale (tinyaot_lstm_s8_rescale) over every accumulator its clamp bounds."""

import shutil

import pytest

from sanitized import run_c_check


@pytest.mark.skipif(shutil.which("cc") is None, reason="no host C compiler")
@pytest.mark.parametrize("long_multiply", [0, 1], ids=["32-bit multiplies", "64-bit product"])
def test_requantize_matches_the_two_step_reference(tmp_path, long_multiply):
    # -Wno-unused-function: the check includes tinyaot_add.h for its input scaling alone.
    out = run_c_check("requantize_check.c", tmp_path / "requantize_check", 2000000, long_multiply,
                      flags=["-Wno-unused-function"])
    # Every case whose multiplier is >= 0 and right shift 1..23 also goes through the
    # per-tensor fold, at six output zero points, and right shift 2..24 through the
    # per-channel fold at the five int8 ones; without a long multiply neither applies.
    folded, channel_folded = (4469622, 3725520) if long_multiply else (0, 0)
    assert out == (f"2825903 cases, all equal; {folded} through the per-tensor fold, "
                   f"{channel_folded} through the per-channel fold; 27674320 ADD inputs; "
                   "22498370 LSTM rescales")
