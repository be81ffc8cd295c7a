"""UNIDIRECTIONAL_SEQUENCE_LSTM on CMSIS-NN (int8 and 16x8): arm_nn_lstm_step_s8 /
_s16, step by step (tinyaot_cmsis_lstm_s8 / _s16 in tinyaot_cmsis_nn.h, which keep
the variable states as TFLM does), with the tables the portable lowering made.

CMSIS-NN's step is TFLM's integer arithmetic except for two saturations TFLM does and
it does not: a gate's recurrent term and the input gate x cell gate product are added
to int16 values without being saturated to int16 first. Where the weights and scales
let either leave int16 (bounds computed here, exactly), and where CMSIS-NN's DSP and
MVE paths would sum more int16 x int8 products in 32 bits than fit, or read an int64
bias as int32, the portable kernel stays, with the reason.
"""

import numpy as np

from tinyaot.cores import CPU_ARCH
from tinyaot.ops.activation_s16 import checked_log2
from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, ScratchRef, TensorList
from tinyaot.ops.lstm import INPUT_WEIGHTS, RECURRENT_WEIGHTS
from tinyaot.quant import multiply_by_quantized_multiplier

INT16 = (-32768, 32767)
# CMSIS-NN's MAX_COL_COUNT: its DSP and MVE s16 paths sum this many products in 32 bits.
S16_COLUMNS_IN_32_BITS = 512
KERNELS = {"tinyaot_lstm_s8": "tinyaot_cmsis_lstm_s8", "tinyaot_lstm_s8_small": "tinyaot_cmsis_lstm_s8",
           "tinyaot_lstm_s16": "tinyaot_cmsis_lstm_s16"}
# On cores without DSP (CMSIS-NN's plain C), tinyaot's LSTM kernels faster than CMSIS-NN's step
# (`tinyaot bench --calls 2`, instructions per inference, bit-exact), kept under --cmsis-nn-lstm auto;
# --cmsis-nn-lstm step takes CMSIS-NN's wherever it is exact.
PORTABLE_ON_SCALAR = {
    "tinyaot_lstm_s8": "tinyaot_lstm_s8 (gate pairs, one 64-bit multiply-accumulate for two products) is faster "
                       "than CMSIS-NN's plain C LSTM step on a core without DSP (lstm_seq28_units100 on a "
                       "Cortex-M3: 2.96 M instructions, arm_nn_lstm_step_s8 5.86 M; --cmsis-nn-lstm step takes "
                       "CMSIS-NN's)",
    "tinyaot_lstm_s8_small": "tinyaot_lstm_s8_small (the int8 weights as they are: --optimize size, and Armv6-M) is "
                             "faster than CMSIS-NN's plain C LSTM step on a core without DSP (lstm_seq28_units100: on a "
                             "Cortex-M3 5.04 M instructions, arm_nn_lstm_step_s8 5.86 M; on a Cortex-M0, where it "
                             "is also the speed kernel, 8.64 M against 12.00 M; --cmsis-nn-lstm step takes "
                             "CMSIS-NN's)",
    "tinyaot_lstm_s16": "tinyaot_lstm_s16 is faster than CMSIS-NN's plain C LSTM step on a core without DSP "
                        "(lstm_seq28_units100_16x8: on a Cortex-M3 4.85 M instructions, arm_nn_lstm_step_s16 "
                        "8.75 M; on a Cortex-M0 11.08 M against 83.09 M; --cmsis-nn-lstm step takes CMSIS-NN's)",
}


def _requantize_64(x, multiplier, shift):
    """TFLM's MultiplyByQuantizedMultiplier of an int64 (the 16x8 form's FC sums)."""
    reduced = (multiplier + (1 << 15)) >> 16 if multiplier < 0x7FFF0000 else 0x7FFF
    total_shift = 15 - shift
    return (x * reduced + (1 << (total_shift - 1))) >> total_shift


def _term_range(weights, low, high):
    """(min, max) over the rows of weights . v for v in [low, high] (exact, int64)."""
    w = weights.astype(np.int64)
    top = np.maximum(w * high, w * low).sum(axis=1)
    bottom = np.minimum(w * high, w * low).sum(axis=1)
    return int(bottom.min()), int(top.max())


def unsupported(ctx, portable, arch):
    """Why this (already validated) LSTM keeps its portable kernel under --kernels cmsis-nn, or None."""
    (call,) = portable
    if call.kernel not in KERNELS:
        return f"{ctx.input(0).dtype}: CMSIS-NN's LSTM is int8 and 16x8 only"
    fields, multipliers, shifts = call.args[0].fields, call.args[1].values, call.args[2].values
    if fields["cell_clip"] == 0:
        return ("the cell clip quantizes to 0: TFLM clips the cell state to 0, CMSIS-NN reads 0 as "
                "no clipping")
    input_mul = int(multipliers[9]), int(shifts[9])  # input gate x cell gate, into the cell state
    if (multiply_by_quantized_multiplier(32767 * 32767, *input_mul) > INT16[1]
            or multiply_by_quantized_multiplier(-32768 * 32767, *input_mul) < INT16[0]):
        return ("the input gate x cell gate product can leave int16 at this cell state scale: TFLM "
                "saturates it before adding, CMSIS-NN does not")
    s16 = call.kernel == "tinyaot_lstm_s16"
    hidden = ctx.input(18)
    low, high = (-32768, 32767) if s16 else (-128 - hidden.zero_point, 127 - hidden.zero_point)
    for g, (k, gate) in enumerate(zip((5, 6, 7, 8), ("input", "forget", "cell", "output"))):
        bottom, top = _term_range(ctx.input(k).data, low, high)
        requantize = _requantize_64 if s16 else multiply_by_quantized_multiplier
        m, s = int(multipliers[4 + g]), int(shifts[4 + g])
        if requantize(top, m, s) > INT16[1] or requantize(bottom, m, s) < INT16[0]:
            return (f"the {gate} gate's recurrent weights can take its recurrent term out of int16: TFLM "
                    "saturates it before adding, CMSIS-NN does not")
    if s16 and arch in ("dsp", "mve"):
        if max(fields["input_size"], fields["units"]) >= S16_COLUMNS_IN_32_BITS:
            return (f"16x8 with {max(fields['input_size'], fields['units'])} columns: CMSIS-NN's {arch} path "
                    f"sums {S16_COLUMNS_IN_32_BITS} int16 x int8 products in 32 bits, which can overflow")
        biases = call.args[3].values
        if arch == "mve" and (biases.min() < -2**31 or biases.max() >= 2**31):
            return "16x8 biases beyond int32: CMSIS-NN's MVE path reads them as int32"
    return None


def faster_portable(portable, cpu):
    """Why the portable LSTM kernel stays on this core as the faster one (PORTABLE_ON_SCALAR), or None."""
    (call,) = portable
    if CPU_ARCH[cpu] != "scalar":
        return None
    return PORTABLE_ON_SCALAR.get(call.kernel)


def lower(ctx, _arch, portable):
    """tinyaot_cmsis_lstm_s8 / _s16 with the portable call's tables and tensors."""
    (call,) = portable
    params, multipliers, shifts, bias = call.args[:4]
    f = params.fields
    fields = {name: f[name] for name in ("batches", "steps", "input_size", "units", "time_major")}
    fields.update(input_offset=-ctx.input(0).zero_point, output_offset=f["output_offset"],
                  cell_clip=max(f["cell_clip"], 0), cell_scale_power=checked_log2(ctx.input(19).scale)[0])
    if call.kernel == "tinyaot_lstm_s16":  # every gate's recurrent effective bias: zeros
        bias = ParamArray("int64_t", np.concatenate([bias.values, np.zeros(f["units"], np.int64)]))
    tensors = list(call.args[5:])
    if call.kernel == "tinyaot_lstm_s8":  # the model's weights, not the speed kernel's packed gate pairs
        tensors[1:3] = [TensorList(tuple(ctx.op.inputs[k] for k in ks), "int8_t")
                        for ks in (INPUT_WEIGHTS, RECURRENT_WEIGHTS)]
    gate_bytes = 2 * f["units"] * (f["batches"] if f["time_major"] else 1)
    return [KernelCall(KERNELS[call.kernel], [
        ParamStruct("struct tinyaot_cmsis_lstm_params", fields), multipliers, shifts, bias,
        ScratchRef(0, "int16_t"), ScratchRef(1, "int16_t"), *tensors,
    ], scratch=[gate_bytes, gate_bytes], header="tinyaot_cmsis_nn.h")]
