"""The planner: several placement strategies, the smallest arena kept, and an
exact search when none reaches the lower bound.

Each greedy strategy is an order in which greedy.place() takes the buffers, with
best or first fit; when none reaches the bound, the time sweep (sweep.py) tries
too. Ties keep the earlier strategy, so the result is deterministic.
"""

from dataclasses import dataclass

from tinyaot.planner.greedy import align_up, arena_size, lower_bound, overlap_bound, place
from tinyaot.planner.search import branch_and_bound
from tinyaot.planner.sweep import sweep_place


def _overlap_bytes(b, buffers):
    return sum(o.size for o in buffers if o is not b and o.live_with(b))


ORDERS = {
    "size": lambda bs: sorted(bs, key=lambda b: (-b.size, b.first, b.name)),
    "conflicts": lambda bs: sorted(bs, key=lambda b: (-_overlap_bytes(b, bs), -b.size, b.name)),
    "first step": lambda bs: sorted(bs, key=lambda b: (b.first, -b.size, b.name)),
    # Outputs overlap their inputs from below: a chain of them is built from its end up.
    "last step": lambda bs: sorted(bs, key=lambda b: (-b.last, -b.size, b.name)),
    "size, last step first": lambda bs: sorted(bs, key=lambda b: (-b.size, -b.last, b.name)),
    "lifetime": lambda bs: sorted(bs, key=lambda b: (-(b.last - b.first), -b.size, b.name)),
    "area": lambda bs: sorted(bs, key=lambda b: (-b.size * (b.last - b.first + 1), b.name)),
}
FITS = ("best", "first")


@dataclass
class PlanOutcome:
    arena_size: int
    lower_bound: int  # classic: the largest sum of aligned sizes live at one step
    strategy: str  # e.g. "greedy by size, best fit" or "branch and bound"
    proven_optimal: bool  # nothing smaller exists for these lifetimes, sizes and declared overlaps
    overlap_bound: int | None = None  # the bound that counts declared overlaps (<= lower_bound)

    @property
    def bound(self):
        return self.lower_bound if self.overlap_bound is None else self.overlap_bound

    def note(self):
        """One line for the JSON and inspect."""
        which = "lower bound" if self.bound == self.lower_bound else "overlap-aware lower bound"
        below = ("" if self.bound == self.lower_bound else
                 f" ({self.lower_bound - self.arena_size} bytes below the classic lower bound {self.lower_bound}: "
                 "outputs overlap inputs where kernels declare it)" if self.arena_size < self.lower_bound else
                 f" (classic lower bound {self.lower_bound})")
        if self.arena_size == self.bound:
            return f"planned by {self.strategy}: at the {which}, optimal{below}"
        proof = (f"proven optimal by exhaustive search: no placement of these lifetimes reaches the {which}"
                 if self.proven_optimal else
                 "not proven optimal (the exact search ran out of its node budget)")
        return (f"planned by {self.strategy}: arena is {self.arena_size} bytes, "
                f"{self.arena_size - self.bound} above the {which} {self.bound}{below}; {proof}")


def plan(buffers, alignment, node_budget=200_000):
    """Sets every buffer's offset; returns a PlanOutcome."""
    classic = lower_bound(buffers, alignment)
    bound = overlap_bound(buffers, alignment)
    best = None
    for order_name, order in ORDERS.items():
        for fit in FITS:
            size = place(order(buffers), alignment, fit)
            if best is None or size < best[0]:
                best = (size, f"greedy by {order_name}, {fit} fit", [b.offset for b in buffers])
            if best[0] == bound:
                break
        if best[0] == bound:
            break
    if best[0] > bound:
        size = sweep_place(buffers, alignment)
        if size < best[0]:
            best = (size, "time sweep", [b.offset for b in buffers])
    size, strategy, offsets = best
    proven = size == bound
    if not proven:
        found, complete = branch_and_bound(buffers, alignment, size, bound, node_budget)
        if found is not None:
            offsets, size, strategy = found, max(o + align_up(b.size, alignment)
                                                 for o, b in zip(found, buffers)), "branch and bound"
        proven = complete or size == bound
    for b, offset in zip(buffers, offsets):
        b.offset = offset
    return PlanOutcome(arena_size(buffers, alignment), classic, strategy, proven, bound)
