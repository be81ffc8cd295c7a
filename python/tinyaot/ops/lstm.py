"""UNIDIRECTIONAL_SEQUENCE_LSTM in the forms TFLM's kernel runs (micro/kernels/
unidirectional_sequence_lstm.cc, lstm_eval*.cc): float32; int8 activations with int8
weights, int32 biases and an int16 cell state; 16x8 (int16 activations, int8 weights,
int64 biases, int16 cell state); the integer forms with TFLM's integer gate arithmetic.

TFLM's kernel takes the plain LSTM only: all four gates (no CIFG), no peephole, no
projection, no layer norm; the hidden (output) state and the cell state are variable
tensors, kept between calls. The intermediate tensors the converter attaches carry
scales TFLM's kernel never reads: its gates work at the fixed scales 2^-12 (gate
inputs) and 2^-15 (gate outputs), so the constants below depend on the tensors only.
"""

import numpy as np

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, ScratchRef, TensorList, TensorRef
from tinyaot.ops.activation_s16 import checked_log2
from tinyaot.ops.lut import sigmoid_table
from tinyaot.ops.s16 import expect_rescale_defined
from tinyaot.quant import fold_input_offset, requantize_multiplier

INPUT = 0
# Per gate, in TFLite's order: input, forget, cell, output.
INPUT_WEIGHTS = (1, 2, 3, 4)
RECURRENT_WEIGHTS = (5, 6, 7, 8)
BIASES = (12, 13, 14, 15)
HIDDEN, CELL = 18, 19
# What TFLM's kernel refuses (ValidateTensorStatus): these inputs must be omitted.
VARIANTS = {"peephole (cell-to-gate weights, inputs 9-11)": (9, 10, 11),
            "projection (inputs 16-17)": (16, 17),
            "layer norm (inputs 20-23)": (20, 21, 22, 23)}
ACT_TANH = 4
GATE_INPUT_SCALE = 2.0 ** -12  # Q3.12, the input of the gates' sigmoid and tanh
GATE_OUTPUT_SCALE = 2.0 ** -15  # Q0.15, their output
PAIR_SHIFT = 23  # tinyaot_lstm_s8.h's TINYAOT_LSTM_S8_PAIR_SHIFT
UNPACKED_BYTES = 8  # sizeof(struct tinyaot_f32_unpacked), the float32 kernel's x and h split for its dot products


def _tensors(ctx):
    """(input, [input weights], [recurrent weights], [biases], hidden, cell, output), checked
    against what TFLM's Prepare accepts."""
    ctx.expect(len(ctx.op.inputs) == 24, f"needs 24 inputs, has {len(ctx.op.inputs)}")
    ctx.expect(len(ctx.op.outputs) == 1, f"needs 1 output, has {len(ctx.op.outputs)}")
    ctx.expect(ctx.op.inputs[1] >= 0 and ctx.op.inputs[5] >= 0,
               "CIFG (no input gate weights) is not supported: TFLM's kernel needs all four gates")
    for what, indices in VARIANTS.items():
        ctx.expect(all(ctx.op.inputs[k] < 0 for k in indices),
                   f"{what} is not supported: TFLM's kernel runs the plain LSTM only")
    weights_in = [ctx.input(k) for k in INPUT_WEIGHTS]
    weights_rec = [ctx.input(k) for k in RECURRENT_WEIGHTS]
    biases = [ctx.input(k) for k in BIASES]
    for t in (*weights_in, *weights_rec, *biases):
        ctx.expect_constant(t)
    hidden, cell = ctx.input(HIDDEN), ctx.input(CELL)
    for t, what in ((hidden, "hidden (output) state (input 18)"), (cell, "cell state (input 19)")):
        ctx.expect(t.is_variable, f"{what} must be a variable tensor: it is kept between calls", t.index)
        ctx.expect(t.index not in ctx.graph.inputs and t.index not in ctx.graph.outputs,
                   f"{what} must not be a model input or output", t.index)
    return ctx.input(INPUT), weights_in, weights_rec, biases, hidden, cell, ctx.output()


def _sizes(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out):
    """The kernel's size fields, from the tensors TFLM's CreateLstmSizeInfo reads."""
    opts = ctx.op.options
    time_major = bool(opts.get("time_major", False))
    ctx.expect(len(inp.shape) == 3, f"input must be 3-D, not {list(inp.shape)}", inp.index)
    ctx.expect(len(hidden.shape) == 2, f"hidden state must be 2-D, not {list(hidden.shape)}", hidden.index)
    steps, batches = inp.shape[:2] if time_major else inp.shape[1::-1]
    input_size, units = inp.shape[2], hidden.shape[1]
    for w in weights_in:
        ctx.expect(tuple(w.shape) == (units, input_size),
                   f"input weights must be [{units}, {input_size}], not {list(w.shape)}", w.index)
    for w in weights_rec:
        ctx.expect(tuple(w.shape) == (units, units),
                   f"recurrent weights must be [{units}, {units}], not {list(w.shape)}", w.index)
    for b in biases:
        ctx.expect(tuple(b.shape) == (units,), f"bias must be [{units}], not {list(b.shape)}", b.index)
    for t, what in ((hidden, "hidden state"), (cell, "cell state")):
        ctx.expect(t.num_elements == batches * units,
                   f"{what} must hold {batches * units} values (batches x units), not {t.num_elements}", t.index)
    ctx.expect(tuple(out.shape) == (*inp.shape[:2], units),
               f"output must be {[*inp.shape[:2], units]}, not {list(out.shape)}", out.index)
    activation = opts.get("fused_activation_function", 0)
    ctx.expect(activation == ACT_TANH, f"cell gate activation {activation} is not supported (TFLM's kernel "
               "runs TANH; others fail its assertion)")
    cell_clip = float(np.float32(opts.get("cell_clip", 0.0)))
    ctx.expect(np.isfinite(cell_clip) and cell_clip >= 0.0, f"cell_clip {cell_clip:g} must be finite and >= 0")
    return {"batches": batches, "steps": steps, "input_size": input_size, "units": units,
            "time_major": int(time_major)}, cell_clip


def _mantissas_f32(weights):
    """The four gates' float32 weights' mantissas for tinyaot_f32_dot.h, laid out as the
    weights ([gate][unit][k]): 1.mantissa << 7, 0 for a value that is not normal finite."""
    bits = np.concatenate([np.ascontiguousarray(t.data, dtype=np.float32).reshape(-1) for t in weights])
    bits = bits.view(np.uint32).astype(np.uint64)
    exponent = (bits >> 23) & 0xFF
    normal = (exponent != 0) & (exponent != 0xFF)
    return ParamArray("uint32_t", np.where(normal, ((bits & 0x7FFFFF) | 0x800000) << 7, 0).astype(np.uint32),
                      weights=True)


def lower_f32(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out):
    for t in (inp, *weights_in, *weights_rec, *biases, hidden, cell, out):
        ctx.expect_dtype(t, "float32")
    sizes, cell_clip = _sizes(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out)
    params = ParamStruct("struct tinyaot_lstm_f32_params", {**sizes, "cell_clip": cell_clip})
    return [KernelCall("tinyaot_lstm_f32", [
        params, TensorRef(inp.index),
        TensorList(tuple(w.index for w in weights_in), "float"), _mantissas_f32(weights_in),
        TensorList(tuple(w.index for w in weights_rec), "float"), _mantissas_f32(weights_rec),
        TensorList(tuple(b.index for b in biases), "float"),
        TensorRef(hidden.index), TensorRef(cell.index), TensorRef(out.index),
        ScratchRef(0, "struct tinyaot_f32_unpacked"),
    ], scratch=[UNPACKED_BYTES * (sizes["input_size"] + sizes["units"])])]


def _fc_multiplier(inp, weights):
    """TFLM's CalculateOpDataFullyConnected into a gate: its GetQuantizedConvolutionMultipler
    without a bias multiplies the two scales in float32, then divides in double."""
    return requantize_multiplier(float(np.float32(inp.scale) * np.float32(weights.scale)) / GATE_INPUT_SCALE)


def _mul_multiplier(scale_1, scale_2, out_scale):
    """TFLM's CreateInterGateMulParams: the scales' product and quotient in double."""
    return requantize_multiplier(float(scale_1) * float(scale_2) / float(out_scale))


def _tanh_rescale(cell_scale):
    """(multiplier, right shift) TFLM's lstm_internal::Tanh hands reference_integer_ops::Tanh
    for the cell state, whose scale it reads as the power of two CheckedLog2 rounds it to."""
    left_shift = 15 + checked_log2(cell_scale)[0] - 3
    return (3 << left_shift, 0) if left_shift >= 0 else (3, -left_shift)


def _integer_params(ctx, inp, weights_in, weights_rec, hidden, cell, out, sizes, cell_clip):
    """What the int8 and 16x8 kernels share: the parameter struct and the multiplier and
    shift tables (per gate input FC, then recurrent FC, then the three products)."""
    ctx.expect(cell.zero_point == 0, f"cell state has zero point {cell.zero_point}; it must be 0", cell.index)
    # TFLM copies the hidden state into the output: one quantization for both.
    ctx.expect(float(hidden.scale) == float(out.scale) and hidden.zero_point == out.zero_point,
               "hidden state and output quantization differ; TFLM copies one into the other", out.index)
    gate_in = [_fc_multiplier(inp, w) for w in weights_in]
    gate_rec = [_fc_multiplier(hidden, w) for w in weights_rec]
    forget_mul = _mul_multiplier(GATE_OUTPUT_SCALE, cell.scale, cell.scale)
    input_mul = _mul_multiplier(GATE_OUTPUT_SCALE, GATE_OUTPUT_SCALE, cell.scale)
    hidden_mul = _mul_multiplier(GATE_OUTPUT_SCALE, GATE_OUTPUT_SCALE, hidden.scale)
    tanh_multiplier, tanh_shift = _tanh_rescale(cell.scale)
    ctx.expect(tanh_multiplier <= 3 << 14, f"cell state scale {cell.scale:g} is too large: above 4 the tanh "
               "input overflows 32 bits (in TFLM too)", cell.index)
    # TFLM's CreateLstmCellStateInfo: clip / scale in double, clamped, truncated to int16.
    # (A positive clip that rounds to 0 clips to 0, as in TFLM: -1 marks no clipping.)
    quantized_clip = int(min(max(cell_clip / float(cell.scale), -32768.0), 32767.0)) if cell_clip > 0 else -1
    pairs = gate_in + gate_rec + [forget_mul, input_mul, hidden_mul]
    params = ParamStruct("struct tinyaot_lstm_int_params", {
        **sizes, "output_offset": out.zero_point, "cell_clip": quantized_clip,
        "tanh_multiplier": tanh_multiplier, "tanh_shift": tanh_shift})
    return [params, ParamArray("int32_t", np.array([m for m, _ in pairs], dtype=np.int32)),
            ParamArray("int32_t", np.array([s for _, s in pairs], dtype=np.int32))]


def _expect_integer_tensors(ctx, inp, weights_in, weights_rec, hidden, cell, out, activations):
    for t in (inp, hidden, out):
        ctx.expect_dtype(t, activations)
    for t in (*weights_in, *weights_rec):
        ctx.expect_dtype(t, "int8")
    ctx.expect_dtype(cell, "int16")
    for t in (inp, hidden, out, cell, *weights_in, *weights_rec):
        ctx.expect_quantized(t)
    for w in (*weights_in, *weights_rec):
        ctx.expect(w.zero_point == 0, f"weights have zero point {w.zero_point}; it must be 0", w.index)


def _gate_pairs(weights):
    """The four gates' int8 weights as tinyaot_lstm_s8.h's packed gate pairs: [unit][k][2]
    int32, w_input + w_forget * 2^23 then w_cell + w_output * 2^23."""
    w = [np.asarray(t.data, dtype=np.int64) for t in weights]
    pairs = np.stack([w[0] + w[1] * 2 ** PAIR_SHIFT, w[2] + w[3] * 2 ** PAIR_SHIFT], axis=-1)
    return ParamArray("int32_t", pairs.astype(np.int32).reshape(-1), weights=True)


def lower_s8(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out):
    _expect_integer_tensors(ctx, inp, weights_in, weights_rec, hidden, cell, out, "int8")
    for t in biases:
        ctx.expect_dtype(t, "int32")
    sizes, cell_clip = _sizes(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out)
    params = _integer_params(ctx, inp, weights_in, weights_rec, hidden, cell, out, sizes, cell_clip)
    # The input offsets folded into per-gate tables: [gate][unit] (input FC: with its bias).
    in_bias = np.concatenate([fold_input_offset(b.data, w.data, -inp.zero_point, channel_axis=0)
                              for w, b in zip(weights_in, biases)])
    rec_bias = np.concatenate([fold_input_offset(None, w.data, -hidden.zero_point, channel_axis=0)
                               for w in weights_rec])
    # The model's int8 weights: for --optimize size (the gate pairs take twice their flash), and on
    # Armv6-M, where without a long multiply the pairs are the slower (lstm_seq28_units100 on a Cortex-M0:
    # 12.00 M instructions per inference, the int8 weights 8.64 M).
    if ctx.optimize == "size" or not ctx.long_multiply:
        kernel = "tinyaot_lstm_s8_small"
        weights = [TensorList(tuple(w.index for w in ws), "int8_t") for ws in (weights_in, weights_rec)]
    else:
        kernel, weights = "tinyaot_lstm_s8", [_gate_pairs(weights_in), _gate_pairs(weights_rec)]
    return [KernelCall(kernel, [
        *params, ParamArray("int32_t", np.concatenate([in_bias, rec_bias])), ParamArray("uint16_t", sigmoid_table()),
        TensorRef(inp.index), *weights, TensorRef(hidden.index), TensorRef(cell.index), TensorRef(out.index),
    ])]


def lower_16x8(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out):
    """TFLM's 16x8 form: int16 activations (zero points 0), int64 biases."""
    _expect_integer_tensors(ctx, inp, weights_in, weights_rec, hidden, cell, out, "int16")
    for t in biases:
        ctx.expect_dtype(t, "int64")
    for t in (inp, hidden):
        ctx.expect(t.zero_point == 0, f"int16 activations must have zero point 0, not {t.zero_point}", t.index)
    sizes, cell_clip = _sizes(ctx, inp, weights_in, weights_rec, biases, hidden, cell, out)
    params = _integer_params(ctx, inp, weights_in, weights_rec, hidden, cell, out, sizes, cell_clip)
    for w, b in zip(weights_in, biases):  # each gate's input products and bias are rescaled in 64 bits
        expect_rescale_defined(ctx, w, b)
    return [KernelCall("tinyaot_lstm_s16", [
        *params, ParamArray("int64_t", np.concatenate([b.data.astype(np.int64) for b in biases])),
        ParamArray("uint16_t", sigmoid_table()),
        TensorRef(inp.index), TensorList(tuple(w.index for w in weights_in), "int8_t"),
        TensorList(tuple(w.index for w in weights_rec), "int8_t"),
        TensorRef(hidden.index), TensorRef(cell.index), TensorRef(out.index),
    ])]


def lower(ctx):
    tensors = _tensors(ctx)
    inp = tensors[0]
    ctx.expect_dtype(inp, "int8", "int16", "float32")
    return {"float32": lower_f32, "int8": lower_s8, "int16": lower_16x8}[inp.dtype](ctx, *tensors)


OPS = {"UNIDIRECTIONAL_SEQUENCE_LSTM": lower}
