"""SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND, int8 and float32 (as TFLM), 3-D or 4-D, with
constant block shape and paddings or crops (kernels/tinyaot_space_batch.h). Values are
moved, not rescaled: a quantized output has the input's quantization. The padding holds
the zero point (TFLM's micro kernel leaves its pad value unset: no exact result there)."""

from tinyaot.ops.base import KernelCall, ParamStruct, TensorRef
from tinyaot.ops.strided_copy import constant_ints, expect_moved_values


def _lower(ctx, to_batch):
    ctx.expect(len(ctx.op.inputs) == 3, f"expects 3 inputs, has {len(ctx.op.inputs)}")
    inp, out = ctx.input(0), ctx.output()
    expect_moved_values(ctx, inp, [out], ("int8", "float32"))
    rank = len(inp.shape)
    ctx.expect(rank in (3, 4) and len(out.shape) == rank, f"takes 3-D or 4-D tensors (as TFLM), not {rank}-D",
               inp.index)
    spatial = rank - 2
    block = constant_ints(ctx, ctx.input(1))
    edges = constant_ints(ctx, ctx.input(2))
    ctx.expect(len(block) == spatial and len(edges) == 2 * spatial and min(block) >= 1 and min(edges) >= 0,
               f"block shape {block} and {'paddings' if to_batch else 'crops'} {edges} do not fit {spatial} "
               "spatial dimensions", ctx.op.inputs[1])
    # NHC is NH1C: a width of 1, no block or edge along it.
    in4 = inp.shape if rank == 4 else (inp.shape[0], inp.shape[1], 1, inp.shape[2])
    out4 = out.shape if rank == 4 else (out.shape[0], out.shape[1], 1, out.shape[2])
    block_h, block_w = block[0], block[1] if rank == 4 else 1
    top, bottom = edges[0], edges[1]
    left, right = (edges[2], edges[3]) if rank == 4 else (0, 0)
    # The space side with its paddings (or the batch side before its crops) splits into blocks.
    space, batch = (in4, out4) if to_batch else (out4, in4)
    padded_h, padded_w = space[1] + top + bottom, space[2] + left + right
    expected = (space[0] * block_h * block_w, padded_h // block_h, padded_w // block_w, space[3])
    ctx.expect(padded_h % block_h == 0 and padded_w % block_w == 0 and tuple(batch) == expected,
               f"input {list(inp.shape)} and output {list(out.shape)} do not match block shape {block} and "
               f"{'paddings' if to_batch else 'crops'} {edges}", out.index)
    params = ParamStruct("struct tinyaot_space_batch_params", {
        "input_batches": in4[0], "input_h": in4[1], "input_w": in4[2],
        "output_batches": out4[0], "output_h": out4[1], "output_w": out4[2],
        "block_h": block_h, "block_w": block_w, "pad_top": top, "pad_left": left,
        "to_batch": int(to_batch), "pixel_bytes": in4[3] * inp.itemsize,
        "pad_byte": out.zero_point & 0xFF if out.dtype == "int8" else 0})
    return [KernelCall("tinyaot_space_batch", [params, TensorRef(inp.index), TensorRef(out.index)])]


OPS = {"SPACE_TO_BATCH_ND": lambda ctx: _lower(ctx, to_batch=True),
       "BATCH_TO_SPACE_ND": lambda ctx: _lower(ctx, to_batch=False)}
