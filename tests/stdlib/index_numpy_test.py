"""Tensor subscripts against NumPy's indexing, bit for bit.

    /usr/bin/python3 index_numpy_test.py ALEA

Random tensors of every dtype and rank 1 to 4 (empty axes included) are
indexed by random subscripts: Ints, slices with omitted bounds, bounds past
the end and positive steps, one i32 index tensor among them (NumPy's
integer-array indexing on one axis), and bool masks of the tensor's shape.
One Alea program loads every input from .npy files, applies each subscript
and saves the result; it must equal NumPy's in shape, dtype and bytes. NumPy
counts negative indices from the end and Alea refuses them, so no case has
one. Exit 77 (skipped) without NumPy.
"""
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import run_cases  # noqa: E402 (after the NumPy check)

DTYPES = [np.float32, np.int32, np.uint32, np.bool_]


def random_tensor(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype == np.float32:
        x = (rng.standard_normal(shape) * 10).astype(np.float32)
        flat = x.reshape(-1)
        if flat.size:  # NaN payloads and signed zeros must be moved, not computed
            flat[rng.integers(0, flat.size)] = np.float32(np.uint32(0xFFC00123).view(np.float32))
            flat[rng.integers(0, flat.size)] = -0.0
        return x
    return rng.integers(0, 1 << 31, shape).astype(dtype)


def random_item(rng, size):
    """(Alea text, NumPy index) for one axis of `size` elements."""
    kind = rng.integers(0, 4)
    if kind == 0 and size > 0:
        i = int(rng.integers(0, size))
        return str(i), i
    start = int(rng.integers(0, size + 3)) if rng.integers(0, 2) else None
    stop = int(rng.integers(0, size + 3)) if rng.integers(0, 2) else None
    step = int(rng.integers(1, 4)) if rng.integers(0, 2) else None
    text = (f"{'' if start is None else start}:{'' if stop is None else stop}"
            + ("" if step is None else f":{step}"))
    return text, slice(start, stop, step)


def cases(rng):
    """(name, inputs, Alea expression over a and b, NumPy's result)."""
    out = []
    for n in range(300):
        rank = int(rng.integers(1, 5))
        shape = tuple(int(rng.integers(0 if rng.integers(0, 8) == 0 else 1, 6))
                      for _ in range(rank))
        dtype = DTYPES[n % len(DTYPES)]
        a = random_tensor(rng, shape, dtype)
        items = int(rng.integers(1, rank + 1))
        texts, index = [], []
        for d in range(items):
            text, ix = random_item(rng, shape[d])
            texts.append(text)
            index.append(ix)
        inputs = [a]
        if n % 3 == 0:  # one axis gathers by an i32 tensor of rank 0 to 2
            g = int(rng.integers(0, items))
            idx_shape = tuple(int(rng.integers(0, 4)) for _ in range(int(rng.integers(0, 3))))
            idx = (rng.integers(0, shape[g], idx_shape) if shape[g] > 0
                   else np.zeros((0,), np.int64)).astype(np.int32)
            inputs.append(idx)
            texts[g], index[g] = "b", idx
        if len(texts) == 1 and texts[0] != "b" and ":" in texts[0] and texts[0].count(":") == 1:
            texts.append(":") if rank > 1 else None  # a lone a:b is `[:]`, tested elsewhere
            if rank > 1:
                index.append(slice(None))
        expr = f"a[{', '.join(texts)}]"
        out.append((f"s{n}", inputs, expr, a[tuple(index)]))
    # Gathers of whole rows and columns, and bool masks of every dtype.
    for n, dtype in enumerate(DTYPES * 3):
        shape = [(7,), (3, 4), (2, 0, 3), (2, 3, 4), ()][n % 5]
        a = random_tensor(rng, shape, dtype)
        mask = rng.integers(0, 2, shape).astype(np.bool_)
        if n % 4 == 1:
            mask[...] = True
        out.append((f"m{n}", [a, mask], "a[b]", a[mask]))
        if len(shape) >= 1 and shape[0] > 0:
            idx = rng.integers(0, shape[0], 9).astype(np.int32)
            out.append((f"g{n}", [a, idx], "a[b]", a[idx]))
        if len(shape) >= 2 and shape[1] > 0:
            idx = rng.integers(0, shape[1], (2, 2)).astype(np.int32)
            out.append((f"c{n}", [a, idx], "a[:, b]", a[:, idx]))
    return out


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20261125)
    all_cases = cases(rng)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        failures += run_cases(alea, tmp, all_cases)
    print(f"{len(all_cases)} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
