"""Runs a link command; when the linker overflows a memory region, adds one
line naming the application's tinyaot models and what would shrink them.

    python link_hint.py --board B --models a.json,b.json [--build-dir D] -- <link command...>

Zephyr's glue (zephyr/CMakeLists.txt) makes this the link launcher. Standard
library only: it runs with whatever Python the build found.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import size_saving

_OVERFLOW_RE = re.compile(r"region `(\w+)' overflowed by (\d+) bytes")


def _io_outside_arena(doc):
    """Bytes of input and output tensors the application keeps outside the arena."""
    return sum(t["bytes"] for key in ("inputs", "outputs") for t in doc.get(key, [])
               if t.get("arena_offset") is None)


def optimize_size_words(overflow, docs, savings):
    """What OPTIMIZE size would do for the models generated for speed: '' when none are;
    savings: model name -> flash bytes saved (measured), None where not measured."""
    fast = [d["name"] for d in docs if d.get("optimize", "speed") == "speed"]
    if not fast:
        return ""
    text = ("; OPTIMIZE size (CONFIG_TINYAOT_OPTIMIZE_SIZE=y, or OPTIMIZE size in tinyaot_add_model) "
            "drops the specialised kernel paths")
    measured = {n: savings[n] for n in fast if savings.get(n) is not None}
    if len(measured) < len(fast):
        return text + f" of {', '.join(fast)} (pixel pairs, loops instantiated per shape): try it"
    total = sum(measured.values())
    text += ": " + ", ".join(f"{b} B less code for {n}" for n, b in measured.items())
    return text + " (measured: the generated C compiled both ways), " + (
        "enough to fit" if total >= overflow else f"{overflow - total} B short of fitting")


def hint(region, overflow, board, docs, savings=None):
    ram = "RAM" in region.upper()  # SRAM on Zephyr 2.5, RAM on 3.x
    parts = []
    for d in docs:
        if ram:
            outside = _io_outside_arena(d)
            parts.append(f"{d['name']} arena {d['arena_size']} + state {d['state_size']}"
                         + (f" (+ {outside} B of inputs/outputs outside the arena)" if outside else ""))
        else:
            parts.append(f"{d['name']} weights and tables {d['weight_bytes'] + d.get('table_bytes', 0)}")
    text = (f"tinyaot: the link overflowed {region} of {board} by {overflow} B; "
            f"the app's models need: {'; '.join(parts)}")
    if ram:
        text += ("; to shrink them: keep inputs in the arena (GENERATOR_ARGS --inputs-in-arena "
                 "in tinyaot_add_model), use a smaller model, or free RAM elsewhere "
                 "(CONFIG_MAIN_STACK_SIZE, buffers); a larger CONFIG_TINYAOT_RAM_RESERVE "
                 "stops such builds before linking")
    else:
        size_words = optimize_size_words(int(overflow), docs, savings or {})
        text += size_words + ("; else" if size_words else ";")
        text += (" use a smaller model or free flash elsewhere; a larger "
                 "CONFIG_TINYAOT_FLASH_RESERVE stops such builds before linking")
    return text


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--board", required=True)
    parser.add_argument("--models", required=True, help="comma-separated <name>.json files")
    parser.add_argument("--build-dir", help="where compile_commands.json is: measures what OPTIMIZE size saves")
    args = parser.parse_args(argv[:split])
    proc = subprocess.run(argv[split + 1:], capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    found = _OVERFLOW_RE.findall(proc.stdout + proc.stderr) if proc.returncode else []
    if found:
        docs, c_files = [], {}
        for path in args.models.split(","):
            with open(path) as f:
                docs.append(json.load(f))
            c_files[docs[-1]["name"]] = os.path.splitext(path)[0] + ".c"
        for region, overflow in dict(found).items():
            savings = {}
            if args.build_dir and "RAM" not in region.upper():
                savings = {d["name"]: size_saving.saving(args.build_dir, c_files[d["name"]]) for d in docs
                           if d.get("optimize", "speed") == "speed"}
            print(hint(region, overflow, args.board, docs, savings), file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
