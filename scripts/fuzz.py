#!/usr/bin/env python3
"""Fuzz tinyaot compile: structured mutations of the project's own test models and of
the published models in ../shared/models (when present), each case classified as a
clean error, a TFLM-exact success, or a defect. Prints the counts per class and the time.

    scripts/fuzz.py --cases 10000 --seed 1 --jobs 2 --save fuzz-defects/
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from tinyaot.fuzz.campaign import run_campaign  # noqa: E402
from tinyaot.testing import catalog  # noqa: E402


def sources(folder, shared):
    found = {n: str(p) for n, p in catalog.build_all(folder).items()}
    if shared.is_dir():
        found.update({p.stem: str(p) for p in sorted(shared.glob("*.tflite"))})
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--save", type=Path, help="folder for the models of defect cases, with defects.jsonl")
    parser.add_argument("--no-shared", action="store_true", help="only the project's own models")
    args = parser.parse_args()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tinyaot-fuzz-") as tmp:
        models = sources(Path(tmp) / "models", Path("/nonexistent") if args.no_shared else
                         ROOT.parent / "shared" / "models")
        counts, defects = run_campaign(models, args.cases, args.seed, Path(tmp) / "work", args.jobs, args.save)
    elapsed = time.monotonic() - start
    print(f"{args.cases} cases (seed {args.seed}, {len(models)} source models, {args.jobs} jobs) "
          f"in {elapsed:.0f} s")
    for kind, n in sorted(counts.items()):
        print(f"  {kind:28s} {n}")
    print(f"  defects                      {len(defects)}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
