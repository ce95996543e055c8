"""cholesky, solve_triangular, solve, det and inv against NumPy's float32
LAPACK, within a tolerance.

    /usr/bin/python3 linalg_numpy_test.py ALEA [--verbose]

NumPy writes random well-conditioned f32 inputs as .npy files (symmetric
positive definite x @ x.T / n + I; a dominant diagonal, rows shuffled so
that LU must pivot; triangles with NaN in the half that must not be read),
of sizes 0, 1, 2, 17, 64 and 200 and a batch; one Alea program applies each
builtin and saves the results. Each must have NumPy's shape and dtype and
lie within the tolerance docs/decisions.md states ("Linear algebra"): the
largest difference from NumPy's float32 result at most 2^-23 * 4n times
the result's largest element (n the matrix size; 4n for det, relative to
the float64 determinant, as NumPy's own float32 det is held to). The
program runs twice, with the JIT and with --no-jit, and the two must agree
bit for bit. SciPy is not needed: solve_triangular's expectation is
np.linalg.solve of the triangle. Exit 77 (skipped) without NumPy.
"""
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import run_cases  # noqa: E402 (after the NumPy check)

F = np.float32
EPS = 2.0 ** -23
SIZES = [0, 1, 2, 17, 64, 200]
VERBOSE = "--verbose" in sys.argv


def spd(rng, n, batch=()):
    x = rng.standard_normal(batch + (n, n))
    return (x @ np.swapaxes(x, -1, -2) / max(n, 1) + np.eye(n)).astype(F)


def general(rng, n):
    """A dominant diagonal with its rows shuffled: well conditioned, and
    partial pivoting has to undo the shuffle."""
    g = rng.standard_normal((n, n)) + 2.0 * np.sqrt(n) * np.eye(n)
    return g[rng.permutation(n)].astype(F)


def triangle(rng, n, lower):
    t = rng.standard_normal((n, n)) + np.diag(2.0 * np.sqrt(n) + np.abs(rng.standard_normal(n)))
    keep = np.tril(t) if lower else np.triu(t)
    garbage = np.where(np.tri(n, dtype=bool) if not lower else np.tri(n, dtype=bool).T, np.nan, 0)
    np.fill_diagonal(garbage, 0)
    return keep.astype(F), (keep + garbage).astype(F)


def cases(rng):
    """(name, inputs, Alea expression, (NumPy's float32 result, the float64
    one or None, the size n))."""
    out = []
    for n in SIZES:
        a = spd(rng, n)
        out.append((f"cholesky_{n}", [a], "cholesky(a)",
                    (np.linalg.cholesky(a), np.linalg.cholesky(a.astype(np.float64)), n)))
        g = general(rng, n)
        for k, b in [("v", rng.standard_normal(n).astype(F)),
                     ("m", rng.standard_normal((n, 3)).astype(F))]:
            out.append((f"solve_{n}_{k}", [g, b], "solve(a, b)",
                        (np.linalg.solve(g, b), np.linalg.solve(g.astype(np.float64), b), n)))
            for lower in [True, False]:
                clean, dirty = triangle(rng, n, lower)
                flag = "" if lower else ", lower: false"
                out.append((f"solve_triangular_{n}_{k}_{lower}", [dirty, b],
                            f"solve_triangular(a, b{flag})",
                            (np.linalg.solve(clean, b),
                             np.linalg.solve(clean.astype(np.float64), b), n)))
        scaled = (g / F(2.0 * np.sqrt(max(n, 1)))).astype(F)
        out.append((f"det_{n}", [scaled], "det(a)",
                    (np.linalg.det(scaled), np.linalg.det(scaled.astype(np.float64)), n)))
        out.append((f"inv_{n}", [g], "inv(a)",
                    (np.linalg.inv(g), np.linalg.inv(g.astype(np.float64)), n)))
    batch = spd(rng, 17, (3,))
    out.append(("cholesky_batch", [batch], "cholesky(a)",
                (np.linalg.cholesky(batch), np.linalg.cholesky(batch.astype(np.float64)), 17)))
    out.append(("det_batch", [batch], "det(a)",
                (np.linalg.det(batch), np.linalg.det(batch.astype(np.float64)), 17)))
    out.append(("inv_batch", [batch], "inv(a)",
                (np.linalg.inv(batch), np.linalg.inv(batch.astype(np.float64)), 17)))
    out.append(("det_empty_batch", [np.zeros((0, 2, 2), F)], "det(a)",
                (np.linalg.det(np.zeros((0, 2, 2), F)), None, 2)))
    return out


def within_tolerance(name, got, want):
    want32, want64, n = want
    want32 = np.asarray(want32)
    if got.shape != want32.shape or got.dtype != want32.dtype:
        return f"gave {got.dtype}{got.shape}, NumPy {want32.dtype}{want32.shape}"
    if got.size == 0:
        return None
    bound = EPS * 4 * max(n, 1)
    if name.startswith("det"):
        # NumPy's float32 det is exp(sum(log|u_ii|)) in float32; Alea's the
        # product in double: both are held to the float64 determinant.
        exact = np.asarray(want64, np.float64)
        err = np.max(np.abs(got - exact) / np.abs(exact))
        numpy_err = np.max(np.abs(want32 - exact) / np.abs(exact))
    else:
        scale = np.max(np.abs(want32))
        err = np.max(np.abs(got.astype(np.float64) - want32)) / scale
        numpy_err = np.max(np.abs(want32 - want64)) / np.max(np.abs(want64))
    if VERBOSE:
        print(f"{name}: {err / EPS:.1f} ulp of the largest element (NumPy's own error "
              f"{numpy_err / EPS:.1f}; bound {bound / EPS:.0f})")
    if not err <= bound:
        return f"differs by {err:.3g} (relative), more than {bound:.3g}"
    return None


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20250705)
    all_cases = cases(rng)
    failures = 0
    first = {}

    def remember(name, got, want):
        first[name] = got
        return within_tolerance(name, got, want)

    def same_as_first(name, got, want):
        if name in first and got.tobytes() != first[name].tobytes():
            return "differs from the run with the JIT"
        return within_tolerance(name, got, want)

    with tempfile.TemporaryDirectory() as tmp:
        failures += run_cases(alea, tmp, all_cases, [], check=remember)
        failures += run_cases(alea, tmp, all_cases, ["--no-jit"], check=same_as_first)
    print(f"{2 * len(all_cases)} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
