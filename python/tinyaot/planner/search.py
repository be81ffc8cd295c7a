"""Exact placement by branch and bound, for when no heuristic reaches the lower bound.

Any placement can be pushed down until each buffer rests at offset 0 or on top of
a buffer it is live with, without growing the arena. Such a placement is built by
taking buffers in order of offset, each at 0 or on the top of one already placed:
the search branches over those choices (offsets never decreasing, ties in buffer
order) and prunes every branch that cannot beat the best arena found. A node
budget, not a clock, bounds it, so the same input always gives the same answer.

With declared overlaps (an output may start at most D <= 0 bytes above its input),
an input pushed down may also come to rest where the rule stops it: D bytes below
its output's offset, which is at or above the output's, so the output is placed
first and that offset is a candidate too.
"""

from tinyaot.planner.greedy import align_down, align_up, forbidden_offsets, overlap_limit


def branch_and_bound(buffers, alignment, best_size, target, node_budget=200_000):
    """Offsets (list, in buffer order) of a placement smaller than best_size, the
    smallest found, or None; and whether the search was complete (then nothing
    smaller than what it returns, or than best_size, exists)."""
    n = len(buffers)
    sizes = [align_up(b.size, alignment) for b in buffers]
    conflicts = [[j for j in range(n) if j != i and buffers[i].live_with(buffers[j])] for i in range(n)]
    # (input, output, -align_down(D)): the input may rest that far above its placed output.
    rests = [(i, j, -align_down(declared[2], alignment)) for i in range(n) for j in conflicts[i]
             for declared in [overlap_limit(buffers[i], buffers[j])] if declared and declared[1] is buffers[i]]
    # Where i may not go relative to j's offset: the forbidden interval only moves with it.
    forbidden = [{j: forbidden_offsets(buffers[i], sizes[i], buffers[j], sizes[j], 0) for j in conflicts[i]}
                 for i in range(n)]
    offsets = [None] * n
    state = {"best": best_size, "found": None, "nodes": 0}

    def fits(i, at):
        for j, intervals in forbidden[i].items():
            if offsets[j] is not None and any(offsets[j] + lo < at < offsets[j] + hi for lo, hi in intervals):
                return False
        return True

    def search(floor, last_index, top, left):
        if state["nodes"] >= node_budget:
            return
        state["nodes"] += 1
        if not left:
            state["best"], state["found"] = top, list(offsets)
            return
        candidates = {0} | {offsets[j] + sizes[j] for j in range(n) if offsets[j] is not None}
        candidates |= {offsets[j] + rest for i, j, rest in rests if offsets[j] is not None and offsets[i] is None}
        for at in sorted(c for c in candidates if c >= floor):
            for i in sorted(left):
                if at == floor and i < last_index:
                    continue  # same offset: one order suffices
                new_top = max(top, at + sizes[i])
                if new_top >= state["best"] or not fits(i, at):
                    continue
                offsets[i] = at
                left.remove(i)
                search(at, i, new_top, left)
                left.add(i)
                offsets[i] = None
                if state["best"] <= target:
                    return

    search(0, -1, 0, set(range(n)))
    return state["found"], state["nodes"] < node_budget
