"""Another model of the same architecture: a .tflite with new weight and bias
values (or one tensor's quantization changed), everything else kept."""

import numpy as np
import tflite

_INT8, _INT32 = tflite.TensorType.INT8, tflite.TensorType.INT32


def reweighted(data, seed):
    """The model with every quantized int8 weight and int32 bias buffer redrawn."""
    data = bytearray(data)
    rng = np.random.default_rng(seed)
    for tensor, values in _constant_tensors(data):
        if tensor.Type() == _INT8:
            values[...] = rng.integers(-127, 128, size=values.shape, dtype=np.int8)
        else:
            bound = int(np.abs(values.view(np.int32)).max()) + 1
            values.view(np.int32)[...] = rng.integers(-bound, bound, size=values.size // 4, dtype=np.int32)
    return bytes(data)


def requantized(data, tensor_name, scale_factor=1.0, zero_point_shift=0):
    """The model with tensor `tensor_name`'s scale(s) multiplied and zero point(s) shifted."""
    data = bytearray(data)
    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    for i in range(graph.TensorsLength()):
        tensor = graph.Tensors(i)
        if tensor.Name().decode() == tensor_name:
            quant = tensor.Quantization()
            scale, zero_point = quant.ScaleAsNumpy(), quant.ZeroPointAsNumpy()
            scale[...] = (scale * scale_factor).astype(np.float32)
            zero_point[...] += zero_point_shift
            return bytes(data)
    raise KeyError(tensor_name)


def _constant_tensors(data):
    """(tensor, writable uint8 view of its buffer) for quantized int8/int32 constants."""
    model = tflite.Model.GetRootAsModel(data, 0)
    graph = model.Subgraphs(0)
    for i in range(graph.TensorsLength()):
        tensor = graph.Tensors(i)
        quant = tensor.Quantization()
        if tensor.Type() not in (_INT8, _INT32) or quant is None or quant.ScaleLength() == 0:
            continue
        buffer = model.Buffers(tensor.Buffer())
        if buffer.DataLength():
            yield tensor, buffer.DataAsNumpy()
