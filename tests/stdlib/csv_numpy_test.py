"""load_csv and save_csv against NumPy's loadtxt and savetxt, both ways.

    /usr/bin/python3 csv_numpy_test.py ALEA

NumPy -> Alea: np.savetxt writes f32/i32/u32 tables (f32 with awkward values:
subnormals, the largest finite, signed zeros, nan, inf); Alea's load_csv reads
them and save_npy writes what it read, which must equal the array bit for
bit. Alea -> NumPy: Alea's save_csv writes tensors made from the same .npy
files, and np.loadtxt must read back the same bits. Exit 77 (skipped) without
NumPy.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)


def cases():
    rng = np.random.default_rng(7)
    f = rng.standard_normal((50, 7)).astype(np.float32) * np.float32(1e3)
    f[0, :7] = [0.1, -0.0, 1e-45, 3.4028235e38, np.nan, np.inf, -np.inf]
    f[1, :3] = [1.1754944e-38, -1e-40, 16777217.0]
    bits = rng.integers(0, 2**32, size=(20, 5), dtype=np.uint64).astype(np.uint32)
    g = bits.view(np.float32).copy()  # every kind of f32 bit pattern
    g[0, 0] = np.uint32(0xFFC00001).view(np.float32)  # a NaN with a sign and a payload
    return [
        ("f32_table", f, "f32", {}),
        ("f32_bits", g, "f32", {}),
        ("f32_column", f[:, 0].copy(), "f32", {}),
        ("f32_row", f[2:3, :].copy(), "f32", {}),
        ("i32", np.array([[-2**31, 2**31 - 1, 0], [5, -7, 12]], np.int32), "i32", {}),
        ("u32", np.array([[0, 2**32 - 1], [3, 4]], np.uint32), "u32", {}),
        ("semicolon", f[:4, :3].copy(), "f32", {"delimiter": ";"}),
    ]


def same(a, b):
    """Equal shapes and bits, except that any NaN matches any NaN (text
    keeps no NaN payload or sign)."""
    if a.shape != b.shape:
        return False
    if a.dtype.kind != "f":
        return a.tobytes() == b.tobytes()
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    return bool(np.array_equal(nan_a, nan_b)) and a[~nan_a].tobytes() == b[~nan_b].tobytes()


def main():
    alea = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, array, dtype, options in cases():
            delimiter = options.get("delimiter", ",")
            theirs_csv = os.path.join(tmp, name + ".numpy.csv")
            fmt = "%.18e" if dtype == "f32" else "%d"
            np.savetxt(theirs_csv, array, delimiter=delimiter, fmt=fmt, header="made by numpy")
            ours_npy = os.path.join(tmp, name + ".alea.npy")
            source_npy = os.path.join(tmp, name + ".source.npy")
            np.save(source_npy, array)
            ours_csv = os.path.join(tmp, name + ".alea.csv")
            program = os.path.join(tmp, name + ".alea")
            with open(program, "w") as p:
                p.write(
                    "fn main() {\n"
                    f'  save_npy("{ours_npy}", load_csv("{theirs_csv}", {dtype}, skip_header: 1, '
                    f'delimiter: "{delimiter}"));\n'
                    f'  save_csv("{ours_csv}", load_npy("{source_npy}", {dtype}), '
                    f'delimiter: "{delimiter}");\n'
                    "}\n")
            run = subprocess.run([alea, "run", program], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL {name}: alea exited {run.returncode}: {run.stderr}")
                failures += 1
                continue
            want = np.loadtxt(theirs_csv, delimiter=delimiter, dtype=array.dtype)
            got = np.load(ours_npy)
            if not same(got, want):
                print(f"FAIL {name}: load_csv read {got!r}, np.loadtxt {want!r}")
                failures += 1
            back = np.loadtxt(ours_csv, delimiter=delimiter, dtype=array.dtype)
            if not same(back, np.squeeze(array)):
                print(f"FAIL {name}: np.loadtxt read back {back!r} from save_csv of {array!r}")
                failures += 1
    print(f"{len(cases()) * 2 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
