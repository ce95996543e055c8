"""linspace, eye, stack, roll, clip, square and % against NumPy, bit for bit.

    /usr/bin/python3 build_numpy_test.py ALEA

NumPy writes random and edge-case inputs (NaN, infinities, signed zeros,
subnormals, empty and 0-d shapes) as .npy files; one Alea program loads them,
applies each builtin and saves every result with save_npy; each result must
equal NumPy's in shape, dtype and bytes: np.linspace(a, b, n,
dtype=np.float32), np.eye, np.stack, np.roll, np.clip, np.square and np.fmod
(Alea's `%` has the dividend's sign, as Int's: NumPy's fmod, not its `%`).
The program runs twice, with the JIT and with --no-jit (square and clip fuse
with the ops around them; the unfused block must agree). Where the two sides
decide differently on purpose the expectation says so: clip gives a bound's
NaN when both x and that bound are NaN, so no case has both; a NaN Float
bound gives NaN, as np.clip's ufunc (np.clip itself reads a scalar NaN as no
bound, deprecated); an integer `%` by zero is an error in Alea, so no case
has one. Exit 77 (skipped) without
NumPy.
"""
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import DTYPES, float_literal, run_cases, sprinkle  # noqa: E402 (after the NumPy check)

F = np.float32


def special_f32(rng, shape, nan=True):
    """Random f32 with a sprinkling of awkward values."""
    x = (rng.standard_normal(shape) * 10).astype(np.float32)
    specials = [np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 3.4028235e38, 1.0, -1.0, 2.0]
    if nan:
        specials += [np.nan, np.float32(np.uint32(0xFFC00001).view(np.float32))]
    return sprinkle(rng, x, specials)


def cases(rng):
    """(name, inputs, Alea expression over the inputs a, b, c, NumPy's result)."""
    out = []

    # linspace: NumPy's float64 algorithm, then float32
    ends = [(0.0, 1.0), (1.0, 0.0), (-1.5, 2.25), (0.1, 0.7), (-0.0, 1.0), (3.0, 3.0),
            (1e-300, 3e-300), (0.0, 5e-324), (-0.0, -5e-324), (1e30, -1e30), (1e300, -1e300),
            (0.0, np.inf), (-np.inf, 0.0), (np.nan, 1.0), (2.0, -7.0), (-123.456, 987.654)]
    for _ in range(20):
        a, b = rng.standard_normal(2) * 10.0 ** rng.integers(-5, 6, size=2)
        ends.append((float(a), float(b)))
    counts = [0, 1, 2, 3, 4, 5, 7, 10, 49, 50, 101, 1000, 100003]
    for k, (a, b) in enumerate(ends):
        for n in counts if k < 6 else [0, 1, 2, int(rng.integers(3, 2000))]:
            with np.errstate(all="ignore"):
                want = np.linspace(a, b, n, dtype=np.float32)
            out.append((f"linspace_{k}_{n}", [],
                        f"linspace({float_literal(a)}, {float_literal(b)}, {n})", want))

    # eye
    for n in [0, 1, 2, 5, 33]:
        for dtype in [np.float32, np.int32, np.uint32, np.bool_]:
            out.append((f"eye_{n}_{DTYPES[dtype]}", [], f"eye({n}, {DTYPES[dtype]})",
                        np.eye(n, dtype=dtype)))

    # stack
    f2 = special_f32(rng, (4, 5))
    f2b = special_f32(rng, (4, 5))
    i3 = rng.integers(-1000, 1000, size=(2, 3, 4), dtype=np.int32)
    b1 = rng.integers(0, 2, size=7).astype(np.bool_)
    zero_d = np.array(2.5, np.float32)
    empty = np.zeros((0, 3), np.float32)
    for name, x, y in [("f2", f2, f2b), ("i3", i3, i3 * 2), ("b1", b1, ~b1), ("0d", zero_d, -zero_d),
                       ("empty", empty, empty)]:
        for axis in range(-x.ndim - 1, x.ndim + 1):
            out.append((f"stack_{name}_{axis}", [x, y], f"stack([a, b, a], axis: {axis})",
                        np.stack([x, y, x], axis=axis)))
    out.append(("stack_one", [f2], "stack([a])", np.stack([f2])))

    # roll
    u2 = rng.integers(0, 2**32, size=(6, 7), dtype=np.uint64).astype(np.uint32)
    for name, x in [("f2", f2), ("i3", i3), ("u2", u2), ("b1", b1), ("0d", zero_d),
                    ("empty", empty)]:
        for shift in [0, 1, -1, 3, -8, 1000003, -(2**40) - 5]:
            out.append((f"roll_{name}_{shift}", [x], f"roll(a, {shift})", np.roll(x, shift)))
            for axis in range(-x.ndim, x.ndim):
                out.append((f"roll_{name}_{shift}_{axis}", [x], f"roll(a, {shift}, axis: {axis})",
                            np.roll(x, shift, axis=axis)))

    # clip and square, alone and fused with the ops around them
    x = special_f32(rng, (30, 40))
    plain = special_f32(rng, (30, 40), nan=False)
    for lo, hi in [(0.0, 1.0), (-1.0, 6.0), (-0.0, 0.0), (0.0, -0.0), (2.0, 1.0), (-np.inf, np.inf),
                   (1e-45, 3.4028235e38)]:
        lo_s, hi_s = float_literal(lo), float_literal(hi)
        out.append((f"clip_{lo}_{hi}", [x], f"clip(a, {lo_s}, {hi_s})", np.clip(x, F(lo), F(hi))))
    # NaN bounds only against an x without NaN (see above). np.clip reads a
    # scalar NaN bound as no bound (deprecated since NumPy 1.17: "In future,
    # this will always return nan, like it already does when min or max are
    # arrays that contain nan"); Alea gives NaN, as np.clip's ufunc does.
    clip_ufunc = np.core.umath.clip
    out.append(("clip_nan_lo", [plain], "clip(a, nan, 1.0)", clip_ufunc(plain, F(np.nan), F(1.0))))
    out.append(("clip_nan_hi", [plain], "clip(a, 0.0, nan)", clip_ufunc(plain, F(0.0), F(np.nan))))
    lo_row = special_f32(rng, (40,), nan=False)
    hi_col = special_f32(rng, (30, 1), nan=False)
    out.append(("clip_tensors", [x, lo_row, hi_col], "clip(a, b, c)", np.clip(x, lo_row, hi_col)))
    lo_nan = special_f32(rng, (30, 40))
    out.append(("clip_tensor_nan_bounds", [plain, lo_nan], "clip(a, b, 5.0)",
                np.clip(plain, lo_nan, F(5.0))))
    out.append(("clip_float_tensor", [x, hi_col], "clip(a, -2.0, b)", np.clip(x, F(-2.0), hi_col)))
    with np.errstate(all="ignore"):
        out.append(("clip_fused", [x], "clip(a * 2.0 - 1.0, -1.0, 6.0) + 0.5",
                    np.clip(x * F(2.0) - F(1.0), F(-1.0), F(6.0)) + F(0.5)))
        out.append(("clip_fused_row", [plain, lo_row], "clip(a * 3.0, b, 4.0) * 0.5",
                    np.clip(plain * F(3.0), lo_row, F(4.0)) * F(0.5)))
        out.append(("square", [x], "square(a)", np.square(x)))
        out.append(("square_fused", [x], "square(a + 1.0) * 0.5", np.square(x + F(1.0)) * F(0.5)))
        out.append(("square_of_square", [x], "square(square(a)) - 1.0",
                    np.square(np.square(x)) - F(1.0)))
    big = special_f32(rng, (100003,))
    with np.errstate(all="ignore"):
        out.append(("clip_big", [big], "clip(a, -3.0, 3.0)", np.clip(big, F(-3.0), F(3.0))))
        out.append(("square_big", [big], "square(a) + 1.0", np.square(big) + F(1.0)))

    # % (np.fmod): f32 exact with its NaNs; integers without zero divisors
    y = special_f32(rng, (30, 40))
    y[0, :6] = [0.0, -0.0, np.inf, -np.inf, 1e-45, 3.4028235e38]
    with np.errstate(all="ignore"):
        out.append(("rem_f32", [x, y], "a % b", np.fmod(x, y)))
        out.append(("rem_f32_scalar", [x], "a % 2.5", np.fmod(x, F(2.5))))
        out.append(("rem_scalar_f32", [y], "7.25 % a", np.fmod(F(7.25), y)))
        out.append(("rem_f32_row", [x, lo_row], "a % b", np.fmod(x, lo_row)))
        out.append(("rem_f32_chain", [x, y], "(a % b) * 2.0 + 1.0", np.fmod(x, y) * F(2.0) + F(1.0)))
        wide = (rng.standard_normal(5000) * 1e30).astype(np.float32)
        narrow = (rng.standard_normal(5000) * 1e-30).astype(np.float32)
        out.append(("rem_f32_exponents", [wide, narrow], "a % b", np.fmod(wide, narrow)))
    i2 = rng.integers(-2**31, 2**31, size=(20, 30), dtype=np.int64).astype(np.int32)
    d2 = rng.integers(-50, 50, size=(20, 30), dtype=np.int32)
    d2[d2 == 0] = 7
    i2[0, :3] = [-2**31, -2**31, 2**31 - 1]
    d2[0, :3] = [-1, 1, -1]
    out.append(("rem_i32", [i2, d2], "a % b", np.fmod(i2, d2)))
    out.append(("rem_i32_scalar", [i2], "a % -7", np.fmod(i2, np.int32(-7))))
    out.append(("rem_scalar_i32", [d2], "-100 % a", np.fmod(np.int32(-100), d2)))
    du = u2.copy()
    du[du == 0] = 3
    out.append(("rem_u32", [u2, du[::-1]], "a % b", np.fmod(u2, du[::-1])))
    out.append(("rem_u32_scalar", [u2], "a % 1000", np.fmod(u2, np.uint32(1000))))
    return out


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20250704)
    all_cases = cases(rng)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for flags in [[], ["--no-jit"]]:
            failures += run_cases(alea, tmp, all_cases, flags)
    print(f"{2 * len(all_cases)} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
