"""take, cumsum, searchsorted, argsort and sort against NumPy, bit for bit.

    /usr/bin/python3 search_numpy_test.py ALEA

NumPy writes random and edge-case inputs (NaN, infinities, signed zeros,
subnormals, ties, empty and 0-d shapes) as .npy files; one Alea program loads
them, applies each builtin and saves every result with save_npy; each result
must equal NumPy's (np.take, np.cumsum, np.searchsorted side='left',
np.argsort kind='stable', np.sort kind='stable') in shape, dtype and bytes.
NumPy's int32 cumsum widens to int64 and its argsort and searchsorted give
int64: those are compared as the int32 values Alea keeps. Exit 77 (skipped)
without NumPy.
"""
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import run_cases, sprinkle  # noqa: E402 (after the NumPy check)


def special_f32(rng, shape):
    """Random f32 with a sprinkling of awkward values and many ties."""
    x = (rng.standard_normal(shape) * 100).astype(np.float32)
    return sprinkle(rng, x, [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 3.4028235e38,
                             np.float32(np.uint32(0xFFC00001).view(np.float32)), 1.0, 1.0])


def cases(rng):
    """(name, inputs, Alea expression over the inputs a, b..., NumPy's result)."""
    out = []
    f2 = special_f32(rng, (50, 7))
    f3 = special_f32(rng, (4, 5, 6))
    i2 = rng.integers(-1000, 1000, size=(30, 9), dtype=np.int32)
    u1 = rng.integers(0, 2**32, size=500, dtype=np.uint64).astype(np.uint32)
    b2 = rng.integers(0, 2, size=(6, 11)).astype(np.bool_)
    ties = rng.integers(-3, 4, size=(20, 40)).astype(np.float32)
    ties[ties == 0] = rng.choice(np.array([0.0, -0.0], np.float32), size=int((ties == 0).sum()))
    ties[ties == 3] = np.nan
    empty = np.zeros((0, 5), np.float32)
    zero_d = np.array(2.5, np.float32)

    # take
    for name, x, axis in [("f2", f2, 0), ("f2", f2, 1), ("f2", f2, -1), ("f3", f3, 1),
                          ("i2", i2, -2), ("b2", b2, 1), ("u1", u1, 0), ("empty", empty, 1)]:
        n = x.shape[axis]
        for shape_name, ishape in [("0d", ()), ("1d", (13,)), ("2d", (3, 4)), ("none", (0,))]:
            if n == 0 and ishape != (0,):
                continue
            idx = rng.integers(0, n, size=ishape).astype(np.int32)
            out.append((f"take_{name}_{axis}_{shape_name}", [x, idx],
                        f"take(a, b, axis: {axis})", np.take(x, idx, axis=axis)))
    long_rows = rng.standard_normal((100, 64)).astype(np.float32)  # rows copied by memcpy
    idx = rng.integers(0, 100, size=1000).astype(np.int32)
    out.append(("take_long_rows", [long_rows, idx], "take(a, b)", np.take(long_rows, idx, axis=0)))
    big = rng.standard_normal(100000).astype(np.float32)  # the resampling gather
    idx = rng.integers(0, 100000, size=100000).astype(np.int32)
    out.append(("take_1d_big", [big, idx], "take(a, b)", np.take(big, idx)))

    # cumsum: f32 bitwise; i32 values that stay in range; u32 wraps
    big_cs = (rng.standard_normal(100000) * 1e3).astype(np.float32)
    for name, x in [("f2", f2), ("f3", f3), ("ties", ties), ("big", big_cs), ("zero_d", zero_d),
                    ("empty", empty)]:
        out.append((f"cumsum_{name}", [x], "cumsum(a)", np.cumsum(x)))
        for axis in range(-x.ndim, x.ndim):
            out.append((f"cumsum_{name}_{axis}", [x], f"cumsum(a, axis: {axis})",
                        np.cumsum(x, axis=axis)))
    out.append(("cumsum_i2", [i2], "cumsum(a, axis: 0)", np.cumsum(i2, axis=0).astype(np.int32)))
    out.append(("cumsum_i2_flat", [i2], "cumsum(a)", np.cumsum(i2).astype(np.int32)))
    out.append(("cumsum_u1", [u1], "cumsum(a)", np.cumsum(u1, dtype=np.uint32)))

    # searchsorted: sorted inputs with duplicates, signed zeros and NaNs last
    for name, x in [("f2", f2), ("ties", ties)]:
        s = np.sort(x.reshape(-1)[:200])
        v = x.reshape(-1)[-150:].reshape(10, 15)
        out.append((f"search_{name}", [s, v], "searchsorted(a, b)",
                    np.searchsorted(s, v).astype(np.int32)))
    s = np.sort(i2.reshape(-1))
    v = rng.integers(-1100, 1100, size=(7, 3), dtype=np.int32)
    out.append(("search_i32", [s, v], "searchsorted(a, b)", np.searchsorted(s, v).astype(np.int32)))
    s = np.sort(u1)
    v = rng.integers(0, 2**32, size=64, dtype=np.uint64).astype(np.uint32)
    v[:3] = [0, 2**32 - 1, s[10]]
    out.append(("search_u32", [s, v], "searchsorted(a, b)", np.searchsorted(s, v).astype(np.int32)))
    s = np.array([], np.float32)
    v = np.array([1.0, np.nan], np.float32)
    out.append(("search_empty", [s, v], "searchsorted(a, b)",
                np.searchsorted(s, v).astype(np.int32)))
    s = np.array([-1.0, 0.0, 2.0, np.nan], np.float32)
    v = np.array(np.nan, np.float32)
    out.append(("search_0d", [s, v], "searchsorted(a, b)", np.asarray(np.searchsorted(s, v), np.int32)))

    # argsort and sort (stable)
    for name, x in [("f2", f2), ("f3", f3), ("ties", ties), ("i2", i2), ("u1", u1), ("b2", b2),
                    ("empty", empty)]:
        for axis in range(-x.ndim, x.ndim):
            out.append((f"argsort_{name}_{axis}", [x], f"argsort(a, axis: {axis})",
                        np.argsort(x, axis=axis, kind="stable").astype(np.int32)))
            out.append((f"sort_{name}_{axis}", [x], f"sort(a, axis: {axis})",
                        np.sort(x, axis=axis, kind="stable")))
    out.append(("argsort_default", [ties], "argsort(a)", np.argsort(ties, kind="stable").astype(np.int32)))
    out.append(("sort_default", [f3], "sort(a)", np.sort(f3, kind="stable")))
    return out


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20240611)
    with np.errstate(all="ignore"):  # NaN and inf sums are part of the cases
        all_cases = cases(rng)
    with tempfile.TemporaryDirectory() as tmp:
        failures = run_cases(alea, tmp, all_cases)
    print(f"{len(all_cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
