"""A fuzzing campaign: case i of seed s mutates one source model (chosen by the case's
own random generator) and runs it through tinyaot.fuzz.check, on up to `jobs` processes.
Cases ending in a defect are saved with what was mutated, so they can join the corpus."""

import json
import shutil
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from tinyaot.fuzz.check import run_case
from tinyaot.fuzz.mutate import mutate


def make_case(sources, seed, index):
    """(source name, mutated bytes, description) of case `index`: a pure function of its arguments."""
    rng = np.random.default_rng([seed, index])
    names = sorted(sources)
    name = names[int(rng.integers(len(names)))]
    data, description = mutate(Path(sources[name]).read_bytes(), rng)
    return name, data, description


def _one(args):
    sources, seed, index, work = args
    folder = Path(work) / f"case{index}"
    name, data, description = "?", b"", "?"
    try:
        name, data, description = make_case(sources, seed, index)
        folder.mkdir(parents=True, exist_ok=True)
        model = folder / f"case_{index}_{name}.tflite"
        model.write_bytes(data)
        kind, detail = run_case(model, folder / "work")
    except Exception as e:  # noqa: BLE001 - a mutator bug or a runner that hangs: still one classified case
        kind, detail = "defect-harness", f"{type(e).__name__}: {e}"[:300]
    return {"index": index, "source": name, "mutation": description, "class": kind, "detail": detail,
            "model": data if kind.startswith("defect") else None, "folder": str(folder)}


def run_campaign(sources, cases, seed, work, jobs=2, save=None, log=print):
    """Runs cases 0..cases-1; returns (Counter of classes, list of defect records)."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    counts, defects = Counter(), []
    start = time.monotonic()
    tasks = [(dict(sources), seed, i, str(work)) for i in range(cases)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, result in enumerate(pool.map(_one, tasks, chunksize=4), 1):
            shutil.rmtree(result["folder"], ignore_errors=True)
            counts[result["class"]] += 1
            if result["class"].startswith("defect"):
                defects.append(result)
                log(f"case {result['index']} ({result['source']}): {result['class']}: {result['detail']}\n"
                    f"    mutation: {result['mutation']}")
                if save:
                    _save(Path(save), seed, result)
            if done % 500 == 0:
                log(f"{done}/{cases} cases, {time.monotonic() - start:.0f} s: {dict(sorted(counts.items()))}")
    return counts, defects


def _save(folder, seed, result):
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{result['class'].removeprefix('defect-')}_{seed}_{result['index']:05d}_{result['source']}"
    (folder / f"{stem}.tflite").write_bytes(result["model"])
    record = {k: result[k] for k in ("index", "source", "mutation", "class", "detail")}
    with open(folder / "defects.jsonl", "a") as f:
        f.write(json.dumps(dict(record, seed=seed, file=f"{stem}.tflite")) + "\n")
