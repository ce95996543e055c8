"""bincount and histogram against NumPy's, bit for bit.

    /usr/bin/python3 count_numpy_test.py ALEA

NumPy writes random and edge-case inputs as .npy files; one Alea program
loads them, applies each builtin and saves every result with save_npy; each
result must equal NumPy's in shape, dtype and bytes:

- np.bincount(idx, minlength=length) as int32 (NumPy gives int64), and with
  f32 weights np.bincount(idx, weights, minlength).astype(np.float32) (NumPy
  sums in float64);
- np.histogram(x, bins, range=(lo, hi))[0] as int32 for f32 x of every shape
  (0-d and empty included) with NaN, infinities, signed zeros, values
  exactly on the f32 edges and one f32 step either side of them, ranges
  narrower than the f32 spacing (where NumPy's float32 estimate of the bin
  decides) and ranges past 3.4e38 (where NumPy switches to float64). A case
  on which NumPy itself fails (an IndexError: its estimate is more than one
  bin off, in ranges narrower than the f32 spacing) is left out.

The program runs with the JIT and with --no-jit. Exit 77 (skipped) without
NumPy.
"""
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import float_literal, run_cases, sprinkle  # noqa: E402 (after the NumPy check)

F = np.float32


def weights_f32(rng, n):
    w = (rng.standard_normal(n) * 10).astype(F)
    return sprinkle(rng, w, [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, 3.4028235e38, 1e8, -1e8])


def bincount_cases(rng):
    out = []
    for n in [0, 1, 7, 1000, 100003]:
        for top in [1, 5, 300]:
            idx = rng.integers(0, top, size=n, dtype=np.int32)
            for length in [0, 3, 400]:
                name = f"bincount_{n}_{top}_{length}"
                want = np.bincount(idx, minlength=length).astype(np.int32)
                out.append((name, [idx], f"bincount(a, {length})", want))
                w = weights_f32(rng, n)
                with np.errstate(all="ignore"):
                    wsum = np.bincount(idx, weights=w, minlength=length).astype(F)
                out.append((name + "_w", [idx, w], f"bincount(a, {length}, weights: b)", wsum))
    big = np.array([0, 2**20, 5], np.int32)
    out.append(("bincount_sparse", [big], "bincount(a)", np.bincount(big).astype(np.int32)))
    return out


def edge_values(lo, hi, bins):
    """The f32 edges NumPy uses, and one f32 step either side of each."""
    edges = np.linspace(lo, hi, bins + 1, dtype=F)
    with np.errstate(all="ignore"):
        return np.concatenate([edges, np.nextafter(edges, F(np.inf)),
                               np.nextafter(edges, F(-np.inf))]).astype(F)


def histogram_input(rng, lo, hi, bins, shape):
    span = hi - lo
    mid = lo / 2 + hi / 2
    n = int(np.prod(shape))
    with np.errstate(all="ignore"):
        x = (mid + (rng.random(n) - 0.5) * 1.2 * span).astype(F)
        x = sprinkle(rng, x, [np.nan, np.inf, -np.inf, 0.0, -0.0, lo, hi])
        if n > 30:
            e = edge_values(lo, hi, bins)
            pick = rng.integers(0, n, size=min(n // 2, e.size))
            x[pick] = rng.choice(e, size=pick.size)
    return x.reshape(shape)


def ranges(rng):
    out = [(0.0, 1.0), (0.0, 3.0), (-1.0, 1.0), (0.1, 0.7), (-0.0, 5e-324), (1e-40, 3e-40),
           (0.0, 1e-40), (-1e39, 1e39), (-3.5e38, 3.5e38), (-3.4e38, 3.4e38), (1e30, 3e38),
           (-3.4028235e38, 3.4028235e38), (54.67129866124469, 54.67130029034417),
           (905.3558666731177, 905.3564036263531), (-0.7819084623568421, -0.7819083809350369)]
    for _ in range(40):
        lo = float(rng.standard_normal()) * 10.0 ** int(rng.integers(-3, 4))
        hi = lo + abs(float(rng.standard_normal())) * 10.0 ** int(rng.integers(-8, 4))
        if lo < hi:
            out.append((lo, hi))
    return out


def histogram_cases(rng):
    out = []
    for k, (lo, hi) in enumerate(ranges(rng)):
        for bins in [1, 2, 3, 10, int(rng.integers(4, 1000))]:
            for shape in [(1000,), (7, 11)] if k < 15 else [(300,)]:
                x = histogram_input(rng, lo, hi, bins, shape)
                try:
                    with np.errstate(all="ignore"):
                        want = np.histogram(x, bins, range=(lo, hi))[0].astype(np.int32)
                except IndexError:
                    continue  # NumPy's own failure: see the module's docstring
                expr = f"histogram(a, {bins}, {float_literal(lo)}, {float_literal(hi)})"
                out.append((f"histogram_{k}_{bins}_{len(shape)}", [x], expr, want))
    for name, x in [("0d", np.array(1.5, F)), ("empty", np.zeros((0, 4), F)),
                    ("nan", np.full(5, np.nan, F))]:
        out.append((f"histogram_{name}", [x], "histogram(a, 4, 0.0, 2.0)",
                    np.histogram(x, 4, range=(0.0, 2.0))[0].astype(np.int32)))
    big = (rng.standard_normal(200003) * 3).astype(F)
    out.append(("histogram_big", [big], "histogram(a, 97, -5.0, 5.0)",
                np.histogram(big, 97, range=(-5.0, 5.0))[0].astype(np.int32)))
    return out


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20250705)
    all_cases = bincount_cases(rng) + histogram_cases(rng)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for flags in [[], ["--no-jit"]]:
            failures += run_cases(alea, tmp, all_cases, flags)
    print(f"{2 * len(all_cases)} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
