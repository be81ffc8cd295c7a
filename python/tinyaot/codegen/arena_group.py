"""Models that never run at the same time share one arena.

Each model of a group is generated as usual but names the group's arena,
tinyaot_<group>_arena, instead of defining its own; this module writes the
group's files: tinyaot_<group>_arena.c defining the arena with the size of the
largest need (and the overlap guard), tinyaot_<group>_arena.h and a JSON with
the group's RAM next to the sum of separate arenas. Variable tensors (state)
stay per model.
"""

import json
from pathlib import Path

from tinyaot.codegen.emit import _templates, _write
from tinyaot.errors import TinyAotError


def group_figures(group, plans):
    """The group's sizes from its models' plans (the <name>.json of each)."""
    alignments = {p["alignment"] for p in plans}
    if len(alignments) != 1:
        each = ", ".join(f"{p['name']} {p['alignment']}" for p in plans)
        raise TinyAotError(f"arena group '{group}': the models have different alignments ({each}); give them one")
    arena = max(p["arena_size"] for p in plans)
    separate = sum(p["arena_size"] for p in plans)
    state = sum(p["state_size"] for p in plans)
    return {"group": group, "models": [p["name"] for p in plans], "alignment": alignments.pop(),
            "arena_size": arena, "separate_arenas": separate, "state_size": state,
            "ram": arena + state, "ram_separate": separate + state,
            "arenas": {p["name"]: p["arena_size"] for p in plans}}


def emit_group(group, plans, out_dir, arena_section=None):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = group_figures(group, plans)
    values = {**figures, "GROUP": group.upper(), "prefix": f"tinyaot_{group}", "arena_section": arena_section}
    for template in ("arena_group.c.j2", "arena_group.h.j2"):
        suffix = template.split(".")[1]
        _write(out / f"tinyaot_{group}_arena.{suffix}", _templates().get_template(template).render(**values))
    _write(out / f"tinyaot_{group}_arena.json", json.dumps(figures, indent=2, sort_keys=True) + "\n")
    return figures


def emit_group_from_plans(group, plan_files, out_dir, arena_section=None):
    plans = []
    for path in plan_files:
        try:
            plans.append(json.loads(Path(path).read_text()))
        except (OSError, ValueError) as e:
            raise TinyAotError(f"cannot read a model's plan: {e}", file=path) from None
    return emit_group(group, plans, out_dir, arena_section)
