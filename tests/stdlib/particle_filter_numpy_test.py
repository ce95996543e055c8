"""tests/programs/particle_filter.alea against the same filter in NumPy.

    /usr/bin/python3 particle_filter_numpy_test.py ALEA PROGRAM

Runs the program (a bootstrap particle filter written with cumsum,
searchsorted, gathers and the reductions) in a scratch directory, loads the
draws it saved (start, moves, us) and its observations, runs the same filter
in float32 NumPy on them, step by step from Alea's particles, and compares.
Alea's exp and sum are not NumPy's (the same to about an ulp, in another
order), so a cumulative weight may land on the other side of a resampling
point: at most 0.1% of the resampling indices may differ (2 of 120000 do
today). The posterior means and the log-likelihood agree within 1e-4
relative. Exit 77 (skipped)
without NumPy.
"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("no numpy: skipped")
    sys.exit(77)

F = np.float32


def numpy_filter(ys, start, moves, us, alea_ancestors):
    """The filter in NumPy; each step resamples with Alea's indices (a
    different index at one step would change one particle, which moves the
    cumulative weights after it, and the two runs would then drift apart by
    chance rather than by error), and returns its own for comparison."""
    n = start.size
    particles = start
    loglik = 0.0
    means, ancestors = [], []
    for t in range(ys.size):
        moved = particles + moves[t] * F(0.5)
        log_w = np.square((ys[t] - moved) / F(0.8)) * F(-0.5)
        top = log_w.max()
        w = np.exp(log_w - top)
        total = w.sum(dtype=F)
        loglik += (np.log(float(total) / n) + float(top)
                   - np.log(0.8 * np.sqrt(2.0 * np.pi)))
        weights = w / total
        means.append(float((weights * moved).sum(dtype=F)))
        points = (np.arange(n, dtype=F) + us[t]) / F(n)
        picked = np.minimum(np.searchsorted(np.cumsum(weights), points), n - 1).astype(np.int32)
        ancestors.append(picked)
        particles = moved[alea_ancestors[t]]
    return loglik, np.array(means, F), np.stack(ancestors)


def main():
    alea, program = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(program, tmp)
        run = subprocess.run([alea, "run", os.path.basename(program)], cwd=tmp,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL: alea exited {run.returncode}: {run.stderr}")
            return 1
        load = lambda name: np.load(os.path.join(tmp, f"particle_filter.{name}.tmp.npy"))
        ys, start, moves, us = load("ys"), load("start"), load("moves"), load("us")
        means, ancestors, loglik = load("means"), load("ancestors"), float(load("loglik"))
    want_loglik, want_means, want_ancestors = numpy_filter(ys, start, moves, us, ancestors)
    failures = 0
    differ = int((ancestors != want_ancestors).sum())
    if ancestors.shape != want_ancestors.shape or differ > 0.001 * want_ancestors.size:
        print(f"FAIL: {differ} of {want_ancestors.size} resampling indices differ")
        failures += 1
    scale = np.abs(want_means).max()
    if not np.allclose(means, want_means, rtol=1e-4, atol=1e-4 * scale):
        print(f"FAIL: means differ by up to {np.abs(means - want_means).max()}")
        failures += 1
    if abs(loglik - want_loglik) > 1e-4 * abs(want_loglik):
        print(f"FAIL: log-likelihood {loglik}, NumPy {want_loglik}")
        failures += 1
    print(f"{differ} resampling indices differ; means within "
          f"{np.abs(means - want_means).max():.3g}; log-likelihood {loglik:.6f} vs "
          f"{want_loglik:.6f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
