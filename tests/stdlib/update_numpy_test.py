"""set and add_at of tensors against NumPy's assignment and np.add.at, bit for bit.

    /usr/bin/python3 update_numpy_test.py ALEA

Every index form (an Int along an axis, a tuple of Ints, an i32 tensor of
positions along an axis, a bool mask of x's shape), values that broadcast
(a scalar, a row, one value per selected element), repeated indices
(`set` keeps the last value as NumPy's `x[idx] = v` does in practice;
`add_at` accumulates in index order, as np.add.at, so f32 sums match bit
for bit, but for which NaN the sum of two NaNs keeps), every dtype, awkward f32 values (NaN payloads, signed zeros,
infinities), 0-d and empty shapes. The expectation is NumPy's `y = x.copy();
y[index] = v` or `np.add.at(y, index, v)`. The program runs with the JIT
and with --no-jit. Exit 77 (skipped) without NumPy.
"""
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

from numpy_check import run_cases, same_bits, sprinkle  # noqa: E402 (after the NumPy check)

F = np.float32


def special_f32(rng, shape):
    x = (rng.standard_normal(shape) * 10).astype(np.float32)
    return sprinkle(rng, x, [np.inf, -np.inf, 0.0, -0.0, 1e-45, 3.4028235e38, np.nan,
                             np.float32(np.uint32(0xFFC00001).view(np.float32))])


def same_bits_but_nan_pairs(name, got, want):
    """same_bits, but where an f32 element and its value are both NaN the sum
    may be either NaN: Alea's is the element's (as `+` keeps a's), NumPy's
    depends on which loop its np.add.at runs (a compiler may swap the operands
    of a commutative add)."""
    want = np.asarray(want)
    if got.dtype == np.float32 and got.shape == want.shape:
        both = np.isnan(got) & np.isnan(want)
        got, want = np.where(both, F(np.nan), got), np.where(both, F(np.nan), want)
    return same_bits(name, got, want)


def numpy_update(op, x, index, v):
    y = x.copy()
    if op == "set":
        y[index] = v
    else:
        with np.errstate(all="ignore"):
            np.add.at(y, index, v)
    return y


def along(axis, i):
    """NumPy's index for position(s) i along `axis`: x[:, ..., i]."""
    return (slice(None),) * axis + (i,)


def cases(rng):
    """(name, inputs, Alea expression over the inputs a, b, c, NumPy's result)."""
    out = []
    ops = ["set", "add_at"]

    def add(name, op, inputs, expr, index, x, v):
        out.append((f"{op}_{name}", inputs, expr, numpy_update(op, x, index, v)))

    f3 = special_f32(rng, (3, 4, 5))
    i2 = rng.integers(-1000, 1000, size=(4, 6), dtype=np.int32)
    u2 = rng.integers(0, 2**32, size=(4, 6), dtype=np.uint64).astype(np.uint32)
    b2 = rng.integers(0, 2, size=(4, 6)).astype(np.bool_)

    # An Int along each axis, v a tensor of the indexed shape, a row of it, or a scalar.
    for op in ops:
        for axis in range(3):
            i = int(rng.integers(0, f3.shape[axis]))
            target = f3.shape[:axis] + f3.shape[axis + 1:]
            full = special_f32(rng, target)
            add(f"int_f32_{axis}", op, [f3, full], f"{op}(a, {i}, b, axis: {axis})",
                along(axis, i), f3, full)
            row = special_f32(rng, target[-1:])
            add(f"int_row_f32_{axis}", op, [f3, row], f"{op}(a, {i}, b, axis: {axis})",
                along(axis, i), f3, row)
            add(f"int_scalar_f32_{axis}", op, [f3], f"{op}(a, {i}, -2.5, axis: {axis})",
                along(axis, i), f3, F(-2.5))
        add("int_neg_axis", op, [f3], f"{op}(a, 1, 7.0, axis: -1)", along(2, 1), f3, F(7.0))
        add("int_i32", op, [i2], f"{op}(a, 3, -17)", 3, i2, np.int32(-17))
        add("int_u32_wraps", op, [u2], f"{op}(a, 2, 4294967295, axis: 1)", along(1, 2), u2,
            np.uint32(4294967295))
        add("int_int_for_f32", op, [f3], f"{op}(a, 0, 3)", 0, f3, F(3.0))
    add("int_bool", "set", [b2], "set(a, 1, true, axis: 1)", along(1, 1), b2, True)
    add("int_bool_tensor", "set", [b2, ~b2[0]], "set(a, 2, b)", 2, b2, ~b2[0])

    # A tuple of Ints addresses x[i0, ..., ik-1].
    for op in ops:
        v5 = special_f32(rng, (5,))
        add("tuple2", op, [f3, v5], f"{op}(a, (2, 3), b)", (2, 3), f3, v5)
        add("tuple2_scalar", op, [f3], f"{op}(a, (0, 1), 1.5)", (0, 1), f3, F(1.5))
        add("tuple3", op, [f3], f"{op}(a, (2, 3, 4), -0.0)", (2, 3, 4), f3, F(-0.0))
        v1 = special_f32(rng, (1,))
        add("tuple2_one", op, [f3, v1], f"{op}(a, (1, 1), b)", (1, 1), f3, v1)
        add("tuple_i32", op, [i2], f"{op}(a, (3, 5), 1000)", (3, 5), i2, np.int32(1000))
        x4 = special_f32(rng, (2, 3, 2, 2))
        add("tuple4", op, [x4], f"{op}(a, (1, 2, 0, 1), 9.0)", (1, 2, 0, 1), x4, F(9.0))
    add("tuple_bool", "set", [b2], "set(a, (0, 0), false)", (0, 0), b2, False)

    # An i32 tensor of positions along an axis, with repeats.
    for op in ops:
        for axis in range(3):
            n = f3.shape[axis]
            idx = rng.integers(0, n, size=7).astype(np.int32)  # repeats
            target = f3.shape[:axis] + idx.shape + f3.shape[axis + 1:]
            full = special_f32(rng, target)
            add(f"take_f32_{axis}", op, [f3, idx, full], f"{op}(a, b, c, axis: {axis})",
                along(axis, idx), f3, full)
            add(f"take_scalar_f32_{axis}", op, [f3, idx], f"{op}(a, b, 0.25, axis: {axis})",
                along(axis, idx), f3, F(0.25))
            row = special_f32(rng, target[-1:])
            add(f"take_row_f32_{axis}", op, [f3, idx, row], f"{op}(a, b, c, axis: {axis})",
                along(axis, idx), f3, row)
        idx2 = rng.integers(0, 4, size=(2, 3)).astype(np.int32)  # an index of rank 2
        v = rng.integers(-50, 50, size=(2, 3, 6), dtype=np.int32)
        add("take_2d_i32", op, [i2, idx2, v], f"{op}(a, b, c)", idx2, i2, v)
        vu = rng.integers(0, 2**32, size=(2, 3, 6), dtype=np.uint64).astype(np.uint32)
        add("take_2d_u32", op, [u2, idx2, vu], f"{op}(a, b, c)", idx2, u2, vu)
        zero_d_idx = np.array(2, np.int32)
        add("take_0d_idx", op, [i2, zero_d_idx], f"{op}(a, b, 5, axis: 1)", along(1, 2), i2,
            np.int32(5))
        empty_idx = np.zeros(0, np.int32)
        add("take_empty_idx", op, [f3, empty_idx], f"{op}(a, b, 1.0, axis: 1)",
            along(1, empty_idx), f3, F(1.0))
        e = np.zeros((0, 3), np.float32)
        add("take_empty_x", op, [e, np.array([2, 0], np.int32)], f"{op}(a, b, 1.0, axis: 1)",
            along(1, np.array([2, 0])), e, F(1.0))
    add("take_bool", "set", [b2, np.array([0, 3], np.int32)], "set(a, b, true, axis: 1)",
        along(1, np.array([0, 3])), b2, True)

    # Many repeats: the f32 sums' order shows in their last bits.
    bins = np.zeros(100, np.float32)
    idx = rng.integers(0, 100, size=20000).astype(np.int32)
    w = (rng.standard_normal(20000) * 1e3).astype(np.float32)
    add("take_histogram", "add_at", [bins, idx, w], "add_at(a, b, c)", idx, bins, w)
    add("take_last_wins", "set", [bins, idx, w], "set(a, b, c)", idx, bins, w)
    ci = rng.integers(-1000, 1000, size=20000).astype(np.int32)
    add("take_counts_i32", "add_at", [np.zeros(100, np.int32), idx, ci], "add_at(a, b, c)", idx,
        np.zeros(100, np.int32), ci)

    # A bool mask of x's shape: a scalar, one value per true element, or one value.
    for op in ops:
        mask = rng.integers(0, 2, size=f3.shape).astype(np.bool_)
        count = int(mask.sum())
        per = special_f32(rng, (count,))
        add("mask_f32", op, [f3, mask, per], f"{op}(a, b, c)", mask, f3, per)
        add("mask_scalar", op, [f3, mask], f"{op}(a, b, 0.0)", mask, f3, F(0.0))
        add("mask_one", op, [f3, mask, per[:1]], f"{op}(a, b, c)", mask, f3, per[:1])
        add("mask_none", op, [f3, np.zeros(f3.shape, np.bool_)], f"{op}(a, b, 1.0)",
            np.zeros(f3.shape, np.bool_), f3, F(1.0))
        add("mask_i32", op, [i2, i2 < 0], f"{op}(a, b, 7)", i2 < 0, i2, np.int32(7))
        add("mask_u32", op, [u2, b2], f"{op}(a, b, 4000000000)", b2, u2, np.uint32(4000000000))
        zero_d = np.array(4.5, np.float32)
        add("mask_0d_true", op, [zero_d, np.array(True)], f"{op}(a, b, 2.0)", np.array(True),
            zero_d, F(2.0))
        add("mask_0d_false", op, [zero_d, np.array(False)], f"{op}(a, b, 2.0)", np.array(False),
            zero_d, F(2.0))
        e = np.zeros((0, 3), np.float32)
        add("mask_empty", op, [e, np.zeros((0, 3), np.bool_)], f"{op}(a, b, 1.0)",
            np.zeros((0, 3), np.bool_), e, F(1.0))
    add("mask_bool", "set", [b2, b2], "set(a, b, false)", b2, b2, False)
    add("mask_comparison", "set", [f3], "set(a, a < 0.0, 0.0)", f3 < 0, f3, F(0.0))

    # The spec's own examples: a column, a 2-d point.
    m = special_f32(rng, (4, 6))
    col = special_f32(rng, (4,))
    add("column", "set", [m, col], "set(a, 5, b, axis: 1)", along(1, 5), m, col)
    add("point", "set", [m], "set(a, (3, 0), 1.0)", (3, 0), m, F(1.0))
    return out


def main():
    alea = sys.argv[1]
    rng = np.random.default_rng(20250705)
    all_cases = cases(rng)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for flags in [[], ["--no-jit"]]:
            failures += run_cases(alea, tmp, all_cases, flags, check=same_bits_but_nan_pairs)
    print(f"{2 * len(all_cases)} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
