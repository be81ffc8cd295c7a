"""The one exception type the generator raises for problems a user can fix."""


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
            where.append(f"operator {self.op_index} ({self.op_type})")
        elif self.op_type:
            where.append(f"operator {self.op_type}")
        if self.tensor is not None:
            where.append(f"tensor '{self.tensor}'")
        prefix = ": ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def located(self, **where):
        """Returns a copy with missing location fields filled in."""
        fields = dict(file=self.file, op_index=self.op_index, op_type=self.op_type, tensor=self.tensor)
        for key, value in where.items():
            if fields[key] is None:
                fields[key] = value
        return TinyAotError(self.reason, **fields)
