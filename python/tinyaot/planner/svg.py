"""The memory plan as a picture: x is the operator step, y the byte offset in the
arena, one labelled rectangle per buffer (half transparent, so that an output written
over its input shows through, the shared bytes hatched), and the lower bounds as
dashed lines: the classic one and the one that counts declared overlaps."""

from html import escape

from tinyaot.planner.greedy import align_up
from tinyaot.planner.lifetimes import limit_words, offset_words

COLORS = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
          "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"]
STEP_W, PLOT_H, LEFT, TOP, BOTTOM, RIGHT = 56, 420, 80, 40, 50, 20


def plan_svg(model):
    buffers = model.buffers
    steps = max((b.last for b in buffers), default=0) + 1
    steps = max(steps, len(model.graph.operators))
    height_bytes = max(model.arena_size, model.lower_bound, 1)
    scale = PLOT_H / height_bytes
    width = LEFT + steps * STEP_W + RIGHT
    y_of = lambda offset: TOP + PLOT_H - offset * scale  # noqa: E731 (offset 0 at the bottom)
    overlap_bound = model.plan.overlap_bound
    overlap_text = "" if overlap_bound == model.lower_bound else f", overlap-aware {overlap_bound} bytes"
    unfused = " (unfused)" if model.fusions else ""
    bound_name = "fused graph's" if model.fusions else "overlap-aware"
    if model.fusions:  # the classic bound is the unfused graph's; the planned graph's is the other line
        overlap_text = (f" unfused; fused graph's bound {overlap_bound} bytes (fused: "
                        + ", ".join(f"operator{'s' if len(f.producers) > 1 else ''} {' and '.join(map(str, f.producers))} into "
                                   f"{f.consumer}" for _, f in sorted(model.fusions.items()))
                        + ")")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{TOP + PLOT_H + BOTTOM}" '
           f'font-family="sans-serif" font-size="10">',
           '<defs><pattern id="shared" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#333" stroke-width="1.5"/>'
           '</pattern></defs>',
           f'<text x="{LEFT}" y="16" font-size="13">{escape(model.options.name)}: arena {model.arena_size} bytes, '
           f'lower bound {model.lower_bound} bytes{overlap_text}</text>',
           f'<text x="{LEFT}" y="31" font-size="11">planned by {escape(model.plan.strategy)}</text>',
           f'<rect x="{LEFT}" y="{TOP}" width="{steps * STEP_W}" height="{PLOT_H}" fill="#fafafa" stroke="#999"/>']
    for i, b in enumerate(sorted(buffers, key=lambda b: (b.first, b.offset, b.name))):
        x, w = LEFT + b.first * STEP_W, (b.last - b.first + 1) * STEP_W
        h = align_up(b.size, model.options.alignment) * scale
        y = y_of(b.offset) - h
        out.append(f'<rect x="{x}" y="{y:.1f}" width="{w}" height="{h:.1f}" fill="{COLORS[i % len(COLORS)]}" '
                   f'fill-opacity="0.6" stroke="#333"><title>{escape(b.name)}: {b.size} bytes at offset '
                   f'{b.offset}, steps {b.first}-{b.last}</title></rect>')
        if h >= 12:
            label = b.name if len(b.name) * 6 <= w - 4 else b.name[:max(1, (w - 4) // 6 - 1)] + "…"
            out.append(f'<text x="{x + 3}" y="{y + 11:.1f}">{escape(label)}</text>')
    out.extend(_shared_bytes(buffers, model.graph, model.options.alignment, y_of))
    if overlap_bound != model.lower_bound:
        ob = y_of(overlap_bound)
        out.append(f'<line x1="{LEFT}" y1="{ob:.1f}" x2="{LEFT + steps * STEP_W}" y2="{ob:.1f}" stroke="#06c" '
                   f'stroke-dasharray="2 3"/><text x="{LEFT + steps * STEP_W}" y="{ob - 3:.1f}" text-anchor="end" '
                   f'fill="#06c">{bound_name} bound {overlap_bound}</text>')
    lb = y_of(model.lower_bound)
    out.append(f'<line x1="{LEFT}" y1="{lb:.1f}" x2="{LEFT + steps * STEP_W}" y2="{lb:.1f}" stroke="#c00" '
               f'stroke-dasharray="6 3"/><text x="{LEFT - 4}" y="{lb + 3:.1f}" text-anchor="end" fill="#c00">'
               f'LB{unfused} {model.lower_bound}</text>')
    if model.arena_size != model.lower_bound:
        top = y_of(model.arena_size)
        out.append(f'<text x="{LEFT - 4}" y="{top + 3:.1f}" text-anchor="end">{model.arena_size}</text>')
    out.append(f'<text x="{LEFT - 4}" y="{TOP + PLOT_H + 3}" text-anchor="end">0</text>')
    for s in range(steps):
        out.append(f'<text x="{LEFT + s * STEP_W + STEP_W / 2}" y="{TOP + PLOT_H + 14}" '
                   f'text-anchor="middle">{s}</text>')
    out.append(f'<text x="{LEFT + steps * STEP_W / 2}" y="{TOP + PLOT_H + 34}" text-anchor="middle">'
               'operator step</text>')
    out.append(f'<text x="14" y="{TOP + PLOT_H / 2}" transform="rotate(-90 14 {TOP + PLOT_H / 2})" '
               'text-anchor="middle">arena offset (bytes)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _shared_bytes(buffers, graph, alignment, y_of):
    """A hatched rectangle where an output shares bytes with its input, at that step."""
    by_tensor = {b.tensor: b for b in buffers if b.tensor is not None}
    out = []
    for b in buffers:
        for t, limit in sorted(b.overlaps.items()):
            inp = by_tensor.get(t)
            lo, hi = max(b.offset, inp.offset), min(b.offset + b.size, inp.offset + inp.size)
            if hi <= lo:
                continue
            y = y_of(hi)
            out.append(f'<rect x="{LEFT + b.first * STEP_W}" y="{y:.1f}" width="{STEP_W}" height="{y_of(lo) - y:.1f}" '
                       f'fill="url(#shared)" stroke="#000" stroke-dasharray="3 2"><title>{escape(b.name)} written '
                       f'over {escape(inp.name)}: {hi - lo} bytes shared at step {b.first} (starts '
                       f'{offset_words(b.offset - inp.offset)}; its kernel allows '
                       f'{limit_words(limit, t in b.exact)})</title></rect>')
    return out
