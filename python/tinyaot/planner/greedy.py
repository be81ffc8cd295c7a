"""Placing buffers one after another: each goes into a gap between already placed
buffers whose lifetimes overlap its own (best fit: the smallest gap that holds it;
first fit: the lowest), or above them all."""


def align_up(n, alignment):
    return (n + alignment - 1) // alignment * alignment


def lower_bound(buffers, alignment):
    """The largest sum of aligned sizes of buffers live at one step."""
    steps = {s for b in buffers for s in (b.first, b.last)}
    return max((sum(align_up(b.size, alignment) for b in buffers if b.first <= s <= b.last) for s in steps),
               default=0)


def arena_size(buffers, alignment):
    return max((b.offset + align_up(b.size, alignment) for b in buffers), default=0)


def place(ordered, alignment, fit="best"):
    """Sets the offset of each buffer of `ordered`, in that order; returns the arena size."""
    placed = []
    for b in ordered:
        size = align_up(b.size, alignment)
        chosen, chosen_gap = None, None
        top = 0
        for other in sorted((p for p in placed if p.live_with(b)), key=lambda p: p.offset):
            gap = other.offset - top
            if gap >= size and (chosen_gap is None or (fit == "best" and gap < chosen_gap)):
                chosen, chosen_gap = top, gap
            top = max(top, other.offset + align_up(other.size, alignment))
        b.offset = chosen if chosen is not None else top
        placed.append(b)
    return arena_size(ordered, alignment)
