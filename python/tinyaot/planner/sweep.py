"""Placing buffers in the order they are born, keeping several partial plans (a beam).

Greedy placement in one order fails on chains of declared overlaps: each input
rests just above its output, and the offsets climb step after step. Placing
buffers as time goes instead, each one either clear of a live buffer (above or
below it) or as far over it as a declaration allows, and keeping the `width`
partial plans of smallest extent, lets a plan step back down where a buffer fits
below its neighbour. Offsets may go negative while planning; the result is moved
up to start at 0. The beam is ordered by extent, ties by the order in which the
plans were made, so the result is deterministic.
"""

from tinyaot.planner.greedy import align_down, align_up, arena_size, forbidden_offsets


def sweep_place(buffers, alignment, width=32):
    """Sets the offset of each buffer; returns the arena size."""
    order = sorted(buffers, key=lambda b: (b.first, -b.size, b.name))
    sizes = [align_up(b.size, alignment) for b in order]
    beam = [((), 0, 0)]  # (offsets in `order`, lowest byte, highest byte)
    for k, b in enumerate(order):
        plans = {}
        live = [m for m in range(k) if order[m].live_with(b)]
        for offsets, low, high in beam:
            intervals = [interval for m in live
                         for interval in forbidden_offsets(b, sizes[k], order[m], sizes[m], offsets[m])]
            candidates = {0} if not live else set()
            for lo, hi in intervals:
                candidates |= {align_down(lo, alignment), align_up(hi, alignment)}
            for at in sorted(candidates):
                if any(lo < at < hi for lo, hi in intervals):
                    continue
                new_low, new_high = min(low, at), max(high, at + sizes[k])
                placed = offsets + (at,)
                # Plans that agree on the buffers still to be met, and on the extent, are one.
                key = (tuple((m, placed[m] - new_low) for m in range(k + 1) if order[m].last >= b.first),
                       new_high - new_low)
                plans.setdefault(key, (placed, new_low, new_high))
        beam = sorted(plans.values(), key=lambda p: p[2] - p[1])[:width]
    offsets, low, _ = beam[0]
    for b, at in zip(order, offsets):
        b.offset = at - low
    return arena_size(buffers, alignment)
