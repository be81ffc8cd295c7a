"""The parameter names of each kernel function, read from the kernel headers.

Tables the generator makes for a kernel call (re-laid-out weights, folded
biases, multipliers, walk dimensions) are named after the kernel parameter
they are passed as, so `nm`, `rom_report` and the generated file say
`tinyaot_kws_op2_filter` or `_multiplier`, the names the kernel's own source
uses, rather than a position.
"""

import functools
import re
from importlib import resources
from pathlib import Path

# A function definition: `static [qualifiers] type [*]name(parameters)` then `{`.
_DEFINITION_RE = re.compile(r"^static\b[^;(){}=]*?\b(tinyaot_\w+)\s*\(([^)]*)\)\s*\{", re.MULTILINE)
_PARAM_NAME_RE = re.compile(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$")


@functools.cache
def parameter_names():
    """{kernel function: [parameter names in order]} of every kernel header."""
    names = {}
    for header in sorted(Path(str(resources.files("tinyaot") / "kernels")).rglob("*.h")):
        for match in _DEFINITION_RE.finditer(header.read_text()):
            params = [p.strip() for p in match.group(2).split(",")]
            if params != ["void"]:
                names[match.group(1)] = [_PARAM_NAME_RE.search(p).group(1) for p in params]
    return names


def parameter_name(kernel, position):
    """The name of `kernel`'s parameter at `position` (0-based)."""
    try:
        return parameter_names()[kernel][position]
    except (KeyError, IndexError):
        raise LookupError(f"kernel {kernel} has no definition with a parameter {position} in the kernel headers")\
            from None
