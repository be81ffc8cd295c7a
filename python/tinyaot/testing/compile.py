"""Compiling a model held in memory, for tests of what the compiler refuses."""

from tinyaot.compiler import Options, compile_model


def compile_bytes(tmp_path, data, name="bad"):
    """Write the .tflite bytes to tmp_path/NAME.tflite and compile them as model NAME."""
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(data)
    return compile_model(path, Options(name))
