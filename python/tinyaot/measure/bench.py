"""`tinyaot bench`: tinyaot and TFLM on the same QEMU board, in the same run.

For each model x board, four firmwares run N random inputs and are checked
against TFLite Micro (the tflite-micro package):

  tinyaot-portable   tinyaot's generated C with its own kernels
  tinyaot-cmsis-nn   tinyaot with --kernels cmsis-nn
  tflm-reference     TFLM's interpreter with its reference kernels
  tflm-cmsis-nn      TFLM with its CMSIS-NN kernels (what Cortex-M users run today)

--optimize size measures tinyaot's code generated with --optimize size (rows
"tinyaot-... size"); give --optimize speed --optimize size for both.

The TFLM firmwares are TFLM's MicroInterpreter behind the same serial runner
(firmware/tflm_runner), built from TINYAOT_TFLM_DIR (default
../shared/third_party/tflite-micro) at the same -O2 for the same core. Columns:

  flash    .text (code, rodata, weights or the model flatbuffer) + .data of the
           whole firmware (runner and startup included, the same for all four)
  RAM      what inference needs: tinyaot's arena + state + input/output tensors
           outside the arena, TFLM's arena_used_bytes() after AllocateTensors() on
           the board; plus the stack high-water mark of one inference
  instr    instructions per inference (median), counted by QEMU -icount
  exact    outputs bit-exact with TFLM over all N calls: TFLM on the host; for a model
           with float32 outputs TFLM on the same board (tflm-reference's outputs,
           "(board)"), since libm differs between the boards' newlib and the host;
           where TFLM does not fit the board, TFLM's reference kernels built with the
           board's CPU flags (same -mcpu, newlib multilib and libm) and run on a bigger
           QEMU machine with the same core ("(same -mcpu on mps2_an385)", SAME_CORE_MACHINE;
           TFLM's rows still say "does not fit": nothing of that machine is measured);
           failing that, TFLM on the host ("(host)")
  ulp host the largest distance in ulps of a float32 output from TFLM on the host
  x        ratio to tflm-cmsis-nn on the same board (flash, RAM, instructions)
  as arena model RAM counted the way TFLM counts its arena (everything its arena
           holds: intermediate tensors, variable tensors, inputs and outputs; no
           stack): tinyaot's arena + state + outputs with the inputs in the arena
           (--inputs-in-arena: TFLM keeps its inputs in its arena too, and this
           layout never needs more; the plan is compiled on the host with the
           firmware's options when the row's firmware keeps its inputs outside),
           or the row's model RAM if that is smaller; TFLM's arena_used_bytes()
  arena x  "as arena" / the smaller of the two TFLM flavours' arena_used_bytes()
           on the same board (the stricter of the two baselines)

A tinyaot model that does not fit with its own input buffers is built again with
--inputs-in-arena (marked "*"); a firmware that still does not fit (or TFLM's
AllocateTensors() failing in the board's free RAM) is listed as such: a result.
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

import numpy as np

from tinyaot import harness
from tinyaot.backends import OPTIMIZE
from tinyaot.harness.build import REPO, failure_reason
from tinyaot.host.oracle import ulps

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


VARIANTS = ("tinyaot-portable", "tinyaot-cmsis-nn", "tflm-reference", "tflm-cmsis-nn")
BASELINE = "tflm-cmsis-nn"
# Where TFLM runs, built with a small board's CPU flags, when it does not fit that board: a
# QEMU machine with the same core and 4 MB of flash and RAM. Armv6-M code (the M0's, with its
# multilib's libm) runs unchanged on the AN385's Cortex-M3, so the float32 bits are the M0's.
SAME_CORE_MACHINE = {"qemu_cortex_m0": "mps2_an385", "qemu_cortex_m3": "mps2_an385"}


def bench_one(board, name, path, calls, seed, build_root, kernels="portable", optimize="speed"):
    """Row of tinyaot with `kernels` (portable or cmsis-nn), generated with --optimize `optimize`,
    for a model on a board."""
    row = {"model": name, "board": board, "variant": f"tinyaot-{kernels}" + ("" if optimize == "speed" else " size"),
           "status": "ok", "inputs_in_arena": False, "optimize": optimize}
    fw = None
    try:
        for in_arena in (False, True):
            row["inputs_in_arena"] = in_arena  # also on the "does not fit" row of the retry
            try:
                fw = harness.build_firmware(board, model=path, name=name, build_root=build_root,
                                            inputs_in_arena=in_arena, kernels=kernels, optimize=optimize)
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
               state=plan.get("state_size"), weights=plan.get("weight_bytes"),
               float32=any(t["dtype"] == "float32" for t in plan["inputs"] + plan["outputs"]))
    outside = sum(t["bytes"] for t in plan["inputs"] if t.get("arena_offset") is None)
    outside += sum(t["bytes"] for t in plan["outputs"])
    row["model_ram"] = plan["arena_size"] + plan["state_size"] + outside
    row["ram_as_arena"] = row["model_ram"] if row["inputs_in_arena"] else \
        min(row["model_ram"], ram_with_inputs_in_arena(path, plan))
    return _run_on_device(row, fw, path, calls, seed)


def ram_with_inputs_in_arena(path, plan):
    """arena + state + outputs of the model compiled as `plan` was but with --inputs-in-arena."""
    from tinyaot.compiler import Options, compile_model
    cpu = {"cpu": plan["cpu"]} if plan.get("cpu") else {}  # the report names the core where the code depends on it
    model = compile_model(path, Options(plan["name"], alignment=plan["alignment"], inputs_in_arena=True,
                                        kernels=plan["kernels"], fusion=plan["fusion"], **cpu))
    return model.arena_size + model.state_size + sum(model.graph.tensors[t].nbytes for t in model.graph.outputs)


def bench_tflm(board, name, path, kernels, calls, seed, build_root, cpu_board=None):
    """Row of TFLM with `kernels` (reference or cmsis-nn) for a model on a board
    (compiled with cpu_board's CPU flags if given)."""
    row = {"model": name, "board": board, "variant": f"tflm-{kernels}", "status": "ok"}
    try:
        fw = harness.build_tflm_firmware(board, path, name, kernels=kernels, build_root=build_root,
                                         cpu_board=cpu_board)
    except harness.ModelTooBig as exc:
        return {**row, "status": "does not fit", "reason": str(exc)}
    except harness.BuildError as exc:
        return {**row, "status": "build failed", "reason": failure_reason(str(exc))}
    sizes = fw.sizes()
    row.update(flash=sizes["flash"], ram=sizes["ram"])
    return _run_on_device(row, fw, path, calls, seed)


def _run_on_device(row, fw, path, calls, seed):
    """Runs `calls` random inputs on the firmware and in TFLM; fills in the figures."""
    started = False
    try:
        with harness.open_device(fw) as dev:
            started = True
            info = dev.info()
            if not info.inputs:  # the TFLM firmware: AllocateTensors() failed (the reason is in the text)
                return {**row, "status": "does not fit", "reason": f"{info.generator_version} on {fw.board}"}
            if row["variant"].startswith("tflm-"):
                row["model_ram"] = row["ram_as_arena"] = info.arena_size  # arena_used_bytes() on the board
            outputs = []
            mismatches, figures = dev.compare_with_tflm(path, calls=calls, seed=seed, outputs=outputs)
    except (harness.DeviceTimeout, harness.DeviceFault) as exc:
        if row["variant"].startswith("tflm-") and not started:
            # Measured: TFLM's release build loops (or faults) in its memory planner when the
            # arena is a little short, instead of failing AllocateTensors() (keyword_scrambled, M0).
            free = fw.config["ram_size"] - fw.config["stack_size"] - row["ram"]  # bench_tflm measured it
            return {**row, "status": "does not fit",
                    "reason": f"TFLM's AllocateTensors() in the {free} B of free RAM of {fw.board} never returned"}
        return {**row, "status": "run failed", "reason": str(exc)}
    except harness.HarnessError as exc:
        return {**row, "status": "run failed", "reason": str(exc)}
    floats = [m for m in mismatches if np.asarray(m[3]).dtype == np.float32]
    row.update(calls=calls, bit_exact=not mismatches, outputs=outputs,
               host_ulps=max((int(ulps(m[2], m[3]).max()) for m in floats), default=0),
               instructions=int(statistics.median(f.instructions for f in figures)),
               cycles=int(statistics.median(f.cycles for f in figures)),
               stack=max(f.stack_bytes for f in figures))
    row["ram_total"] = row["model_ram"] + row["stack"]
    return row


def _float_outputs(row):
    """Whether a row that ran has float32 outputs."""
    outputs = row.get("outputs")
    return bool(outputs) and any(np.asarray(o).dtype == np.float32 for o in outputs[0])


def same_core_references(rows, models, calls, seed, build_root):
    """{(model, board): TFLM's reference row run on SAME_CORE_MACHINE[board], built with the board's
    CPU flags} for each model with float32 outputs whose tflm-reference does not fit its board."""
    floats = {(r["model"], r["board"]) for r in rows if _float_outputs(r)}
    references = {}
    for r in rows:
        group, machine = (r["model"], r["board"]), SAME_CORE_MACHINE.get(r["board"])
        if r["variant"] != "tflm-reference" or r["status"] != "does not fit" or group not in floats or not machine:
            continue
        ref = bench_tflm(machine, r["model"], models[r["model"]], "reference", calls, seed, build_root,
                         cpu_board=r["board"])
        print(f"  {r['model']} on {r['board']}, tflm-reference with its -mcpu on {machine}: {ref['status']}"
              + (f" ({ref['reason']})" if ref["status"] != "ok" else ""), file=sys.stderr, flush=True)
        if ref["status"] == "ok":
            references[group] = ref
    return references


def compare_on_board(rows, same_core=None):
    """For models with float32 outputs: each row's bit_exact against tflm-reference's outputs on
    the same board (the like-for-like check; verdict "board"), where that row ran; where it did not
    (TFLM does not fit the board), against same_core's reference row (same_core_references: the
    board's -mcpu on a bigger machine, verdict "same -mcpu on <machine>"); failing both, against
    TFLM on the host, said so (verdict "host")."""
    reference = {(r["model"], r["board"]): r for r in rows if r["variant"] == "tflm-reference" and r["status"] == "ok"}
    reference = {**(same_core or {}), **reference}
    for r in rows:
        ref = reference.get((r["model"], r["board"]))
        outputs = r.get("outputs")
        if not _float_outputs(r):
            continue
        r["verdict"] = "host" if ref is None else "board" if ref["board"] == r["board"] else \
            f"same -mcpu on {ref['board']}"
        if ref is None:
            continue
        r["bit_exact"] = all(np.asarray(a).tobytes() == np.asarray(b).tobytes()
                             for got, want in zip(outputs, ref["outputs"]) for a, b in zip(got, want))
    for r in rows:
        r.pop("outputs", None)
    return rows


def add_ratios(rows):
    """flash_x, ram_x, instr_x of every measured row: its figure / tflm-cmsis-nn's on the same board;
    arena_x: its RAM counted as TFLM's arena / the smaller TFLM arena on the same board."""
    base = {(r["model"], r["board"]): r for r in rows if r["variant"] == BASELINE and r["status"] == "ok"}
    tflm_arena = {}
    for r in rows:
        if r["variant"].startswith("tflm-") and r["status"] == "ok":
            group = (r["model"], r["board"])
            tflm_arena[group] = min(tflm_arena.get(group, r["model_ram"]), r["model_ram"])
    for r in rows:
        b = base.get((r["model"], r["board"]))
        if b is not None and r["status"] == "ok":
            for key, col in (("flash", "flash_x"), ("ram_total", "ram_x"), ("instructions", "instr_x")):
                r[col] = round(r[key] / b[key], 2)
        arena = tflm_arena.get((r["model"], r["board"]))
        if arena and r["status"] == "ok":
            r["arena_x"] = round(r["ram_as_arena"] / arena, 2)
    return rows


COLUMNS = [("model", "model", "<"), ("board", "board", "<"), ("variant", "variant", "<"),
           ("flash", "flash", ">"), ("ram_total", "RAM", ">"), ("instructions", "instr/inf", ">"),
           ("exact", "exact", "<"), ("host_ulps", "ulp host", ">"), ("flash_x", "flash x", ">"), ("ram_x", "RAM x", ">"),
           ("instr_x", "instr x", ">"), ("ram_as_arena", "as arena", ">"), ("arena_x", "arena x", ">"),
           ("detail", "RAM = data + stack", "<")]


def _detail(r):
    if r["variant"].startswith("tflm-"):
        return f"arena_used {r['model_ram']} + stack {r['stack']}"
    return (f"arena {r['arena']} + state {r['state']} + I/O {r['model_ram'] - r['arena'] - r['state']}"
            f" + stack {r['stack']}")


def format_table(rows, notes=()):
    """One line per model x board x variant; a row that did not run says why."""
    cells, seen = [], set()
    for r in rows:
        group = (r["model"], r["board"])
        lead = [r["model"] + (" *" if r.get("inputs_in_arena") else "") + (" f" if r.get("float32") else ""),
                r["board"]] \
            if group not in seen else ["", ""]
        seen.add(group)
        if r["status"] != "ok":
            cells.append(lead + [r["variant"], f"{r['status']}: {r.get('reason', '')}"])
            continue
        against = f"{r['calls']}, {r['verdict']}" if r.get("verdict") else r["calls"]
        values = {**r, "exact": f"{'yes' if r['bit_exact'] else 'NO'} ({against})", "detail": _detail(r),
                  "host_ulps": r["host_ulps"] if r.get("verdict") else ""}
        cells.append(lead[:2] + [str(values.get(k, "")) for k, _, _ in COLUMNS[2:]])
    full = [c for c in cells if len(c) == len(COLUMNS)]
    widths = [max([len(h)] + [len(c[i]) for c in full] + [len(c[i]) for c in cells if i < 3])
              for i, (_, h, _) in enumerate(COLUMNS)]
    fmt = lambda vals: "  ".join(f"{v:{a}{w}}" for v, (_, _, a), w in zip(vals, COLUMNS, widths)).rstrip()
    lines = [fmt([h for _, h, _ in COLUMNS]), "  ".join("-" * w for w in widths)]
    for c in cells:
        lines.append(fmt(c) if len(c) == len(COLUMNS) else
                     f"{c[0]:<{widths[0]}}  {c[1]:<{widths[1]}}  {c[2]:<{widths[2]}}  {c[3]}")
    if any(r.get("inputs_in_arena") and r["status"] == "ok" for r in rows):
        lines.append("* tinyaot with its inputs placed in the arena (--inputs-in-arena) to fit")
    if any(r.get("float32") and r["status"] == "ok" for r in rows):
        lines.append("f float32 I/O: libgcc's soft-float on the Cortex-M0/M3 (no FPU); on the MPS2 boards the FPU,"
                     " hard float with -ffp-contract=off (TFLM built the same)")
    if any(r.get("verdict") == "board" for r in rows):
        lines.append("exact (N, board): float32 outputs bit for bit against TFLM's reference kernels on the same"
                     " board (the same libm); ulp host: the largest distance from TFLM on the host, in ulps")
    machines = sorted({r["verdict"].split(" on ")[1] for r in rows if r.get("verdict", "").startswith("same -mcpu")})
    if machines:
        lines.append(f"exact (N, same -mcpu on {'/'.join(machines)}): TFLM does not fit this board; float32 outputs"
                     " bit for bit against TFLM's reference kernels built with the board's CPU flags (the same"
                     " -mcpu, newlib multilib and libm) and run on that QEMU machine, a Cortex-M3 with 4 MB of"
                     " flash and RAM (Armv6-M code runs unchanged there); nothing of it is measured")
    if any(r.get("verdict") == "host" for r in rows):
        lines.append("exact (N, host): float32 outputs against TFLM on the host, no TFLM firmware fitting this board to"
                     " compare with (its newlib libm and soft-float differ from the host's: see ulp host)")
    lines.append(f"x: ratio to {BASELINE} on the same board (flash, RAM, instructions)")
    if any("arena_x" in r for r in rows):
        lines.append("as arena: model RAM counted as TFLM counts its arena (tinyaot with its inputs in the arena);"
                     " arena x: that / the smaller TFLM arena_used on the same board")
    lines += list(notes)
    return "\n".join(lines)


def available_variants(wanted):
    """The wanted variants this machine can build, and a note for each one it cannot."""
    notes, variants = [], []
    cmsis = harness.cmsis_nn_dir()
    for v in wanted:
        if v.startswith("tflm-") and harness.tflm_dir() is None:
            notes.append(f"{v}: no TFLM source tree: set TINYAOT_TFLM_DIR to a tflite-micro tree"
                         f" (github.com/tensorflow/tflite-micro) or provide {harness.build.SHARED_TFLM}")
        elif v.endswith("cmsis-nn") and cmsis is None:
            notes.append(f"{v}: no CMSIS-NN: set TINYAOT_CMSIS_NN_DIR to a CMSIS-NN v7.0.0 tree"
                         f" or provide {harness.build.SHARED_CMSIS_NN}")
        else:
            variants.append(v)
    return variants, notes


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tinyaot bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help=".tflite files (default: own test models"
                        " and ../shared/models)")
    default_boards = [b for b in harness.boards() if b not in SAME_CORE_MACHINE.values()]
    parser.add_argument("--board", action="append", help=f"board(s), default {default_boards} (not"
                        f" {sorted(set(SAME_CORE_MACHINE.values()))}, where TFLM runs when it does not fit)")
    parser.add_argument("--variant", action="append", choices=VARIANTS,
                        help="what to measure (repeatable; default all four)")
    parser.add_argument("--kernels", action="append", choices=("portable", "cmsis-nn"),
                        help="tinyaot with this kernel backend (the same as --variant tinyaot-K)")
    parser.add_argument("--optimize", action="append", choices=OPTIMIZE,
                        help="tinyaot's code optimised for speed (default) or size; repeat for both")
    parser.add_argument("--calls", type=int, default=5, help="random inputs per model (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--build-root", default=str(harness.build.DEFAULT_BUILD_ROOT))
    parser.add_argument("--shared-arena", metavar="GROUP",
                        help="the models (two or more) in one firmware sharing one arena: the group's RAM next to "
                             "separate arenas', alternating runs against TFLM (tinyaot.measure.shared_arena)")
    args = parser.parse_args(argv)
    if args.shared_arena and len(args.models) < 2:
        parser.error("--shared-arena needs two or more models")

    if args.models:
        models = {model_name(m): Path(m) for m in args.models}
        runs_on = lambda name, board: True  # noqa: E731 (what the user asked for)
    else:
        from tinyaot.testing import catalog  # the boards the full target matrix runs each model on
        runs_on = lambda name, board: catalog.runs_on(name, board, full_matrix=True)  # noqa: E731
        models = default_models(args.build_root)
    boards = args.board or default_boards
    if args.shared_arena:
        from tinyaot.measure.shared_arena import run
        rows, status = run(args.shared_arena, models, boards, args.calls, args.seed, args.build_root)
        if args.json:
            Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
        return status
    wanted = (args.variant or []) + [f"tinyaot-{k}" for k in args.kernels or []]
    variants, notes = available_variants([v for v in VARIANTS if v in wanted] if wanted else VARIANTS)
    for note in notes:
        print(f"  skipped {note}", file=sys.stderr, flush=True)
    rows = []
    for name, path in models.items():
        for board in (b for b in boards if runs_on(name, b)):
            for variant in variants:
                family, kernels = variant.split("-", 1)
                if family == "tinyaot":
                    these = [bench_one(board, name, path, args.calls, args.seed, args.build_root, kernels, o)
                             for o in args.optimize or ["speed"]]
                else:
                    these = [bench_tflm(board, name, path, kernels, args.calls, args.seed, args.build_root)]
                for row in these:
                    rows.append(row)
                    print(f"  {name} on {board}, {row['variant']}: {row['status']}", file=sys.stderr, flush=True)
    add_ratios(compare_on_board(rows, same_core_references(rows, models, args.calls, args.seed, args.build_root)))
    print(format_table(rows, notes))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0 if all(r["status"] in ("ok", "does not fit") and r.get("bit_exact", True)
                    for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
