"""Alea from Python: compile Alea source, run it in a VM, pass NumPy arrays
and random states in and out.

    import alea, numpy as np
    m = alea.compile("fn noise(s: RandState, x: Tensor) -> Tensor = x + normal(s, shape(x))")
    vm = alea.Vm(max_instructions=10_000_000)
    vm.load(m)
    y = vm.call("noise", alea.key(0), np.zeros(3, np.float32))

Values cross both ways: None (Unit), bool, int, float, str, NumPy arrays of
float32, int32, uint32 or bool (Tensors; read in place when C-contiguous and
aligned), RandState, tuples, lists (arrays), Record and Variant (types the
program declares). A RandState is used once, in Python as in Alea: passing it
to a call, or split/next/fold_in, consumes it. Errors raise alea.Error with
the diagnostic as Alea prints it. Python functions and values serve a
program's `extern fn` and `extern let` (Vm.register_function,
Vm.register_value).
"""

from ._alea import Function, Module, RandState, Vm, compile, version

__all__ = ["Error", "Function", "Module", "RandState", "Record", "Variant", "Vm", "compile",
           "key", "version"]
__version__ = version


class Error(Exception):
    """An Alea error: `code` ("INVALID_ARGUMENT", "ABORTED", "RESOURCE_EXHAUSTED",
    "CANCELLED"...), `message` (the diagnostic as `alea run` prints it), and
    where its first diagnostic points: `file`, `line`, `column` ("" and 0 when
    nowhere)."""

    def __init__(self, code, message, file="", line=0, column=0):
        super().__init__(message)
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column


def key(seed):
    """key(seed): the RandState of JAX's jax.random.key(seed)."""
    return RandState(seed)


class Record:
    """A value of a record type the program declares: Record("Params", mu=0.0, sigma=1.0)."""

    __slots__ = ("type", "fields")

    def __init__(self, type, **fields):
        self.type = type
        self.fields = fields

    def __getattr__(self, name):
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(f"{self.type} has no field {name!r}") from None

    def __eq__(self, other):
        return isinstance(other, Record) and (self.type, self.fields) == (other.type, other.fields)

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"Record({self.type!r}, {inner})"


class Variant:
    """A value of a variant type the program declares: Variant("Shape", "Circle", 1.0),
    Variant("Option(Int)", "None")."""

    __slots__ = ("type", "constructor", "fields")

    def __init__(self, type, constructor, *fields):
        self.type = type
        self.constructor = constructor
        self.fields = fields

    def __eq__(self, other):
        return isinstance(other, Variant) and (self.type, self.constructor, self.fields) == (
            other.type, other.constructor, other.fields)

    def __repr__(self):
        inner = "".join(f", {v!r}" for v in self.fields)
        return f"Variant({self.type!r}, {self.constructor!r}{inner})"
