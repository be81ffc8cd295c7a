#!/usr/bin/env python3
"""Build hello_world's model: a tiny int8 MLP, 4 -> 8 (ReLU) -> 3.

Weights are fixed (no training, no randomness) so the committed
hello_world.tflite is reproducible byte for byte:

    python3 make_model.py            # writes hello_world.tflite next to it
    python3 make_model.py --check    # also prints TFLM's outputs for the
                                     # sample's inputs (what sample.yaml expects)

Written against the `tflite` package's flatbuffer builder functions directly,
so it needs nothing from tinyaot itself.
"""
import argparse
import os

import flatbuffers
import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType
from tflite.ActivationFunctionType import ActivationFunctionType

HERE = os.path.dirname(os.path.abspath(__file__))
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


def _vec(b, start, items, kind):
    start(b, len(items))
    for x in reversed(items):
        {"i32": b.PrependInt32, "i64": b.PrependInt64,
         "f32": b.PrependFloat32, "u8": b.PrependUint8,
         "off": b.PrependUOffsetTRelative}[kind](x)
    return b.EndVector()


def _quant(b, scale, zp):
    sc = _vec(b, tflite.QuantizationParametersStartScaleVector, [scale], "f32")
    z = _vec(b, tflite.QuantizationParametersStartZeroPointVector, [zp], "i64")
    tflite.QuantizationParametersStart(b)
    tflite.QuantizationParametersAddScale(b, sc)
    tflite.QuantizationParametersAddZeroPoint(b, z)
    return tflite.QuantizationParametersEnd(b)


def _tensor(b, name, shape, ttype, buf, q):
    n = b.CreateString(name)
    s = _vec(b, tflite.TensorStartShapeVector, list(shape), "i32")
    qq = _quant(b, *q)
    tflite.TensorStart(b)
    tflite.TensorAddShape(b, s)
    tflite.TensorAddType(b, ttype)
    tflite.TensorAddBuffer(b, buf)
    tflite.TensorAddName(b, n)
    tflite.TensorAddQuantization(b, qq)
    return tflite.TensorEnd(b)


def _buffer(b, data):
    if data is None:
        tflite.BufferStart(b)
        return tflite.BufferEnd(b)
    raw = data.tobytes()
    b.StartVector(1, len(raw), 16)  # 16-byte aligned payload
    for x in reversed(raw):
        b.PrependUint8(x)
    d = b.EndVector()
    tflite.BufferStart(b)
    tflite.BufferAddData(b, d)
    return tflite.BufferEnd(b)


def _fc(b, inputs, outputs, act):
    tflite.FullyConnectedOptionsStart(b)
    tflite.FullyConnectedOptionsAddFusedActivationFunction(b, act)
    opts = tflite.FullyConnectedOptionsEnd(b)
    i = _vec(b, tflite.OperatorStartInputsVector, inputs, "i32")
    o = _vec(b, tflite.OperatorStartOutputsVector, outputs, "i32")
    tflite.OperatorStart(b)
    tflite.OperatorAddOpcodeIndex(b, 0)
    tflite.OperatorAddInputs(b, i)
    tflite.OperatorAddOutputs(b, o)
    tflite.OperatorAddBuiltinOptionsType(b, BuiltinOptions.FullyConnectedOptions)
    tflite.OperatorAddBuiltinOptions(b, opts)
    return tflite.OperatorEnd(b)


def build():
    b = flatbuffers.Builder(1024)
    # Buffer 0 is the empty sentinel TFLite expects; activations use it too.
    bufs = [_buffer(b, None), _buffer(b, W1), _buffer(b, B1),
            _buffer(b, W2), _buffer(b, B2)]
    tensors = [
        _tensor(b, "input", [1, 4], TensorType.INT8, 0, IN_Q),
        _tensor(b, "fc1/weights", [8, 4], TensorType.INT8, 1, (W1_SCALE, 0)),
        _tensor(b, "fc1/bias", [8], TensorType.INT32, 2, (IN_Q[0] * W1_SCALE, 0)),
        _tensor(b, "hidden", [1, 8], TensorType.INT8, 0, HID_Q),
        _tensor(b, "fc2/weights", [3, 8], TensorType.INT8, 3, (W2_SCALE, 0)),
        _tensor(b, "fc2/bias", [3], TensorType.INT32, 4, (HID_Q[0] * W2_SCALE, 0)),
        _tensor(b, "output", [1, 3], TensorType.INT8, 0, OUT_Q),
    ]
    ops = [_fc(b, [0, 1, 2], [3], ActivationFunctionType.RELU),
           _fc(b, [3, 4, 5], [6], ActivationFunctionType.NONE)]

    t = _vec(b, tflite.SubGraphStartTensorsVector, tensors, "off")
    si = _vec(b, tflite.SubGraphStartInputsVector, [0], "i32")
    so = _vec(b, tflite.SubGraphStartOutputsVector, [6], "i32")
    o = _vec(b, tflite.SubGraphStartOperatorsVector, ops, "off")
    name = b.CreateString("main")
    tflite.SubGraphStart(b)
    tflite.SubGraphAddTensors(b, t)
    tflite.SubGraphAddInputs(b, si)
    tflite.SubGraphAddOutputs(b, so)
    tflite.SubGraphAddOperators(b, o)
    tflite.SubGraphAddName(b, name)
    sg = tflite.SubGraphEnd(b)

    tflite.OperatorCodeStart(b)
    tflite.OperatorCodeAddDeprecatedBuiltinCode(b, BuiltinOperator.FULLY_CONNECTED)
    tflite.OperatorCodeAddBuiltinCode(b, BuiltinOperator.FULLY_CONNECTED)
    tflite.OperatorCodeAddVersion(b, 1)
    oc = tflite.OperatorCodeEnd(b)

    ocs = _vec(b, tflite.ModelStartOperatorCodesVector, [oc], "off")
    sgs = _vec(b, tflite.ModelStartSubgraphsVector, [sg], "off")
    bvec = _vec(b, tflite.ModelStartBuffersVector, bufs, "off")
    desc = b.CreateString("tinyaot hello_world: int8 MLP 4-8-3")
    tflite.ModelStart(b)
    tflite.ModelAddVersion(b, 3)
    tflite.ModelAddOperatorCodes(b, ocs)
    tflite.ModelAddSubgraphs(b, sgs)
    tflite.ModelAddBuffers(b, bvec)
    tflite.ModelAddDescription(b, desc)
    b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())


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
