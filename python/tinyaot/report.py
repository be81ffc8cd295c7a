"""Human-readable tables for `tinyaot inspect`."""

from tinyaot.codegen.emit import header_text
from tinyaot.planner.lifetimes import limit_words

OPTIMIZE_WORDS = {
    "speed": "optimised for speed: pixel pairs, loops instantiated for the model's shapes (--optimize size: less "
             "flash, the same results)",
    "size": "optimised for size: one pixel at a time, no loops instantiated per shape (--optimize speed: faster, "
            "more flash)",
}


def print_inspection(model):
    g = model.graph
    print(f"model {g.source}: {len(g.operators)} operators, {len(g.tensors)} tensors")
    print(OPTIMIZE_WORDS[model.options.optimize])
    print("\noperators")
    print(f"  {'#':>3}  {'type':<20} {'kernels':<34} inputs -> outputs")
    for op, calls in model.calls:
        kernels = ", ".join(c.kernel for c in calls) or ("(fused)" if model.backends[op.index][1] else
                                                         "(view)" if op.outputs else "(no code)")
        print(f"  {op.index:>3}  {op.type:<20} {kernels:<34} {op.inputs} -> {op.outputs}")
        backend, reason = model.backends[op.index]
        if reason:
            print(f"  {'':>3}  {'':<20} {backend}: {reason}")
    for b in g.blocks:
        when = {"once": "on the first run only", "loop": "in a loop: cond, then body"}.get(b.kind,
                                                                                      f"as its {b.kind} branch")
        print(f"  operators {b.first}..{b.last}: subgraph {b.subgraph}, run by {g.operators[b.owner].type} "
              f"{b.owner} {when}")
    print("\ntensors")
    print(f"  {'#':>3}  {'dtype':<8} {'shape':<18} {'bytes':>8}  {'kind':<9} name")
    inputs, outputs = set(g.inputs), set(g.outputs)
    for t in g.tensors:
        kind = ("input" if t.index in inputs else "output" if t.index in outputs else
                "weight" if t.is_constant else "state" if t.is_variable else "handle" if t.dtype == "resource" else
                "view" if t.index in model.views.root else
                "unread" if t.nbytes == 0 else "arena")  # an LSTM's intermediates carry only a scale
        print(f"  {t.index:>3}  {t.dtype:<8} {str(list(t.shape)):<18} {t.nbytes:>8}  {kind:<9} {t.name}")
    print("\nmemory plan (steps are operator indices)")
    print(f"  {'offset':>8} {'bytes':>8} {'steps':>9}  buffer")
    for b in sorted(model.buffers, key=lambda b: (b.offset, b.first)):
        print(f"  {b.offset:>8} {b.size:>8} {f'{b.first}-{b.last}':>9}  {b.name}")
    for b in model.buffers:
        for t, limit in sorted(b.overlaps.items()):
            print(f"  may overlap: {b.name} over {g.tensors[t].name}, starting {limit_words(limit, t in b.exact)}")
    overlap = "" if model.plan.overlap_bound == model.lower_bound else f" (overlap-aware {model.plan.overlap_bound})"
    if model.fusions:
        overlap = (f" unfused (fused graph: classic {model.plan.lower_bound}, overlap-aware "
                   f"{model.plan.overlap_bound})")
    print(f"\narena {model.arena_size} bytes, lower bound {model.lower_bound} bytes{overlap}, "
          f"state {model.state_size} bytes, alignment {model.options.alignment}")
    for note in [model.plan.note()] + [n for n in model.notes if n != model.plan.note()]:
        print(f"note: {note}")
    print_c_api(model)


def print_c_api(model):
    """The declarations of the generated <name>.h (sizes, the input and output
    structs with their member names, the functions), straight from the header."""
    name = model.options.name
    lines = header_text(model).splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(f"#define TINYAOT_{name.upper()}_ARENA_SIZE"))
    end = next(i for i, l in enumerate(lines) if l.startswith("extern const struct tinyaot_model"))
    print(f"\nC API: #include \"{name}.h\" (generated into the --out folder; with "
          f"tinyaot_add_model, <build>/tinyaot/{name}/); struct members are the tensor names "
          "in lower case, other characters as _")
    for line in lines[start:end + 1]:
        print(f"  {line}" if line else "")
