"""`tinyaot bench`: footprint and speed of models on the QEMU boards.

For each model x board: builds the serial-runner firmware, runs N random
inputs through it and through TFLite Micro, and reports

  flash    .text (code, rodata, weights) + .data initialisers, bytes
  ram      .data + .bss (includes arena and state; excludes stack and I/O tensors)
  arena    scratch RAM of the model (NAME.json), weights: weight bytes (NAME.json)
  instr    instructions per inference (median), counted by QEMU -icount through
           SysTick; on real hardware (not supported here) it would be cycles
  stack    stack high-water mark of run(), bytes (max over the calls)
  exact    outputs bit-exact with TFLM over all N calls
  model RAM  what the model needs in RAM: arena + state + input/output tensors
           kept outside the arena
  TFLM     TFLM's arena for the same model, measured in the same run (its
           RecordingMicroAllocator total: tensors, state and runtime structs)
  ratio    model RAM / TFLM

A model that does not fit with its own input buffers is built again with
--inputs-in-arena (marked "*" in the table); one that still does not fit is
listed as such, with the reason.
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

from tinyaot import harness
from tinyaot.harness.build import REPO

SHARED_MODELS = REPO.parent / "shared" / "models"


def default_models(build_root):
    """Own on-target test models plus the reference models in ../shared/models if present."""
    from tinyaot.testing import catalog
    models = dict(catalog.build_all(Path(build_root) / "models", on_target=True))
    if SHARED_MODELS.is_dir():
        models.update({model_name(p): p for p in sorted(SHARED_MODELS.glob("*.tflite"))})
    return models


def model_name(path):
    """A valid generator NAME ([a-z_][a-z0-9_]*) from a model file's stem,
    e.g. pretrainedResnet_quant.tflite -> pretrainedresnet_quant."""
    name = re.sub(r"[^a-z0-9_]", "_", Path(path).stem.lower())
    return name if re.match(r"[a-z_]", name) else "_" + name


def failure_reason(log):
    """The lines of a build log that say what went wrong (generator, compiler and
    CMake errors, with CMake's indented message), not ninja's closing line."""
    lines = log.strip().splitlines()
    picked = []
    for i, line in enumerate(lines):
        if line.startswith("CMake Error"):
            picked.append(line.strip())
            picked += [l.strip() for l in lines[i + 1:i + 6] if l.startswith("  ") and l.strip()]
        elif re.search(r"\berror\b", line, re.I) and not line.startswith("ninja:"):
            picked.append(line.strip())
    return " | ".join(dict.fromkeys(picked)) if picked else lines[-1]


def bench_one(board, name, path, calls, seed, build_root):
    from tinyaot.oracle import compare_with_tflm, tflm_arena_usage
    row = {"model": name, "board": board, "status": "ok", "inputs_in_arena": False}
    fw = None
    try:
        for in_arena in (False, True):
            row["inputs_in_arena"] = in_arena  # also on the "does not fit" row of the retry
            try:
                fw = harness.build_firmware(board, model=path, name=name, build_root=build_root,
                                            inputs_in_arena=in_arena)
                break
            except harness.ModelTooBig as exc:
                too_big = exc  # retry with the inputs inside the arena: less RAM
        if fw is None:
            return {**row, "status": "does not fit", "reason": str(too_big)}
    except harness.BuildError as exc:
        return {**row, "status": "build failed", "reason": failure_reason(str(exc))}
    plan = fw.model_json()
    sizes = fw.sizes()
    row.update(flash=sizes["flash"], ram=sizes["ram"], arena=plan.get("arena_size"),
               state=plan.get("state_size"), weights=plan.get("weight_bytes"))
    outside = sum(t["bytes"] for t in plan["inputs"] if t.get("arena_offset") is None)
    outside += sum(t["bytes"] for t in plan["outputs"])
    row["model_ram"] = plan["arena_size"] + plan["state_size"] + outside
    row["tflm_ram"] = tflm_arena_usage(path)["total"]
    row["ram_ratio"] = round(row["model_ram"] / row["tflm_ram"], 3)
    figures = []
    try:
        with harness.open_device(fw) as dev:
            specs = [{"dtype": t.dtype, "shape": t.shape} for t in dev.info().inputs]

            def on_device(inputs):
                dev.reset()
                outputs, fig = dev.invoke(inputs)
                figures.append(fig)
                return outputs

            mismatches = compare_with_tflm(path, on_device, specs, calls=calls, seed=seed)
    except harness.HarnessError as exc:
        return {**row, "status": "run failed", "reason": str(exc)}
    row.update(calls=calls, bit_exact=not mismatches,
               instructions=int(statistics.median(f.instructions for f in figures)),
               cycles=int(statistics.median(f.cycles for f in figures)),
               stack=max(f.stack_bytes for f in figures))
    return row


COLUMNS = [("model", "model", "<"), ("board", "board", "<"), ("flash", "flash", ">"),
           ("ram", "ram", ">"), ("arena", "arena", ">"), ("weights", "weights", ">"),
           ("instructions", "instr/inf", ">"), ("stack", "stack", ">"), ("model_ram", "model RAM", ">"),
           ("tflm_ram", "TFLM", ">"), ("ram_ratio", "ratio", ">"), ("exact", "exact", "<")]


def format_table(rows):
    cells = []
    for r in rows:
        if r["status"] != "ok":
            cells.append([r["model"], r["board"], f"{r['status']}: {r.get('reason', '')}"])
            continue
        exact = f"{'yes' if r['bit_exact'] else 'NO'} ({r['calls']})"
        row = [str(r.get(k, "")) if k != "exact" else exact for k, _, _ in COLUMNS]
        if r["inputs_in_arena"]:
            row[0] += " *"
        cells.append(row)
    widths = [max([len(h)] + [len(c[i]) for c in cells if len(c) == len(COLUMNS)])
              for i, (_, h, _) in enumerate(COLUMNS)]
    fmt = lambda vals: "  ".join(f"{v:{a}{w}}" for v, (_, _, a), w in zip(vals, COLUMNS, widths))
    lines = [fmt([h for _, h, _ in COLUMNS]), "  ".join("-" * w for w in widths)]
    for c in cells:
        lines.append(fmt(c) if len(c) == len(COLUMNS) else
                     f"{c[0]:<{widths[0]}}  {c[1]:<{widths[1]}}  {c[2]}")
    if any(r.get("inputs_in_arena") for r in rows):
        lines.append("* inputs placed in the arena (--inputs-in-arena) to fit")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tinyaot bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help=".tflite files (default: own test models"
                        " and ../shared/models)")
    parser.add_argument("--board", action="append", help=f"board(s), default all: {harness.boards()}")
    parser.add_argument("--calls", type=int, default=5, help="random inputs per model (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--build-root", default=str(harness.build.DEFAULT_BUILD_ROOT))
    args = parser.parse_args(argv)

    if args.models:
        models = {model_name(m): Path(m) for m in args.models}
    else:
        models = default_models(args.build_root)
    boards = args.board or harness.boards()
    rows = []
    for name, path in models.items():
        for board in boards:
            rows.append(bench_one(board, name, path, args.calls, args.seed, args.build_root))
            print(f"  {name} on {board}: {rows[-1]['status']}", file=sys.stderr, flush=True)
    print(format_table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0 if all(r["status"] in ("ok", "does not fit") and r.get("bit_exact", True)
                    for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
