"""`tinyaot weights`: the blob of a model for code already compiled with --weights blob."""

import json
from pathlib import Path

from tinyaot.errors import TinyAotError


def write_weights(model_path, options, output, compiled_dir=None):
    from tinyaot.codegen.emit import weights_blob
    from tinyaot.compiler import compile_model
    options.weights = "blob"
    data, report = weights_blob(compile_model(model_path, options))
    if compiled_dir is not None:
        plan_path = Path(compiled_dir) / f"{options.name}.json"
        try:
            compiled = json.loads(plan_path.read_text())
        except (OSError, ValueError) as e:
            raise TinyAotError(f"cannot read the compiled model's plan: {e}", file=plan_path) from None
        if not compiled.get("blob"):
            raise TinyAotError("was not compiled with --weights blob", file=plan_path)
        differences = architecture_differences(compiled["blob"], report["blob"])
        if differences:
            raise TinyAotError(f"architecture differs from {plan_path} (the code is specialised on it): "
                               + "; ".join(differences), file=model_path)
    try:
        Path(output).write_bytes(data)
    except OSError as e:
        raise TinyAotError(f"cannot write the blob: {e.strerror}", file=output) from None
    print(f"{output}: {len(data)} bytes, architecture {report['blob']['arch_id']}")


def architecture_differences(old, new):
    """What makes two blob reports' architecture ids differ, naming operators and tensors."""
    if old["arch_id"] == new["arch_id"]:
        return []
    out = []
    old_ops, new_ops = old["specialised"], new["specialised"]
    if [(o["index"], o["type"]) for o in old_ops] != [(o["index"], o["type"]) for o in new_ops]:
        return ["the operators differ"]
    for a, b in zip(old_ops, new_ops):
        where = f"operator {a['index']} ({a['type']})"
        if sorted(a["tensors"]) != sorted(b["tensors"]):
            out.append(f"{where}: tensors differ")
            continue
        fields = [f"{k} {_value(a['params'][s][k])} -> {_value(b['params'][s][k])}" for s in a["params"] for k in a["params"][s]
                  if s in b["params"] and a["params"][s][k] != b["params"][s].get(k)]
        if fields:
            tensors = [t for t in a["tensors"] if a["tensors"][t] != b["tensors"][t]]
            named = f"tensor '{', '.join(tensors)}' quantization" if tensors else "its parameters"
            out.append(f"{where}: {named} changes {', '.join(fields)}")
    for kind in ("inputs", "outputs"):
        for (name, q), (_, q_new) in zip(old[kind], new[kind]):
            if q != q_new:
                out.append(f"{kind[:-1]} '{name}' quantization (the descriptor holds it)")
    return out or ["the generated code differs (shapes, options or generator version)"]


def _value(v):
    return v if isinstance(v, str) else f"{v:g}"
