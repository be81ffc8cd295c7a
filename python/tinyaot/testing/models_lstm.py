"""Test models: UNIDIRECTIONAL_SEQUENCE_LSTM, int8 (int16 cell state) and their float32
and 16x8 forms, in the shapes real models use (issue 24).

All are stateful (the hidden and cell states are variable tensors), so the host tests
run them call after call without a reset: the states' persistence is checked too.
Each int8 LSTM carries the five zero-size intermediate tensors the converter attaches.
"""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder, random_int8
from tinyaot.testing.catalog import CATALOG, test_model
from tinyaot.testing.variants import variant_of

INTERMEDIATES = (("input_to_input_intermediate", "int16", 2 ** -12),
                 ("input_to_forget_intermediate", "int16", 2 ** -12), ("input_to_cell_intermediate", "int16", 2 ** -12), ("input_to_output_intermediate", "int16", 2 ** -12),
                 ("effective_hidden_scale_intermediate", "int8", 0.007))


def lstm(mb, rng, x, in_scale, shape, units, out_scale=1 / 128, out_zp=0, time_major=False, cell_clip=0.0,
         cell_scale=2 ** -11, w_scale=0.004, recurrent_reach=127):
    """Adds an int8 LSTM layer reading x (shape: [batches, steps, features], or [steps, batches,
    features] time major); returns its output tensor. recurrent_reach bounds the recurrent
    weights' int8 values (CMSIS-NN's LSTM needs the recurrent terms to stay in int16)."""
    n = len(mb.tensors)
    batches = shape[1] if time_major else shape[0]
    features = shape[2]
    w_in = [mb.const(f"lstm{n}_w_in{g}", random_int8(rng, (units, features)), scale=np.float32(w_scale))
            for g in range(4)]
    w_rec = [mb.const(f"lstm{n}_w_rec{g}", random_int8(rng, (units, units), -recurrent_reach, recurrent_reach),
                      scale=np.float32(w_scale * 1.5))
             for g in range(4)]
    bias_scale = np.float32(np.float32(in_scale) * np.float32(w_scale))
    reach = int(1.0 / float(bias_scale))  # real biases in [-1, 1], the forget gate's shifted up by 1
    biases = [mb.const(f"lstm{n}_b{g}", (rng.integers(-reach, reach + 1, size=units) + (reach if g == 1 else 0))
                       .astype(np.int32), scale=bias_scale) for g in range(4)]
    hidden = mb.tensor(f"lstm{n}_hidden", "int8", [batches, units], scale=np.float32(out_scale), zero_point=out_zp,
                       variable=True)
    cell = mb.tensor(f"lstm{n}_cell", "int16", [batches, units], scale=np.float32(cell_scale), variable=True)
    y = mb.tensor(f"lstm{n}_out", "int8", [shape[0], shape[1], units], scale=np.float32(out_scale), zero_point=out_zp)
    kept = [mb.tensor(f"lstm{n}_{name}", dtype, [0], scale=np.float32(scale)) for name, dtype, scale in INTERMEDIATES]
    mb.op("UNIDIRECTIONAL_SEQUENCE_LSTM",
          [x, *w_in, *w_rec, -1, -1, -1, *biases, -1, -1, hidden, cell, -1, -1, -1, -1], [y],
          "UnidirectionalSequenceLSTMOptions", intermediates=kept, fused_activation_function=4,
          cell_clip=cell_clip, time_major=time_major)
    return y


# Their firmware runs (two calls carrying the states, reset, two more; every model, form,
# board and backend with TINYAOT_TARGET_ALL_BOARDS=1): tests/target/test_models_on_target.py.
@test_model("lstm_seq28", targets=False)
def lstm_seq28():
    """A 28-step sequence of 28 features (MNIST rows) into 20 units, batch major."""
    rng = np.random.default_rng(60)
    mb = ModelBuilder()
    in_scale = np.float32(0.02)
    x = mb.input("rows", "int8", [1, 28, 28], scale=in_scale, zero_point=-3)
    mb.output(lstm(mb, rng, x, in_scale, [1, 28, 28], 20))
    return mb.build()


@test_model("lstm_seq28_units100", targets=False)
def lstm_seq28_units100():
    """28 steps of 28 features into 100 units, batch major; recurrent weights within +-16 (real
    values within +-0.1), small enough that no gate's recurrent term can leave int16, so the
    cmsis-nn backend runs it on CMSIS-NN's LSTM step."""
    rng = np.random.default_rng(63)
    mb = ModelBuilder()
    in_scale = np.float32(0.02)
    x = mb.input("rows", "int8", [1, 28, 28], scale=in_scale, zero_point=-3)
    mb.output(lstm(mb, rng, x, in_scale, [1, 28, 28], 100, out_zp=-2, recurrent_reach=16))
    return mb.build()


@test_model("lstm_audio_fc", targets=False)
def lstm_audio_fc():
    """An audio frame of 40 features per call into a 32-unit LSTM (cell clip 3, hidden zero
    point -1: its state starts and resets at -1) and a FULLY_CONNECTED classifier."""
    rng = np.random.default_rng(61)
    mb = ModelBuilder()
    in_scale = np.float32(0.02)
    x = mb.input("frame", "int8", [1, 1, 40], scale=in_scale, zero_point=5)
    out_scale = np.float32(2 / 255)
    h = lstm(mb, rng, x, in_scale, [1, 1, 40], 32, out_scale=out_scale, out_zp=-1, cell_clip=3.0)
    flat = mb.tensor("flat", "int8", [1, 32], scale=out_scale, zero_point=-1)
    mb.op("RESHAPE", [h], [flat])
    w = mb.const("fc_w", random_int8(rng, (6, 32)), scale=np.float32(0.01))
    b = mb.const("fc_b", rng.integers(-300, 301, size=6).astype(np.int32),
                 scale=np.float32(out_scale * np.float32(0.01)))
    y = mb.tensor("scores", "int8", [1, 6], scale=np.float32(0.02), zero_point=0)
    mb.op("FULLY_CONNECTED", [flat, w, b], [y], "FullyConnectedOptions")
    mb.output(y)
    return mb.build()


@test_model("lstm_two_layer_time_major", targets=False)
def lstm_two_layer_time_major():
    """Two stacked LSTMs, time major with 2 steps of 2 batches (a noise-suppression shape);
    the second reads the first's output at its scale; cell scale 2^-15 (tanh rescaled right)."""
    rng = np.random.default_rng(62)
    mb = ModelBuilder()
    in_scale = np.float32(0.02)
    x = mb.input("bands", "int8", [2, 2, 16], scale=in_scale, zero_point=0)
    h = lstm(mb, rng, x, in_scale, [2, 2, 16], 24, time_major=True)
    y = lstm(mb, rng, h, np.float32(1 / 128), [2, 2, 24], 12, out_zp=3, time_major=True, cell_scale=2 ** -15,
             w_scale=0.02)
    mb.output(y)
    return mb.build()


for _name in ("lstm_seq28", "lstm_seq28_units100", "lstm_audio_fc", "lstm_two_layer_time_major"):
    for _form in ("float32", "16x8"):
        test_model(f"{_name}_{_form}", targets=False, form=True)(variant_of(CATALOG[_name][0], _form))
