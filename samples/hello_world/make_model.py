#!/usr/bin/env python3
"""Build hello_world's model: a tiny int8 MLP, 4 -> 8 (ReLU) -> 3.

Weights are fixed (no training, no randomness) so the committed
hello_world.tflite is reproducible byte for byte:

    python3 make_model.py            # writes hello_world.tflite next to it
    python3 make_model.py --check    # also prints TFLM's outputs for the
                                     # sample's inputs (what sample.yaml expects)

Written with tinyaot's model builder (python/tinyaot/modelbuilder.py, a thin
layer over the `tflite` package's flatbuffer builder).
"""
import argparse
import os

import sys

import numpy as np
from tflite.ActivationFunctionType import ActivationFunctionType

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from tinyaot.modelbuilder import ModelBuilder  # noqa: E402
MODEL_PATH = os.path.join(HERE, "hello_world.tflite")

# Quantization of the activations: (scale, zero_point).
IN_Q = (0.05, -3)
HID_Q = (0.04, -128)   # ReLU output: all of int8's range is non-negative reals
OUT_Q = (0.012, -7)
W1_SCALE = 0.01
W2_SCALE = 0.008

W1 = np.array([
    [12, -7, 33, 5],
    [-20, 15, 9, -4],
    [7, 7, -30, 18],
    [41, -2, 0, -13],
    [-6, -25, 14, 22],
    [3, 19, -11, -8],
    [-35, 10, 6, 27],
    [16, -9, -17, 2],
], dtype=np.int8)
B1 = np.array([120, -340, 55, 0, 410, -75, 230, -15], dtype=np.int32)
W2 = np.array([
    [25, -14, 8, 31, -19, 6, 11, -27],
    [-9, 22, -16, 4, 28, -12, 17, 3],
    [14, 5, 29, -21, -7, 19, -30, 10],
], dtype=np.int8)
B2 = np.array([-260, 140, 75], dtype=np.int32)

# Inputs the sample feeds the model (real values 0.05 * (q + 3)).
SAMPLE_INPUTS = [
    [10, -20, 30, 5],
    [-100, 45, 7, 90],
    [127, -128, 0, 64],
]


def build():
    mb = ModelBuilder()
    x = mb.input("input", "int8", [1, 4], scale=IN_Q[0], zero_point=IN_Q[1])
    w1 = mb.const("fc1/weights", W1, scale=W1_SCALE)
    b1 = mb.const("fc1/bias", B1, scale=IN_Q[0] * W1_SCALE)
    hidden = mb.tensor("hidden", "int8", [1, 8], scale=HID_Q[0], zero_point=HID_Q[1])
    mb.op("FULLY_CONNECTED", [x, w1, b1], [hidden], "FullyConnectedOptions",
          fused_activation_function=ActivationFunctionType.RELU)
    w2 = mb.const("fc2/weights", W2, scale=W2_SCALE)
    b2 = mb.const("fc2/bias", B2, scale=HID_Q[0] * W2_SCALE)
    y = mb.output(mb.tensor("output", "int8", [1, 3], scale=OUT_Q[0], zero_point=OUT_Q[1]))
    mb.op("FULLY_CONNECTED", [hidden, w2, b2], [y], "FullyConnectedOptions",
          fused_activation_function=ActivationFunctionType.NONE)
    return mb.build()


def tflm_outputs(model, inputs):
    """Reference outputs from TensorFlow Lite Micro for each input row."""
    from tflite_micro.python.tflite_micro import runtime
    interp = runtime.Interpreter.from_bytes(model)
    outs = []
    for row in inputs:
        interp.set_input(np.array([row], dtype=np.int8), 0)
        interp.invoke()
        outs.append(interp.get_output(0).flatten().tolist())
    return outs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=MODEL_PATH)
    ap.add_argument("--check", action="store_true",
                    help="print TFLM outputs for the sample inputs")
    args = ap.parse_args()
    model = build()
    with open(args.out, "wb") as f:
        f.write(model)
    print(f"wrote {args.out} ({len(model)} bytes)")
    if args.check:
        for i, o in zip(SAMPLE_INPUTS, tflm_outputs(model, SAMPLE_INPUTS)):
            print(f"in {i} -> out {o}")


if __name__ == "__main__":
    main()
