"""Formatting Python values as C99 literals (exact and deterministic)."""

import re

import numpy as np

# Printable ASCII that means nothing special inside a C string or comment.
# '?' is left out because of trigraphs (-std=c99 honours "??/").
_PLAIN = re.compile(r"[A-Za-z0-9 _.,:;/+=()\[\]<>#@%&|^~!{}'-]")


def c_int(v):
    v = int(v)
    if v == -(2**31):
        return "(-2147483647 - 1)"  # the literal 2147483648 does not fit int32_t
    return str(v)


def c_float(v):
    v = np.float32(v)
    if not np.isfinite(v):
        raise ValueError(f"cannot emit non-finite float {v}")
    text = f"{float(v):.9g}"
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def c_value(v):
    if isinstance(v, str):  # a C constant by name, e.g. TINYAOT_INT8
        return v
    if isinstance(v, (float, np.floating)):
        return c_float(v)
    return c_int(v)


def c_array_body(values, per_line=16, indent="    "):
    """Array initialiser rows, `per_line` values each."""
    flat = np.asarray(values).reshape(-1)
    fmt = c_float if flat.dtype.kind == "f" else c_int
    items = [fmt(v) for v in flat.tolist()]
    rows = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return ",\n".join(indent + row for row in rows)


def c_string(text):
    """A C string literal for any text: bytes outside _PLAIN as octal escapes."""
    out = []
    for ch in text:
        if _PLAIN.fullmatch(ch):
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def c_comment(text):
    """Text safe inside /* */: anything but _PLAIN becomes '_' (so no '*/')."""
    return "".join(ch if _PLAIN.fullmatch(ch) else "_" for ch in text)
