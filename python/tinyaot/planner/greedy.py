"""Placing buffers one after another: each goes into a gap between already placed
buffers whose lifetimes overlap its own (best fit: the smallest gap that holds it;
first fit: the lowest), or above them all. A buffer may share bytes with a live one
only where a kernel declared it (Buffer.overlaps)."""


def align_up(n, alignment):
    return (n + alignment - 1) // alignment * alignment


def align_down(n, alignment):
    return n // alignment * alignment


def lower_bound(buffers, alignment):
    """The largest sum of aligned sizes of buffers live at one step."""
    steps = {s for b in buffers for s in (b.first, b.last)}
    return max((sum(align_up(b.size, alignment) for b in buffers if b.first <= s <= b.last) for s in steps),
               default=0)


def overlap_limit(a, b):
    """(out, in, D) if a and b are a declared pair (out.offset - in.offset <= D lets them
    share bytes), else None."""
    if a.tensor is not None and a.tensor in b.overlaps:
        return b, a, b.overlaps[a.tensor]
    if b.tensor is not None and b.tensor in a.overlaps:
        return a, b, a.overlaps[b.tensor]
    return None


def pair_footprint(out_size, in_size, limit, alignment):
    """The fewest bytes a declared pair can occupy (aligned sizes): side by side, or the
    output starting as far above the input as allowed (align_down(limit) <= 0)."""
    d = align_down(limit, alignment)
    return min(out_size + in_size, max(in_size - d, out_size))


def overlap_bound(buffers, alignment):
    """A lower bound on the arena that counts declared overlaps: the larger of the step
    bound and the chain bound below."""
    return max(_step_bound(buffers, alignment), _chain_bound(buffers, alignment))


def _chain_bound(buffers, alignment):
    """A chain of declared pairs b_i -> b_i+1 (each output overlapping its input) can only
    descend: b_i+1 starts at most D_i above b_i unless it lies wholly above it, which
    needs size_i + size_i+1 bytes. So if an arena A is below both s_i + |D_i + ... + D_j-1|
    and every size_m + size_m+1 on the way, b_j sits that far below b_i and A is at
    least s_i + |sum|: the sum is a bound whenever no pair on the way fits side by side in it."""
    size = {id(b): align_up(b.size, alignment) for b in buffers}
    by_tensor = {b.tensor: b for b in buffers if b.tensor is not None}
    successors = {}
    for out in buffers:
        for t, limit in out.overlaps.items():
            if t in by_tensor:
                successors.setdefault(id(by_tensor[t]), []).append((out, -align_down(limit, alignment)))
    best = 0

    def walk(start, b, descent, narrowest, depth):
        nonlocal best
        for out, step in successors.get(id(b), []):
            d = descent + step
            pair = min(narrowest, size[id(b)] + size[id(out)])
            if size[id(start)] + d <= pair:
                best = max(best, size[id(start)] + d)
            if depth < len(buffers):
                walk(start, out, d, pair, depth + 1)

    for b in buffers:
        walk(b, b, 0, float("inf"), 0)
    return best


def _step_bound(buffers, alignment):
    """At each step, buffers that may share bytes form groups; a group needs at least its
    largest member or its smallest pair footprint, whichever is more, and groups never
    share bytes."""
    steps = sorted({s for b in buffers for s in (b.first, b.last)})
    best = 0
    for s in steps:
        live = [b for b in buffers if b.first <= s <= b.last]
        group = list(range(len(live)))

        def find(i):
            while group[i] != i:
                i = group[i]
            return i

        pairs = []
        for i, a in enumerate(live):
            for j in range(i + 1, len(live)):
                declared = overlap_limit(a, live[j])
                if declared:
                    out, inp, limit = declared
                    pairs.append((i, pair_footprint(align_up(out.size, alignment), align_up(inp.size, alignment),
                                                    limit, alignment)))
                    group[find(j)] = find(i)
        need = {}
        for i, b in enumerate(live):
            need[find(i)] = max(need.get(find(i), 0), align_up(b.size, alignment))
        for i, footprint in pairs:
            need[find(i)] = max(need[find(i)], footprint)
        best = max(best, sum(need.values()))
    return best


def arena_size(buffers, alignment):
    return max((b.offset + align_up(b.size, alignment) for b in buffers), default=0)


def forbidden_offsets(b, b_size, other, other_size, other_offset):
    """The open intervals (lo, hi) of offsets at which b (b_size bytes) would share bytes
    with other (placed at other_offset) in a way no declaration allows."""
    lo, hi = other_offset - b_size, other_offset + other_size
    declared = overlap_limit(b, other)
    if declared:
        out, inp, limit = declared
        if inp.tensor in out.exact:  # only exactly at other
            return [(lo, other_offset), (other_offset, hi)]
        if out is b:  # b may start up to limit above other
            lo = max(lo, other_offset + limit)
        else:  # other may start up to limit above b
            hi = min(hi, other_offset - limit)
    return [(lo, hi)]


def place(ordered, alignment, fit="best"):
    """Sets the offset of each buffer of `ordered`, in that order; returns the arena size."""
    placed = []
    for b in ordered:
        size = align_up(b.size, alignment)
        intervals = [interval for o in placed if o.live_with(b)
                     for interval in forbidden_offsets(b, size, o, align_up(o.size, alignment), o.offset)]
        intervals = [(lo, hi) for lo, hi in intervals if hi - lo > 1]
        candidates = sorted({0} | {align_up(hi, alignment) for _, hi in intervals})
        chosen, chosen_gap = None, None
        for at in candidates:
            if any(lo < at < hi for lo, hi in intervals):
                continue
            # The gap's end: the next offset at which b would collide (None above everything).
            above = [lo + size for lo, _ in intervals if lo >= at]
            gap = min(above) - at if above else None
            if chosen is None or (fit == "best" and gap is not None and (chosen_gap is None or gap < chosen_gap)):
                chosen, chosen_gap = at, gap
            if fit == "first":
                break
        b.offset = chosen
        placed.append(b)
    return arena_size(ordered, alignment)
