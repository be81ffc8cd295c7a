"""What every CMSIS-NN lowering (cmsis_nn, cmsis_nn_s16) builds its calls with: the header, the
call with its arena scratch, and the limit of the convolution parameter struct's fields."""

from tinyaot.ops.base import KernelCall, ScratchRef

HEADER = "tinyaot_cmsis_nn.h"
# The largest shape, stride or dilation a convolution's tinyaot_cmsis_conv_params holds (int16_t fields:
# half the flash of int32_t ones, one struct per layer); padding is less than the filter's extent.
CONV_PARAM_MAX = 2**15 - 1


def call(kernel, params, tables, tensors, scratch_bytes, extra=(), overlaps=()):
    scratch = ScratchRef(0, "void") if scratch_bytes else "NULL"
    return [KernelCall(kernel, [params, *tables, scratch, *tensors, *extra],
                       scratch=[scratch_bytes] if scratch_bytes else [], header=HEADER, overlaps=list(overlaps))]


def conv_too_wide(ctx):
    """Why a convolution's sizes do not fit tinyaot_cmsis_conv_params, or None."""
    sizes = [*ctx.input(0).shape, *ctx.output().shape, *ctx.input(1).shape,
             *(v for v in ctx.op.options.values() if isinstance(v, int) and not isinstance(v, bool))]
    if max(sizes) > CONV_PARAM_MAX:
        return (f"a dimension, stride or dilation of {max(sizes)}: tinyaot_cmsis_conv_params holds "
                f"16-bit fields (at most {CONV_PARAM_MAX})")
    return None
