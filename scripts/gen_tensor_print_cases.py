#!/usr/bin/python3
"""Writes tests/vm/data/tensor_print_cases.txt: NumPy 1.24's str() of tensors.

Run with the system Python that has NumPy 1.24 (/usr/bin/python3). Each case:

  case NAME
  dtype f32|i32|u32|bool
  shape D0 D1 ...        (nothing after 'shape' for a 0-d tensor)
  data V0 V1 ...         (f32 as 8-hex-digit bit patterns, ints in decimal,
                          bool as 0/1)
  expect N               (N lines of NumPy's exact str() follow)
  ...
  end

The output is deterministic (fixed seed), so re-running it gives the same file.
"""

import os
import sys

import numpy as np

assert np.__version__.startswith("1.24"), np.__version__

DTYPES = {"f32": np.float32, "i32": np.int32, "u32": np.uint32, "bool": np.bool_}
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "vm",
                   "data", "tensor_print_cases.txt")

cases = []


def add(name, dtype, values, shape=None):
    a = np.asarray(values, dtype=DTYPES[dtype])
    if shape is not None:
        a = a.reshape(shape)
    # Distinct values can share a short name ("%g"): number the repeats.
    taken = {c[0] for c in cases}
    base, n = name, 1
    while name in taken:
        n += 1
        name = "%s_%d" % (base, n)
    cases.append((name, dtype, a))


def f32_bits(bits, shape=None):
    a = np.asarray(bits, dtype=np.uint32).view(np.float32)
    return a if shape is None else a.reshape(shape)


def main():
    np.set_printoptions()  # the defaults, explicitly
    rng = np.random.default_rng(20240613)
    f32 = np.float32
    nan, inf = np.nan, np.inf

    # Integer-valued floats, small and large.
    add("ints_123", "f32", [1, 2, 3])
    add("ints_neg", "f32", [-1, 0, 1])
    add("arange10", "f32", np.arange(10))
    add("int_big", "f32", [12345678, 1])
    add("int_2p24", "f32", [16777216, 16777218, 3])
    add("int_7e7", "f32", [70000008, 1e5])
    add("int_99999999", "f32", [99999999, 1e6])
    # The switches to scientific notation.
    for vals in ([1e-5, 1e5], [1e-4, 1], [9.9e-5, 1], [1e8], [1e8, 1], [99999990.0],
                 [1e7], [1, 1000], [1, 1000.1], [1, 1001], [0.001, 1], [0.001, 1.01],
                 [0.0001, 0.1], [0.0001, 0.10001], [0, 1e-5], [0, 1e8], [0, 0.5],
                 [1.5e-5, 1e5, -1], [9.99999999e-6, 1.2345678e5], [1.1e-5, 1.2345678e5],
                 [1e-5, 1.2345678e5], [1e30, -1e-30], [1e-45], [1e38], [-1e-7, 2e-7, 3e-7],
                 [123456789.0, 0.5], [1e8, 1e-4], [5e-5, 5e-3]):
        add("switch_" + "_".join("%g" % v for v in vals), "f32", vals)
    # Precision 8 rounding and trailing-zero trimming.
    for vals in ([1 / 3, 2 / 3], [0.1, 0.2, 0.3], [123456.789, 0.5], [0.123456789],
                 [1.000000001, 2.5], [0.00012345678, 0.1], [3.14159265358979, 2.718281828],
                 [99.999999999, 1], [0.5, 0.25, 0.125, 0.0625], [1.0000001], [0.30000001],
                 [1234.5678, 0.001], [7.0000005, -7.0000005], [0.12345675, 0.12345685],
                 [2 ** -9, 1], [2 ** -13, 0.1], [1 / 7, 100 / 7, 1000 / 7]):
        add("prec_" + "_".join("%.6g" % v for v in vals), "f32", vals)
    # Negative zero.
    add("negzero", "f32", [-0.0])
    add("negzero_zero", "f32", [-0.0, 0.0])
    add("negzero_mixed", "f32", [-0.0, 1.5, -2.25])
    add("negzero_exp", "f32", [-0.0, 1e-5, 1e5])
    add("zeros5", "f32", np.zeros(5))
    # NaN and infinities.
    for name, vals in (("nan", [nan]), ("inf", [inf]), ("ninf", [-inf]),
                       ("nan_inf", [nan, inf]), ("nan_ninf", [nan, -inf]),
                       ("nan_1_ninf", [nan, 1, -inf]), ("inf_half", [inf, 0.5]),
                       ("ninf_12345", [-inf, 1.2345]), ("nan_exp", [nan, 1e-5, 1e5]),
                       ("ninf_exp", [-inf, 1e-10, 2.5e10]), ("nan_neg", [nan, -3]),
                       ("inf_big", [inf, 123456.5, -0.0]), ("all_nan", [nan, nan, nan]),
                       ("nan_2d", [[nan, 1], [2, -inf]])):
        add("nonfinite_" + name, "f32", vals)
    add("nonfinite_negnan", "f32", f32_bits([0xFFC00000, 0x3F800000]))
    add("nonfinite_payload", "f32", f32_bits([0x7F800001, 0x7FBFFFFF, 0x40490FDB]))
    # Denormals and extremes.
    add("denorm_min", "f32", f32_bits([0x00000001]))
    add("denorm_mix", "f32", f32_bits([0x00000001, 0x00000002, 0x007FFFFF, 0x00800000]))
    add("denorm_one", "f32", [1e-40, 1])
    add("extremes", "f32", [3.4028235e38, -3.4028235e38, 1.17549435e-38])
    add("max_min", "f32", f32_bits([0x7F7FFFFF, 0x00000001]))
    add("pow2s", "f32", [2.0 ** k for k in range(-10, 30, 3)])
    # All-equal arrays.
    add("full_7_5", "f32", np.full((3, 3), 7.5))
    add("ones_2x2", "f32", np.ones((2, 2)))
    add("full_1e10", "f32", np.full(4, 1e10))
    add("full_third", "f32", np.full((2, 3), 1 / 3))
    # Shapes and wrapping.
    add("arange30", "f32", np.arange(30))
    add("arange30_half", "f32", np.arange(30) + 0.5)
    add("linspace_40", "f32", np.linspace(-1, 1, 40))
    add("rand_4x20", "f32", rng.standard_normal((4, 20)))
    add("rand_2x3x15", "f32", rng.standard_normal((2, 3, 15)))
    add("rand_2x2x2x12", "f32", rng.standard_normal((2, 2, 2, 12)))
    add("rand_3x1x2x2", "f32", rng.standard_normal((3, 1, 2, 2)))
    add("rand_exp_5x9", "f32", rng.standard_normal((5, 9)) * 1e6)
    add("rand_exp_3x3x7", "f32", rng.standard_normal((3, 3, 7)) * 1e-6)
    add("col_5x1", "f32", np.arange(5), (5, 1))
    add("row_1x5", "f32", np.arange(5), (1, 5))
    add("single_1", "f32", [4.5])
    add("single_1x1x1", "f32", [[[4.5]]])
    add("i32_arange100", "i32", np.arange(100))
    add("i32_10x10", "i32", np.arange(100), (10, 10))
    add("i32_2x3x4", "i32", np.arange(24), (2, 3, 4))
    add("i32_2x2x2x2", "i32", np.arange(16) - 8, (2, 2, 2, 2))
    add("u32_big_row", "u32", rng.integers(0, 2 ** 32, 30, dtype=np.uint64))
    add("i32_wide_2x20", "i32", rng.integers(-2 ** 31, 2 ** 31, 40), (2, 20))
    # Empty arrays.
    for shape in ((0,), (2, 0), (0, 3), (2, 0, 3), (1, 0), (3, 2, 0), (0, 0)):
        for dt in ("f32", "i32", "u32", "bool"):
            add("empty_%s_%s" % (dt, "x".join(map(str, shape))), dt, np.zeros(shape))
    # 0-d tensors of each dtype.
    add("scalar_i32", "i32", np.array(-5))
    add("scalar_i32_min", "i32", np.array(-2 ** 31))
    add("scalar_u32", "u32", np.array(4294967295))
    add("scalar_u32_0", "u32", np.array(0))
    add("scalar_true", "bool", np.array(True))
    add("scalar_false", "bool", np.array(False))
    for v in (0.1, 1.0, 1e16, 1e15, 9999999999999998.0, 1e-4, 9.9e-5, 1e-5, 1.5e-5, 0.0, -0.0,
              nan, inf, -inf, 16777216.0, 70000008.0, 1 / 3, -2.5, 123456.789, 3.4028235e38,
              1e-45, 1e-40, 100.0, 1e10, 0.30000001, 2 ** -20, 5e-324):
        add("scalar_f32_%r" % v, "f32", np.array(v))
    # A rounding bound is a valid shortest result only for an even mantissa.
    for v in (536871168, 536871232, 536872768, 536872832, 997159168, -53529872):
        add("scalar_f32_bound_%d" % v, "f32", np.array(v))
    add("bound_array", "f32", [536871168, 536871232, 536872768, 536872832])
    add("bound_array_pos", "f32", [53529872, 53529876, 1e6])
    # Random scalars: random bit patterns exercise the shortest digits.
    for i, b in enumerate(rng.integers(0, 2 ** 32, 300, dtype=np.uint64)):
        add("scalar_f32_bits_%d" % i, "f32", f32_bits(np.array(b, dtype=np.uint32)))
    for i, v in enumerate(rng.standard_normal(60) * 10.0 ** rng.integers(-8, 20, 60)):
        add("scalar_f32_rand_%d" % i, "f32", np.array(v))
    # Random arrays across magnitudes.
    for k in range(-8, 12):
        add("rand_mag_%d" % k, "f32", rng.standard_normal(7) * 10.0 ** k)
        add("rand_unif_mag_%d" % k, "f32", rng.uniform(0, 1, 6) * 10.0 ** k)
    for i in range(40):
        bits = rng.integers(0, 2 ** 32, int(rng.integers(1, 12)), dtype=np.uint64)
        add("rand_bits_%d" % i, "f32", f32_bits(bits.astype(np.uint32)))
    for i in range(20):
        # Finite patterns in a narrow exponent band: positional mode.
        exps = rng.integers(120, 140, 8)
        mant = rng.integers(0, 2 ** 23, 8)
        add("rand_band_%d" % i, "f32", f32_bits(((exps << 23) | mant).astype(np.uint32)))
    for i in range(10):
        add("rand_round_%d" % i, "f32", np.round(rng.standard_normal(8) * 100, i % 5))
    # Summarization past 1000 elements.
    add("sum_arange2000", "f32", np.arange(2000))
    add("sum_i32_1001", "i32", np.arange(1001))
    add("sum_i32_1000", "i32", np.arange(1000))
    add("sum_bool_1001", "bool", np.arange(1001) % 3 == 0)
    add("sum_rand_100x100", "f32", rng.standard_normal((100, 100)))
    add("sum_rand_20x20x20", "f32", rng.standard_normal((20, 20, 20)))
    add("sum_i32_40x30", "i32", rng.integers(-1000, 1000, (40, 30)))
    add("sum_2x1000", "f32", rng.uniform(0, 1, (2, 1000)))
    add("sum_1000x2", "f32", rng.uniform(0, 1, (1000, 2)))
    add("sum_3x400", "u32", rng.integers(0, 2 ** 32, (3, 400), dtype=np.uint64))
    add("sum_4x4x4x20", "f32", rng.standard_normal((4, 4, 4, 20)) * 1e-5)
    add("sum_corner_nan", "f32", np.concatenate([[nan], np.arange(1500), [-inf]]))
    add("sum_middle_big", "f32", np.concatenate([np.ones(500), [1e20], np.ones(500)]))
    add("sum_10x200", "f32", np.arange(2000) / 7, (10, 200))
    # Integers: negatives, large values, padding.
    add("i32_mixed", "i32", [-5, 10, 200, -3000])
    add("i32_extremes", "i32", [-2 ** 31, 2 ** 31 - 1, 0])
    add("i32_2x3_neg", "i32", [[1, -22, 333], [-4444, 5, 6]])
    add("u32_extremes", "u32", [0, 4294967295, 7])
    add("u32_2x2", "u32", [[1, 2 ** 31], [3, 40]])
    add("i32_single_neg", "i32", [-7])
    # Bools.
    add("bool_tf", "bool", [True, False])
    add("bool_ff", "bool", [False, False])
    add("bool_tt", "bool", [True, True, True])
    add("bool_2x3", "bool", [[True, False, True], [False, True, False]])
    add("bool_wrap", "bool", rng.integers(0, 2, 30) == 1)
    add("bool_3d", "bool", rng.integers(0, 2, (2, 3, 4)) == 1)

    seen = set()
    with open(OUT, "w") as f:
        for name, dtype, a in cases:
            assert name not in seen, name
            seen.add(name)
            if dtype == "f32":
                data = ["%08x" % b for b in a.reshape(-1).view(np.uint32)]
            elif dtype == "bool":
                data = ["1" if b else "0" for b in a.reshape(-1)]
            else:
                data = [str(int(v)) for v in a.reshape(-1)]
            text = str(a)
            lines = text.split("\n")
            f.write("case %s\n" % name.replace(" ", "_"))
            f.write("dtype %s\n" % dtype)
            f.write(("shape " + " ".join(map(str, a.shape))).rstrip() + "\n")
            f.write(("data " + " ".join(data)).rstrip() + "\n")
            f.write("expect %d\n" % len(lines))
            for line in lines:
                f.write(line + "\n")
            f.write("end\n")
    print("wrote %d cases to %s" % (len(cases), os.path.normpath(OUT)), file=sys.stderr)


if __name__ == "__main__":
    main()
