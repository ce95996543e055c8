"""prod, argmin, var, std, logsumexp, any, all, cumprod, softmax and the
i32 sum against NumPy (and SciPy's logsumexp/softmax definitions).

    /usr/bin/python3 reduce_numpy_test.py ALEA

NumPy writes random and edge-case inputs (NaN, infinities, signed zeros,
ties, empty and 0-d shapes) as .npy files; one Alea program loads them,
applies each builtin, whole and along every axis (negative ones too), and
saves every result with save_npy; it runs with and without the JIT, whose
results must be the same bytes. Against NumPy:

- bitwise where the order is NumPy's or free: argmin, any, all, integer
  prod and sum (NumPy's int64 result, which fits, as int32), u32 prod
  (wrapping), f32 cumprod (sequential, as np.cumprod);
- within a tolerance where Alea's order is its own (kernels/reduce.h's 16
  lanes, not NumPy's pairwise sum) or its exp and log are (1-2 ulp, not
  NumPy's): f32 prod, var, std within 1e-5 relative (plus 1e-6 absolute for
  var and std near 0), logsumexp within 1e-5 relative or 1e-5 absolute,
  softmax within 4e-6 absolute plus 2e-5 relative; special values (NaN,
  infinities, signed zero) must match exactly.

Empty inputs: prod 1, var and std NaN, logsumexp -inf, any False, all True
(argmin of an empty axis is an error: tests/programs/err_tensor_argmin_empty).
SciPy is not needed: its logsumexp (max, non-finite max taken as 0, log of the
sum of exp(x - max), plus the max) and softmax (exp(x - max) / sum) are
written out in float32 here. Exit 77 (skipped) without NumPy.
"""
import os
import sys
import tempfile
import warnings

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import run_cases, sprinkle  # noqa: E402 (after the NumPy check)

EXACT = "exact"


def logsumexp(x, axis=None):
    m = np.amax(x, axis=axis, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, np.float32(0)).astype(np.float32)
    s = np.sum(np.exp(x - m), axis=axis, keepdims=True, dtype=np.float32)
    out = (np.log(s) + m).astype(np.float32)
    return out.reshape(()) if axis is None else np.squeeze(out, axis=axis)


def softmax(x, axis):
    m = np.amax(x, axis=axis, keepdims=True, initial=-np.inf)
    e = np.exp(x - m)
    return (e / np.sum(e, axis=axis, keepdims=True)).astype(np.float32)


def special_f32(rng, shape, scale=3.0):
    x = (rng.standard_normal(shape) * scale).astype(np.float32)
    return sprinkle(rng, x, [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0])


def cases(rng):
    """(name, inputs, expression, NumPy's result, tolerance (rtol, atol) or EXACT)."""
    out = []
    f2 = (rng.standard_normal((30, 7)) * 3).astype(np.float32)
    f3 = (rng.standard_normal((4, 5, 6)) * 3).astype(np.float32)
    s2 = special_f32(rng, (9, 8))
    near1 = (1 + rng.standard_normal((6, 40)) * 0.05).astype(np.float32)
    big = (rng.standard_normal((3, 70000)) * 4).astype(np.float32)
    offset = (rng.standard_normal(2000) + 1e4).astype(np.float32)  # var's two passes
    ties = rng.integers(-2, 3, size=(12, 10)).astype(np.float32)
    ties[0, :] = np.nan
    i2 = rng.integers(-50, 50, size=(8, 9), dtype=np.int32)
    small = rng.integers(-3, 4, size=(5, 6), dtype=np.int32)
    u1 = rng.integers(0, 2**32, size=(4, 50), dtype=np.uint64).astype(np.uint32)
    b2 = rng.integers(0, 2, size=(6, 11)).astype(np.bool_)
    b3 = rng.random((3, 4, 5)) < 0.9
    empty = np.zeros((0, 5), np.float32)
    zero_d = np.array(2.5, np.float32)
    inf_rows = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 1.0], [np.inf, -np.inf]],
                        np.float32)

    def axes(x):
        return [None] + list(range(-x.ndim, x.ndim))

    def add(name, inputs, expr, want, tol):
        out.append((name, inputs, expr, np.asarray(want), tol))

    def call(fn, axis, extra=""):
        args = "a" + ("" if axis is None else f", axis: {axis}") + extra
        return f"{fn}({args})"

    # f32 whole and along every axis
    for name, x in [("f2", f2), ("f3", f3), ("s2", s2), ("near1", near1), ("big", big),
                    ("offset", offset), ("ties", ties), ("empty", empty), ("zero_d", zero_d),
                    ("inf_rows", inf_rows)]:
        for axis in axes(x):
            tag = f"{name}_{'all' if axis is None else axis}"
            add(f"prod_{tag}", [x], call("prod", axis), np.prod(x, axis=axis), (1e-5, 0))
            nonempty = x.ndim == 0 or (x.shape[axis] > 0 if axis is not None else x.size > 0)
            if nonempty:
                add(f"argmin_{tag}", [x], call("argmin", axis),
                    np.argmin(x, axis=axis).astype(np.int32), EXACT)
            for ddof in (0, 1):
                extra = "" if ddof == 0 else ", ddof: 1"
                add(f"var_{tag}_{ddof}", [x], call("var", axis, extra),
                    np.var(x, axis=axis, ddof=ddof), (1e-5, 1e-6))
                add(f"std_{tag}_{ddof}", [x], call("std", axis, extra),
                    np.std(x, axis=axis, ddof=ddof), (1e-5, 1e-6))
            add(f"lse_{tag}", [x], call("logsumexp", axis), logsumexp(x, axis), (1e-5, 1e-5))
            if x.ndim > 0 and axis is not None:
                add(f"softmax_{tag}", [x], call("softmax", axis), softmax(x, axis), (2e-5, 4e-6))
            if axis is None:
                add(f"cumprod_{tag}", [x], "cumprod(a)", np.cumprod(x), EXACT)
            else:
                add(f"cumprod_{tag}", [x], f"cumprod(a, axis: {axis})",
                    np.cumprod(x, axis=axis), EXACT)
    add("softmax_default", [f3], "softmax(a)", softmax(f3, -1), (2e-5, 4e-6))

    # integers: exact (no overflow on these inputs)
    for name, x in [("i2", i2), ("small", small), ("u1", u1)]:
        for axis in axes(x):
            tag = f"{name}_{'all' if axis is None else axis}"
            want_sum = np.sum(x, axis=axis)
            want_prod = np.prod(x, axis=axis)
            if x.dtype == np.uint32:
                want_sum = np.sum(x, axis=axis, dtype=np.uint32)
                want_prod = np.prod(x, axis=axis, dtype=np.uint32)
            # i32: only where every running product fits (else an error:
            # tests/programs/err_tensor_prod_overflow).
            running = np.cumprod(x.astype(np.int64), axis=axis)
            if x.dtype == np.uint32 or np.all(np.abs(running) < 2**31):
                add(f"prod_{tag}", [x], call("prod", axis), want_prod.astype(x.dtype), EXACT)
            add(f"sum_{tag}", [x], call("sum", axis), want_sum.astype(x.dtype), EXACT)
            add(f"argmin_{tag}", [x], call("argmin", axis),
                np.argmin(x, axis=axis).astype(np.int32), EXACT)
            if name == "small":
                cp = np.cumprod(x) if axis is None else np.cumprod(x, axis=axis)
                add(f"cumprod_{tag}", [x], "cumprod(a)" if axis is None else
                    f"cumprod(a, axis: {axis})", cp.astype(np.int32), EXACT)
    add("cumprod_u1", [u1], "cumprod(a, axis: 1)", np.cumprod(u1, axis=1, dtype=np.uint32), EXACT)

    # bool any/all
    for name, x in [("b2", b2), ("b3", b3), ("bempty", np.zeros((0, 3), np.bool_)),
                    ("b0", np.array(True))]:
        for axis in axes(x):
            tag = f"{name}_{'all' if axis is None else axis}"
            add(f"any_{tag}", [x], call("any", axis), np.any(x, axis=axis), EXACT)
            add(f"all_{tag}", [x], call("all", axis), np.all(x, axis=axis), EXACT)
    return out


def close(got, want, tol):
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if tol == EXACT:
        return got.tobytes() == want.tobytes()
    rtol, atol = tol
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return False
    fin = np.isfinite(w)
    if not np.array_equal(g[~fin & ~np.isnan(w)], w[~fin & ~np.isnan(w)]):
        return False
    return bool(np.all(np.abs(g[fin] - w[fin]) <= atol + rtol * np.abs(w[fin])))


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20240612)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # var's "degrees of freedom <= 0" are cases too
        all_cases = cases(rng)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        # The comparison with NumPy is ours (with tolerances): run_cases only
        # runs, once with the JIT and once without.
        runs = {}
        for flags in ((), ("--no-jit",)):
            d = os.path.join(tmp, "jit" if not flags else "nojit")
            os.mkdir(d)
            if run_cases(alea, d, [(n, i, e, None) for n, i, e, _, _ in all_cases], flags,
                         check=None):
                return 1
            runs[flags] = d
        for name, _, expr, want, tol in all_cases:
            got = np.load(os.path.join(runs[()], f"{name}.out.npy"))
            nojit = np.load(os.path.join(runs[("--no-jit",)], f"{name}.out.npy"))
            if got.tobytes() != nojit.tobytes() or got.shape != nojit.shape:
                print(f"FAIL {name}: {expr} differs with --no-jit: {got!r} vs {nojit!r}")
                failures += 1
            elif not close(got, want, tol):
                print(f"FAIL {name}: {expr} gave {got.dtype}{got.shape} {got!r}, "
                      f"NumPy {want.dtype}{want.shape} {want!r} (tolerance {tol})")
                failures += 1
    print(f"{len(all_cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
