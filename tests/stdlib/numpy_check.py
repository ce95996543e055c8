"""What the NumPy comparison tests share (search_numpy_test.py,
build_numpy_test.py, linalg_numpy_test.py, reduce_numpy_test.py,
count_numpy_test.py, index_numpy_test.py): awkward f32 inputs, and one
Alea program that loads each case's inputs from .npy files, applies its
expression and saves the result, compared with NumPy's (by default in
shape, dtype and bytes). Import it after NumPy, so that a missing NumPy
still skips the test."""
import os
import subprocess

import numpy as np

DTYPES = {np.float32: "f32", np.int32: "i32", np.uint32: "u32", np.bool_: "bool"}


def alea_dtype(a):
    return DTYPES[a.dtype.type]


def float_literal(x):
    """An Alea Float literal for the double x (repr round-trips)."""
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def sprinkle(rng, x, specials):
    """x with up to 3 * len(specials) random elements replaced by specials."""
    flat = x.reshape(-1)
    specials = np.array(specials, np.float32)
    if flat.size:
        pick = rng.integers(0, flat.size, size=min(flat.size, 3 * len(specials)))
        flat[pick] = rng.choice(specials, size=pick.size)
    return x


def same_bits(name, got, want):
    """run_cases' default comparison: shape, dtype and bytes."""
    want = np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype or got.tobytes() != want.tobytes():
        return f"gave {got.dtype}{got.shape} {got!r}, NumPy {want.dtype}{want.shape} {want!r}"
    return None


def run_cases(alea, tmp, cases, flags=(), check=same_bits):
    """Runs every (name, inputs, expression over a, b, c, NumPy's result) in
    one `alea run` with `flags`; prints each mismatch (`check(name, got,
    want)` returns what is wrong, or None) and returns their count (1 when
    alea fails). check=None only runs (the results are in tmp/NAME.out.npy,
    for a caller that compares them its own way)."""
    lines = []
    for name, inputs, expr, _ in cases:
        lets = ""
        for k, x in enumerate(inputs):
            path = os.path.join(tmp, f"{name}.in{k}.npy")
            np.save(path, x)
            lets += f'let {"abc"[k]} = load_npy("{path}", {alea_dtype(x)}); '
        result = os.path.join(tmp, f"{name}.out.npy")
        lines.append(f'  {{ {lets}save_npy("{result}", {expr}) }}')
    program = os.path.join(tmp, "cases.alea")
    with open(program, "w") as p:
        p.write("fn main() {\n" + ";\n".join(lines) + "\n}\n")
    run = subprocess.run([alea, "run", *flags, program], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL: alea {' '.join(flags)} exited {run.returncode}: {run.stderr}")
        return 1
    failures = 0
    for name, _, expr, want in cases if check is not None else []:
        got = np.load(os.path.join(tmp, f"{name}.out.npy"))
        wrong = check(name, got, want)
        if wrong is not None:
            print(f"FAIL {name} {' '.join(flags)}: {expr} {wrong}")
            failures += 1
    return failures
