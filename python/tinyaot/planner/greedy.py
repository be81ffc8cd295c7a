"""Static memory planning: offsets in one arena for every buffer.

Greedy by size: the largest buffers are placed first, each in the smallest gap
between already placed buffers whose lifetimes overlap its own (best fit), or
above them all if no gap fits.
"""


def align_up(n, alignment):
    return (n + alignment - 1) // alignment * alignment


def lower_bound(buffers, alignment):
    """The largest sum of aligned sizes of buffers live at one step."""
    steps = {s for b in buffers for s in (b.first, b.last)}
    return max((sum(align_up(b.size, alignment) for b in buffers if b.first <= s <= b.last) for s in steps),
               default=0)


def plan(buffers, alignment):
    """Sets each buffer's offset; returns the arena size in bytes."""
    placed = []
    for b in sorted(buffers, key=lambda b: (-b.size, b.first, b.name)):
        size = align_up(b.size, alignment)
        best_offset, best_gap = None, None
        top = 0
        for other in sorted((p for p in placed if p.live_with(b)), key=lambda p: p.offset):
            gap = other.offset - top
            if gap >= size and (best_gap is None or gap < best_gap):
                best_offset, best_gap = top, gap
            top = max(top, other.offset + align_up(other.size, alignment))
        b.offset = best_offset if best_offset is not None else top
        placed.append(b)
    return max((b.offset + align_up(b.size, alignment) for b in buffers), default=0)
