"""What the NumPy comparison tests share (search_numpy_test.py,
build_numpy_test.py, count_numpy_test.py): awkward f32 inputs, and one Alea program that loads
each case's inputs from .npy files, applies its expression and saves the
result, compared with NumPy's in shape, dtype and bytes. Import it after
NumPy, so that a missing NumPy still skips the test."""
import os
import subprocess

import numpy as np

DTYPES = {np.float32: "f32", np.int32: "i32", np.uint32: "u32", np.bool_: "bool"}


def alea_dtype(a):
    return DTYPES[a.dtype.type]


def sprinkle(rng, x, specials):
    """x with up to 3 * len(specials) random elements replaced by specials."""
    flat = x.reshape(-1)
    specials = np.array(specials, np.float32)
    if flat.size:
        pick = rng.integers(0, flat.size, size=min(flat.size, 3 * len(specials)))
        flat[pick] = rng.choice(specials, size=pick.size)
    return x


def run_cases(alea, tmp, cases, flags=()):
    """Runs every (name, inputs, expression over a, b, c, NumPy's result) in
    one `alea run` with `flags`; prints each mismatch and returns their
    count (1 when alea fails)."""
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
    for name, _, expr, want in cases:
        got = np.load(os.path.join(tmp, f"{name}.out.npy"))
        want = np.asarray(want)
        if got.shape != want.shape or got.dtype != want.dtype or got.tobytes() != want.tobytes():
            print(f"FAIL {name} {' '.join(flags)}: {expr} gave {got.dtype}{got.shape} {got!r}, "
                  f"NumPy {want.dtype}{want.shape} {want!r}")
            failures += 1
    return failures
