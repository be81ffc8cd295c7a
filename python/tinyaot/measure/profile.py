"""`tinyaot profile`: where a model's time goes on a board, operator by operator.

Builds the serial-runner firmware with the generated run()'s profile hook on
(TINYAOT_PROFILE_HOOK: it records the counter before every operator step), runs
one inference on random inputs (checked against TFLM) and prints instructions
per operator and per kernel, and instructions per multiply-accumulate for
convolutions and fully connected layers. Under QEMU the figures are
instructions (-icount); on a real board (--serial-port) they are counter ticks.
The hook's own cost is measured on the device and taken out of every step; the
table says how much that was and what was spent outside the operators.
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from tinyaot import harness
from tinyaot.backends import KERNEL_BACKENDS
from tinyaot.measure.bench import model_name
from tinyaot.codegen.emit import step_title


def macs(graph, op):
    """Multiply-accumulates of one operator (0 where it has none to speak of)."""
    out = graph.tensors[op.outputs[0]]
    if op.type == "CONV_2D":
        w = graph.tensors[op.inputs[1]].shape
        return out.num_elements * w[1] * w[2] * w[3]
    if op.type == "DEPTHWISE_CONV_2D":
        w = graph.tensors[op.inputs[1]].shape
        return out.num_elements * w[1] * w[2]
    if op.type == "FULLY_CONNECTED":
        return out.num_elements * graph.tensors[op.inputs[1]].shape[1]
    return 0


def profile_model(path, name, board, kernels="portable", seed=0, serial_port=None, flash_command=None):
    """Returns a dict: per-step rows, totals and the hook's cost, for one inference."""
    import numpy as np

    from tinyaot.compiler import Options, compile_model
    inputs_in_arena = False
    try:
        fw = harness.build_firmware(board, model=path, name=name, kernels=kernels, profile=True)
    except harness.ModelTooBig:
        inputs_in_arena = True  # less RAM: the inputs inside the arena, as bench does
        fw = harness.build_firmware(board, model=path, name=name, kernels=kernels, profile=True,
                                    inputs_in_arena=True)
    # The firmware's own options: the core decides the cmsis-nn backend's kernels (its plan names it).
    cpu = {"cpu": fw.model_json()["cpu"]} if fw.model_json().get("cpu") else {}
    model = compile_model(path, Options(name, inputs_in_arena=inputs_in_arena, kernels=kernels, **cpu))
    with harness.open_device(fw, serial_port=serial_port, flash_command=flash_command, run_timeout=300) as dev:
        mismatches, figures = dev.compare_with_tflm(path, calls=1, seed=seed)
        prof = dev.profile()
    unit = "instructions" if prof.instructions is not None else "cycles"
    per_step = prof.instructions if prof.instructions is not None else prof.cycles
    hook = prof.hook_instructions if prof.instructions is not None else prof.hook_cycles
    total = figures[0].instructions if prof.instructions is not None else figures[0].cycles
    rows = []
    fused_in = {k for f in model.fusions.values() for k in f.producers}
    for (op, calls), cost in zip(model.calls, per_step):
        if op.index in fused_in:
            continue  # runs inside its consumer's step (passes/fusion.py): no code, no row of its own
        n = macs(model.graph, op)
        if op.index in model.fusions:  # one row: every fused operator's work, and the empty steps' few instructions
            for producer in model.fusions[op.index].producers:
                n += macs(model.graph, model.graph.operators[producer])
                cost += per_step[producer]
        rows.append({"step": op.index, "type": step_title(model, op), "kernels": [c.kernel for c in calls],
                     unit: cost, "macs": n, f"{unit}_per_mac": round(cost / n, 2) if n else None})
    outside = total - sum(per_step) - hook * (len(per_step) + 1)
    return {"model": name, "board": board, "kernels": kernels, "unit": unit, "total": total,
            "hook": hook, "hook_calls": len(per_step) + 1, "outside_operators": outside, "steps": rows,
            "bit_exact": not mismatches,
            "inputs_in_arena": inputs_in_arena, "macs": int(np.sum([r["macs"] for r in rows]))}


def format_profile(p):
    unit, total = p["unit"], p["total"]
    lines = [f"{p['model']} on {p['board']} ({p['kernels']} kernels): {total:,} {unit} per inference, "
             f"{'bit-exact with TFLM' if p['bit_exact'] else 'DIFFERS FROM TFLM'}",
             f"  {'step':>4}  {'operator':<22} {'kernel':<36} {unit:>12} {'%':>6} {'MACs':>11} {'per MAC':>8}"]
    for r in p["steps"]:
        cost = r[unit]
        per_mac = f"{r[f'{unit}_per_mac']:.2f}" if r["macs"] else ""
        lines.append(f"  {r['step']:>4}  {r['type']:<22} {', '.join(r['kernels']) or '(view)':<36} {cost:>12,} "
                     f"{100 * cost / total:>6.1f} {r['macs'] or '':>11} {per_mac:>8}")
    by_kernel = defaultdict(lambda: [0, 0, 0])
    for r in p["steps"]:
        for k in r["kernels"][:1] or ["(view)"]:
            by_kernel[k][0] += 1
            by_kernel[k][1] += r[unit]
            by_kernel[k][2] += r["macs"]
    lines.append(f"\n  {'kernel':<36} {'calls':>5} {unit:>12} {'%':>6} {'per MAC':>8}")
    for k, (n, cost, m) in sorted(by_kernel.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"  {k:<36} {n:>5} {cost:>12,} {100 * cost / total:>6.1f} "
                     f"{f'{cost / m:.2f}' if m else '':>8}")
    lines.append(f"\n  profile hook: {p['hook']} {unit} per call, {p['hook_calls']} calls, taken out; "
                 f"outside the operators (argument checks, call overhead): {p['outside_operators']} {unit}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tinyaot profile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", help=".tflite file")
    parser.add_argument("--board", action="append", help=f"board(s), default all: {harness.boards()}")
    parser.add_argument("--kernels", default="portable", choices=KERNEL_BACKENDS)
    parser.add_argument("--seed", type=int, default=0, help="seed of the random input")
    parser.add_argument("--serial-port", help="a real board on this port instead of QEMU")
    parser.add_argument("--flash-command", help="flashes the board ({elf} and {bin} are replaced)")
    parser.add_argument("--json", help="also write the profiles to this JSON file")
    args = parser.parse_args(argv)
    profiles = []
    for board in args.board or harness.boards():
        try:
            profiles.append(profile_model(args.model, model_name(args.model), board, args.kernels, args.seed,
                                          args.serial_port, args.flash_command))
        except harness.ModelTooBig as exc:
            print(f"{args.model} on {board}: does not fit: {exc}\n")
            continue
        except harness.HarnessError as exc:
            print(f"tinyaot profile: {board}: {exc}", file=sys.stderr)
            return 1
        print(format_profile(profiles[-1]) + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(profiles, indent=2) + "\n")
    return 0 if all(p["bit_exact"] for p in profiles) else 1


if __name__ == "__main__":
    sys.exit(main())
