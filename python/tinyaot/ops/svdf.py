"""SVDF, the two paths TFLM runs: integer (int8 input and feature weights, int16
time weights and activation state (a variable tensor), int32 bias, int8 output)
and float32 (every tensor float32).

Checks and constants follow TFLM's PrepareSvdf (micro/kernels/svdf_common.cc).
"""

from tinyaot.ops.base import KernelCall, ParamArray, ParamStruct, TensorRef, optional_ref
from tinyaot.quant import ACTIVATION_NAMES, fold_input_offset, requantize_multiplier

INPUT, FEATURE, TIME, BIAS, STATE = range(5)


def _tensors(ctx):
    """(input, feature weights, time weights, bias or None, state, output)."""
    ctx.expect(len(ctx.op.inputs) == 5, f"needs 5 inputs (input, feature weights, time weights, bias, "
               f"activation state), has {len(ctx.op.inputs)}")
    ctx.expect(len(ctx.op.outputs) == 1, f"needs 1 output, has {len(ctx.op.outputs)}")
    return (ctx.input(INPUT), ctx.input(FEATURE), ctx.input(TIME), ctx.input(BIAS, optional=True),
            ctx.input(STATE), ctx.output())


def _sizes(ctx, inp, feature, time, bias, state, out):
    """Checks the state, the shapes and the bias's length; returns the kernel's size fields."""
    ctx.expect_constant(feature)
    ctx.expect_constant(time)
    ctx.expect(state.is_variable, "activation state (input 4) must be a variable tensor: it keeps the "
               "history between calls", state.index)
    ctx.expect(state.index not in ctx.graph.inputs and state.index not in ctx.graph.outputs,
               "activation state (input 4) must not be a model input or output", state.index)

    rank = int(ctx.op.options.get("rank", 0))
    ctx.expect(rank >= 1, f"rank option is {rank}; it must be at least 1")
    for t, what in ((inp, "input"), (feature, "feature weights"), (time, "time weights"),
                    (state, "activation state"), (out, "output")):
        ctx.expect(len(t.shape) == 2, f"{what} must be 2-D, not {list(t.shape)}", t.index)
    # Sizes come from the tensors TFLM's Prepare takes them from.
    batches, input_size = inp.shape
    num_filters = feature.shape[0]
    memory_size = time.shape[1]
    ctx.expect(batches >= 1 and input_size >= 1 and num_filters >= 1 and memory_size >= 1,
               f"empty shapes are not supported (input {list(inp.shape)}, feature weights "
               f"{list(feature.shape)}, time weights {list(time.shape)})")
    ctx.expect(num_filters % rank == 0,
               f"{num_filters} filters do not split into units of rank {rank}", feature.index)
    num_units = num_filters // rank
    ctx.expect(feature.shape[1] == input_size,
               f"feature weights must be [{num_filters}, {input_size}] (filters x input size), "
               f"not {list(feature.shape)}", feature.index)
    ctx.expect(time.shape[0] == num_filters,
               f"time weights must be [{num_filters}, {memory_size}] (filters x memory size), "
               f"not {list(time.shape)}", time.index)
    ctx.expect(tuple(state.shape) == (batches, memory_size * num_filters),
               f"activation state must be [{batches}, {memory_size * num_filters}] "
               f"(batch x memory size * filters), not {list(state.shape)}", state.index)
    ctx.expect(tuple(out.shape) == (batches, num_units),
               f"output must be [{batches}, {num_units}] (batch x units), not {list(out.shape)}", out.index)
    if bias is not None:
        ctx.expect_constant(bias)
        ctx.expect(tuple(bias.shape) == (num_units,),
                   f"bias must be [{num_units}] (one per unit), not {list(bias.shape)}", bias.index)
    return {"batches": batches, "input_size": input_size, "num_units": num_units, "rank": rank,
            "memory_size": memory_size}


def lower_f32(ctx):
    """float32: TFLM's EvalFloatSvdfReference (kernels/tinyaot_svdf_f32.h), which,
    unlike the integer path, applies the fused activation (any the schema has)."""
    inp, feature, time, bias, state, out = _tensors(ctx)
    for t in (inp, feature, time, bias, state, out):
        if t is not None:
            ctx.expect_dtype(t, "float32")
    sizes = _sizes(ctx, inp, feature, time, bias, state, out)
    activation = ctx.op.options.get("fused_activation_function", 0)
    ctx.expect(activation in ACTIVATION_NAMES, f"fused activation {activation} is not supported "
               f"(supported: {', '.join(ACTIVATION_NAMES.values())})")
    params = ParamStruct("struct tinyaot_svdf_f32_params", {**sizes, "activation": activation})
    return [KernelCall("tinyaot_svdf_f32", [
        params, TensorRef(inp.index), TensorRef(feature.index), TensorRef(time.index),
        optional_ref(bias), TensorRef(state.index), TensorRef(out.index),
    ])]


def lower(ctx):
    inp, feature, time, bias, state, out = _tensors(ctx)
    ctx.expect_dtype(inp, "int8", "float32")
    if inp.dtype == "float32":
        return lower_f32(ctx)
    ctx.expect_dtype(feature, "int8")
    ctx.expect(time.dtype == "int16",
               f"time weights of dtype {time.dtype} are not supported (supported: int16 time weights "
               "with an int16 activation state)", time.index)
    ctx.expect_dtype(state, "int16")
    ctx.expect_dtype(out, "int8")
    for t in (inp, feature, time, state, out):
        ctx.expect_quantized(t)
    # TFLM drops the weights' zero points from its sums; the quantization spec makes them 0.
    for t, what in ((feature, "feature"), (time, "time")):
        ctx.expect(t.zero_point == 0, f"{what} weights have zero point {t.zero_point}; it must be 0", t.index)

    # int16 activations are symmetric in TFLite. TFLM versions also disagree on a
    # non-zero one: older ones add it after the int16 clamp (and wrap), newer before.
    ctx.expect(state.zero_point == 0, f"activation state has zero point {state.zero_point}; an int16 state "
               "must have zero point 0", state.index)
    if bias is not None:
        ctx.expect_dtype(bias, "int32")
    sizes = _sizes(ctx, inp, feature, time, bias, state, out)
    if bias is not None:
        # TFLM's Prepare refuses the model otherwise.
        expected = float(state.scale) * float(time.scale)
        ctx.expect(bias.quant is not None and abs(float(bias.scale) - expected) < 1e-5,
                   f"bias scale must be activation state scale x time weights scale ({expected:g})",
                   bias.index)

    # In double from the float32 scales. (TFLM's source reads as float arithmetic
    # widened afterwards, but the TFLM build we check against rounds as double
    # does: tests/host/test_errors_svdf.py pins it on TFLM's own state.)
    multiplier_1, shift_1 = requantize_multiplier(float(inp.scale) * float(feature.scale) / float(state.scale))
    multiplier_2, shift_2 = requantize_multiplier(float(state.scale) * float(time.scale) / float(out.scale))

    params = ParamStruct("struct tinyaot_svdf_params", {
        **sizes,
        "output_offset": out.zero_point,
        "multiplier_1": multiplier_1,
        "shift_1": shift_1,
        "multiplier_2": multiplier_2,
        "shift_2": shift_2,
    })
    return [KernelCall("tinyaot_svdf_s8", [
        params, TensorRef(inp.index), TensorRef(feature.index), TensorRef(time.index),
        optional_ref(bias), TensorRef(state.index), TensorRef(out.index),
        ParamArray("int32_t", fold_input_offset(None, feature.data, -inp.zero_point, channel_axis=0)),
    ])]


OPS = {"SVDF": lower}
