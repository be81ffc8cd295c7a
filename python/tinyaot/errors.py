"""The one exception type the generator raises for problems a user can fix."""

import re


class TinyAotError(Exception):
    """A problem with the input, described well enough to act on.

    The message names where the problem is: the file, and when known the
    operator (index and type) and the tensor.
    """

    def __init__(self, message, *, file=None, op_index=None, op_type=None, tensor=None):
        self.reason = message
        self.file = file
        self.op_index = op_index
        self.op_type = op_type
        self.tensor = tensor
        super().__init__(self._format())

    def _format(self):
        where = []
        if self.file:
            where.append(str(self.file))
        if self.op_index is not None:
            where.append(f"operator {self.op_index} ({printable(self.op_type, keep_newlines=False)})")
        elif self.op_type:
            where.append(f"operator {printable(self.op_type, keep_newlines=False)}")
        if self.tensor is not None:
            where.append(f"tensor '{printable(self.tensor, keep_newlines=False)}'")
        prefix = ": ".join(where)
        return printable(f"{prefix}: {self.reason}" if prefix else self.reason)

    def located(self, **where):
        """Returns a copy with missing location fields filled in."""
        fields = dict(file=self.file, op_index=self.op_index, op_type=self.op_type, tensor=self.tensor)
        for key, value in where.items():
            if fields[key] is None:
                fields[key] = value
        return type(self)(self.reason, **fields, **self._extra())

    def _extra(self):
        return {}


class UnsupportedError(TinyAotError):
    """The model is valid but uses something tinyaot does not implement: an
    operator (`dtype` None) or a dtype at an operator. The compiler collects
    these over the whole model so that one run shows the whole gap."""

    def __init__(self, message, *, dtype=None, supported=(), dtype_tensors=(), **where):
        self.dtype = dtype
        self.supported = tuple(supported)  # the dtypes the operator takes there
        self.dtype_tensors = tuple(dtype_tensors)  # graph indices of the op's tensors of that dtype
        super().__init__(message, **where)

    def _extra(self):
        return {"dtype": self.dtype, "supported": self.supported, "dtype_tensors": self.dtype_tensors}


class InvalidTensorError(TinyAotError):
    """A tensor the model file describes wrongly (shape, dtype, quantization, data). `users`:
    the operators that read, write or keep it as an intermediate; `op_types`: every
    operator's type, so that a caller can report a missing operator before a tensor
    only that operator uses (both empty where the operators could not be read)."""

    def __init__(self, message, *, users=(), op_types=(), **where):
        self.users = tuple(users)
        self.op_types = tuple(op_types)
        super().__init__(message, **where)

    def _extra(self):
        return {"users": self.users, "op_types": self.op_types}


def printable(text, keep_newlines=True):
    """Text with control characters (as a model's names may hold) escaped; newlines kept
    in the few multi-line messages such as a C compiler's output."""
    pattern = r"[\x00-\x09\x0b-\x1f\x7f-\x9f]" if keep_newlines else r"[\x00-\x1f\x7f-\x9f]"
    return re.sub(pattern, lambda m: f"\\x{ord(m.group()):02x}", text)
