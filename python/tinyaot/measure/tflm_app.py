"""Sources for a TFLM firmware of one model (firmware/tflm_runner), written at configure time.

    python -m tinyaot.measure.tflm_app model.tflite --name NAME --tflm-dir DIR --kernels reference|cmsis-nn --out OUT

writes into OUT
  tflm_model_data.cc  the model as an aligned const byte array (the user's model, not TFLM code)
  tflm_model_ops.h    the op resolver: TINYAOT_TFLM_OP_COUNT and TINYAOT_TFLM_ADD_OPS(r), one
                      r.Add<Op>() per operator type the model uses, so only those kernels link;
                      the numbers of inputs and outputs
  kernels.txt         the TFLM kernel sources those operators need, one path a line

Which Add<Op>() method serves an operator and which kernel file defines its registration
is read from the TFLM tree itself (micro_mutable_op_resolver.h, kernels/*.cc), so nothing
of TFLM is restated here. With cmsis-nn, kernels/cmsis_nn/X.cc replaces kernels/X.cc, as
TFLM's Makefile does with OPTIMIZED_KERNEL_DIR=cmsis_nn.
"""

import argparse
import re
import sys
from pathlib import Path

from tinyaot.codegen.emit import _write
from tinyaot.errors import TinyAotError
from tinyaot.frontend.tflite_reader import _OP_NAMES

KERNELS = ("reference", "cmsis-nn")
_MICRO = Path("tensorflow/lite/micro")


def read_model(model_bytes, source):
    """(builtin operator names the model's subgraphs use, in first-use order, number of
    inputs, number of outputs) of the model."""
    import tflite
    try:
        model = tflite.Model.GetRootAsModel(model_bytes, 0)
        codes = [model.OperatorCodes(i) for i in range(model.OperatorCodesLength())]
        # TFLM's GetBuiltinCode: the larger of the deprecated and the new field.
        builtin = [max(c.DeprecatedBuiltinCode(), c.BuiltinCode()) for c in codes]
        used = []
        for s in range(model.SubgraphsLength()):
            sub = model.Subgraphs(s)
            for o in range(sub.OperatorsLength()):
                name = _OP_NAMES.get(builtin[sub.Operators(o).OpcodeIndex()], "?")
                if name not in used:
                    used.append(name)
        main = model.Subgraphs(0)
        return used, main.InputsLength(), main.OutputsLength()
    except Exception as exc:  # a damaged flatbuffer trips over any accessor
        raise TinyAotError(f"malformed TFLite flatbuffer ({type(exc).__name__}: {exc})", file=source) from None


def resolver_methods(tflm_dir):
    """{builtin operator name: (Add method, registration function)} from TFLM's resolver header."""
    text = (tflm_dir / _MICRO / "micro_mutable_op_resolver.h").read_text()
    methods = {}
    for m in re.finditer(r"TfLiteStatus (Add\w+)\(\s*(?:const TFLMRegistration& registration\s*=\s*"
                         r"(?:tflite::)?(Register_\w+)\(\))?\)\s*\{\s*return AddBuiltin\(\s*"
                         r"BuiltinOperator_(\w+)", text):
        method, register, op = m.groups()
        methods.setdefault(op, (method, register))
    return methods


def _core_kernel_sources():
    """Names X of the micro/kernels/X.cc that TFLM's core library (cmake/tinyaot_tflm.cmake) compiles."""
    cmake = Path(__file__).resolve().parents[3] / "cmake" / "tinyaot_tflm.cmake"
    return set(re.findall(r"/micro/kernels/(\w+)\.cc", cmake.read_text()))


def _helper_source(path):
    """Whether a kernel .cc is a helper of kernels (lstm_eval.cc), not an operator of its own."""
    registration = re.compile(r"TFLMRegistration\s+Register_\w+\(\)\s*\{")
    return path.exists() and not registration.search(path.read_text(errors="replace"))


def kernel_sources(tflm_dir, kernels, register):
    """The kernel .cc defining `register`() (the CMSIS-NN one first with cmsis-nn) and the
    X_common.cc of every kernel header X.h it includes, directly or through other kernel
    headers (what the reference and optimized kernels share, e.g. conv.h's for depthwise),
    and X.cc where that only helps kernels (lstm_eval.cc) and the core does not compile it."""
    folders = [tflm_dir / _MICRO / "kernels"]
    if kernels == "cmsis-nn":
        folders.insert(0, tflm_dir / _MICRO / "kernels" / "cmsis_nn")
    pattern = re.compile(rf"TFLMRegistration\s+{register}\(\)\s*\{{")
    for folder in folders:
        for path in sorted(folder.glob("*.cc")):
            if pattern.search(path.read_text(errors="replace")):
                names = [path.stem] + [h for h in _kernel_headers(path, tflm_dir, []) if h != path.stem]
                commons = [tflm_dir / _MICRO / "kernels" / f"{h}_common.cc" for h in names]
                core = _core_kernel_sources()
                helpers = [tflm_dir / _MICRO / "kernels" / f"{h}.cc" for h in names[1:] if h not in core]
                return [path] + [c for c in commons if c.exists()] + [h for h in helpers if _helper_source(h)]
    return []


def _kernel_headers(path, tflm_dir, found):
    """Names X of the tensorflow/lite/micro/kernels/X.h that `path` includes, transitively."""
    for name in re.findall(r'#include "tensorflow/lite/micro/kernels/(\w+)\.h"', path.read_text(errors="replace")):
        header = tflm_dir / _MICRO / "kernels" / f"{name}.h"
        if name not in found and header.exists():
            found.append(name)
            _kernel_headers(header, tflm_dir, found)
    return found


def c_array(data, name):
    lines = [f"alignas(16) extern const unsigned char {name}[] = {{"]
    for i in range(0, len(data), 16):
        lines.append("  " + ", ".join(f"0x{b:02x}" for b in data[i:i + 16]) + ",")
    lines.append("};")
    return "\n".join(lines)


def generate(model, name, tflm_dir, kernels, out):
    model, tflm_dir, out = Path(model), Path(tflm_dir).resolve(), Path(out)
    if kernels not in KERNELS:
        raise TinyAotError(f"--kernels must be one of {', '.join(KERNELS)}, not '{kernels}'")
    try:
        data = model.read_bytes()
    except OSError as exc:
        raise TinyAotError(f"cannot read model: {exc.strerror}", file=model) from None
    methods = resolver_methods(tflm_dir)
    adds, sources = [], []
    operators, num_inputs, num_outputs = read_model(data, model)
    for op in operators:
        if op not in methods:
            raise TinyAotError(f"TFLM's MicroMutableOpResolver has no Add method for builtin operator {op}",
                               file=model)
        method, register = methods[op]
        found = kernel_sources(tflm_dir, kernels, register) if register else []
        if not found:
            raise TinyAotError(f"no TFLM kernel source defines {register}() (operator {op})", file=model)
        adds.append(f"r.{method}()")
        sources += [str(p) for p in found if str(p) not in sources]
    out.mkdir(parents=True, exist_ok=True)
    header = "/* Generated by tinyaot.measure.tflm_app: the operators of {0} for TFLM's op resolver. */\n".format(model.name)
    _write(out / "tflm_model_ops.h", header + (
        "#ifndef TFLM_MODEL_OPS_H\n#define TFLM_MODEL_OPS_H\n\n"
        f"#define TINYAOT_TFLM_MODEL_NAME \"{name}\"\n"
        f"#define TINYAOT_TFLM_KERNELS \"{kernels}\"\n"
        f"#define TINYAOT_TFLM_OP_COUNT {len(adds)}\n"
        f"#define TINYAOT_TFLM_NUM_INPUTS {num_inputs}\n"
        f"#define TINYAOT_TFLM_NUM_OUTPUTS {num_outputs}\n"
        f"#define TINYAOT_TFLM_ADD_OPS(r) ({' == kTfLiteOk && '.join(adds)} == kTfLiteOk)\n\n"
        "extern const unsigned char tinyaot_tflm_model_data[];\n\n#endif\n"))
    _write(out / "tflm_model_data.cc",
                     f"/* Generated by tinyaot.measure.tflm_app from {model.name} ({len(data)} bytes). */\n"
                     f"#include \"tflm_model_ops.h\"\n\n{c_array(data, 'tinyaot_tflm_model_data')}\n")
    _write(out / "kernels.txt", "".join(s + "\n" for s in sources))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tinyaot.measure.tflm_app", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("--name", required=True)
    parser.add_argument("--tflm-dir", required=True)
    parser.add_argument("--kernels", default="reference", choices=KERNELS)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        generate(args.model, args.name, args.tflm_dir, args.kernels, args.out)
    except TinyAotError as exc:
        print(f"tinyaot: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
