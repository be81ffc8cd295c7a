"""`tinyaot bench --shared-arena GROUP A.tflite B.tflite ...`: models that share one arena.

Per board, the serial runner is built with all the models twice: each with its own
arena, and all in the arena of GROUP. The table gives the group's arena next to the
sum of the separate arenas, the models' RAM (arenas + state) both ways, the
firmware's RAM and flash (.data + .bss, .text + .data of the ELF) both ways ("-"
and a note when only the group fits the board), and whether runs that alternate
between the models (each call of one model after a run of every other) are
bit-exact with TFLM.
"""

import sys

import numpy as np

from tinyaot import harness
from tinyaot.harness.build import failure_reason
from tinyaot.host.oracle import compare_with_tflm, random_inputs


def alternating_mismatches(dev, paths, calls, seed):
    """Each model of the firmware (SELECT order) against TFLM, every call preceded by a
    run of each other model on random inputs; stateful models keep their state between
    their own calls, as TFLM's interpreter does. Returns {index: mismatches}."""
    rng = np.random.default_rng(seed)
    specs, stateful = [], []
    for i in range(len(paths)):
        dev.select(i)
        specs.append([{"dtype": t.dtype, "shape": t.shape} for t in dev.info().inputs])
        stateful.append(dev.info().state_size > 0)
    result = {}
    for i, path in enumerate(paths):
        dev.select(i)
        dev.reset()  # a fresh start, as the interpreter's; other models' state may move meanwhile

        def run(inputs, i=i):
            for j in range(len(paths)):
                if j != i:
                    dev.select(j)
                    dev.invoke(random_inputs(specs[j], rng))
            dev.select(i)
            return dev.invoke(inputs)[0]
        result[i] = compare_with_tflm(path, run, specs[i], calls=calls, seed=seed, reset_between=not stateful[i])
    return result


def bench_group(board, group, models, calls, seed, build_root):
    names, paths = list(models), list(models.values())
    row = {"board": board, "group": group, "models": names, "status": "ok"}
    built, unfit = {}, {}
    for arena_group in (None, group):
        try:
            built[arena_group] = harness.build_firmware(board, model=paths[0], name=names[0], build_root=build_root,
                                                        more_models=list(zip(names[1:], paths[1:])),
                                                        arena_group=arena_group)
        except harness.BuildError as exc:
            unfit[arena_group] = failure_reason(str(exc))
    if group in unfit:
        return {**row, "status": "build failed", "reason": unfit[group]}
    figures = built[group].arena_group_json()
    shared = built[group].sizes()
    separate = built[None].sizes() if None in built else {"ram": None, "flash": None}
    row.update(arenas=figures["arenas"], arena=figures["arena_size"], separate_arenas=figures["separate_arenas"],
               state=figures["state_size"], model_ram=figures["ram"], model_ram_separate=figures["ram_separate"],
               ram=shared["ram"], ram_separate=separate["ram"], flash=shared["flash"],
               flash_separate=separate["flash"], separate_failed=unfit.get(None))
    try:
        with harness.open_device(built[group]) as dev:
            mismatches = alternating_mismatches(dev, paths, calls, seed)
    except harness.HarnessError as exc:
        return {**row, "status": "run failed", "reason": str(exc)}
    row.update(calls=calls, bit_exact=not any(mismatches.values()))
    return row


COLUMNS = [("board", "board", "<"), ("arena", "group arena", ">"), ("separate_arenas", "separate arenas", ">"),
           ("state", "state", ">"), ("model_ram", "model RAM", ">"), ("model_ram_separate", "separate", ">"),
           ("ram", "firmware RAM", ">"), ("ram_separate", "separate", ">"), ("flash", "flash", ">"),
           ("flash_separate", "separate", ">"), ("exact", "exact", "<")]


def format_table(group, names, rows):
    cells = []
    for r in rows:
        if r["status"] != "ok":
            cells.append(None)
            continue
        exact = f"{'yes' if r['bit_exact'] else 'NO'} ({r['calls']})"
        cells.append([exact if k == "exact" else "-" if r[k] is None else str(r[k]) for k, _, _ in COLUMNS])
    widths = [max([len(h)] + [len(c[i]) for c in cells if c]) for i, (_, h, _) in enumerate(COLUMNS)]
    widths[0] = max([widths[0]] + [len(r["board"]) for r in rows])
    fmt = lambda vals: "  ".join(f"{v:{a}{w}}" for v, (_, _, a), w in zip(vals, COLUMNS, widths))
    lines = [f"arena group {group}: {', '.join(names)} (RAM and flash in bytes; 'separate': one arena each)",
             fmt([h for _, h, _ in COLUMNS]), "  ".join("-" * w for w in widths)]
    for r, c in zip(rows, cells):
        lines.append(fmt(c) if c else f"{r['board']:<{widths[0]}}  {r['status']}: {r.get('reason', '')}")
    lines += [f"{r['board']}: with one arena each the firmware does not build: {r['separate_failed']}"
              for r in rows if r.get("separate_failed")]
    return "\n".join(line.rstrip() for line in lines)


def run(group, models, boards, calls, seed, build_root):
    """The rows of every board, printed as a table; the exit code (0 when all ran bit-exact)."""
    rows = []
    for board in boards:
        rows.append(bench_group(board, group, models, calls, seed, build_root))
        print(f"  group {group} on {board}: {rows[-1]['status']}", file=sys.stderr, flush=True)
    print(format_table(group, list(models), rows))
    return rows, 0 if all(r["status"] == "ok" and r["bit_exact"] for r in rows) else 1
