"""An independent check of a memory plan; the build fails if it does not hold."""

from tinyaot.errors import TinyAotError
from tinyaot.planner.lifetimes import limit_words, offset_words


def verify_plan(buffers, arena_size, alignment, source):
    """Buffers live at one step share no byte, except an output and an input whose kernel
    declared it (Buffer.overlaps): then the output starts at most D bytes above the input, or
    exactly at it (Buffer.exact)."""
    def fail(message):
        raise TinyAotError(f"internal error, memory plan is invalid: {message}", file=source)

    for b in buffers:
        if b.offset is None or b.offset < 0 or b.offset % alignment:
            fail(f"buffer '{b.name}' has offset {b.offset}, not a multiple of {alignment}")
        if b.offset + b.size > arena_size:
            fail(f"buffer '{b.name}' ends at {b.offset + b.size}, past the {arena_size}-byte arena")
    for i, a in enumerate(buffers):
        for b in buffers[i + 1:]:
            if not (a.live_with(b) and a.offset < b.offset + b.size and b.offset < a.offset + a.size):
                continue
            for out, inp in ((a, b), (b, a)):
                limit = out.overlaps.get(inp.tensor) if inp.tensor is not None else None
                if limit is not None and out.first == inp.last:
                    if inp.tensor in out.exact and out.offset != inp.offset:
                        fail(f"buffer '{out.name}' overlaps '{inp.name}' starting {offset_words(out.offset - inp.offset)}; "
                             "its kernel allows sharing bytes only starting exactly at it")
                    if out.offset - inp.offset > limit:
                        where = offset_words(out.offset - inp.offset)
                        fail(f"buffer '{out.name}' overlaps '{inp.name}' starting {where}; its kernel allows "
                             f"sharing bytes only starting {limit_words(limit)}")
                    break
            else:
                fail(f"buffers '{a.name}' and '{b.name}' are live at the same step and overlap")
