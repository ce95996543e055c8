"""What the bench/ scripts that time Alea against NumPy have in common.

Alea is timed from outside, with hyperfine, in its steady state: a program
runs the measured operation R + 1 times in a loop, a baseline program (the
same setup) runs it once, and (t_(R+1) - t_1) / R is one more run with
process start-up, compilation and the first run's costs (JIT compilation,
first-touch page faults of the output) cancelled out. R comes from a short
calibration run that the benchmark program times itself with `clock()`.
NumPy is timed in Debian's /usr/bin/python3 with `timeit`.

The scripts import this file after putting bench/ on sys.path; it is not a
package of its own and runs under the same /usr/bin/python3.
"""

import argparse
import json
import os
import platform
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def log(msg):
    print(f"run: {msg}", file=sys.stderr, flush=True)


def die(msg):
    print(f"run: error: {msg}", file=sys.stderr)
    sys.exit(1)


# --- the alea binary ---------------------------------------------------------


def default_alea():
    """The release build's binary: the numbers are about optimized code, so
    the default never picks a debug or sanitizer build."""
    for rel in ("build/release/alea", "build/release/repl/alea"):
        p = ROOT / rel
        if p.is_file() and os.access(p, os.X_OK) and p.stat().st_size > 100_000:
            return p
    return ROOT / "build/release/alea"


def find_alea(given):
    """The binary to time (resolved), after checking that it and hyperfine
    exist: better to stop here than after minutes of NumPy timings."""
    alea = (given or default_alea()).resolve()
    if not (alea.is_file() and os.access(alea, os.X_OK)):
        die(f"no alea binary at {alea} (build it: cmake --build --preset release, or pass --alea)")
    if shutil.which("hyperfine") is None:
        die("hyperfine is not installed (scripts/setup installs it)")
    return alea


def run_help(alea):
    """`alea run --help`, to find out which options this build has (the
    scripts must work with binaries older than the options they would use)."""
    try:
        return subprocess.run([str(alea), "run", "--help"], capture_output=True,
                              text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def has_threads_option(alea):
    return "--threads" in run_help(alea)


def alea_flags(alea, jit, threads=1):
    """`alea run`'s flags: --no-jit for the reference kernels, and --threads
    where the build has it (its default is every core, so a single-threaded
    comparison has to ask for one)."""
    flags = [] if jit else ["--no-jit"]
    if has_threads_option(alea):
        flags += ["--threads", str(threads)]
    return flags


@contextmanager
def work_directory(keep, alea):
    """Yields (workdir, private copy of alea). The generated programs and
    hyperfine's JSON go to `keep` when given (and stay), else to a temporary
    directory. The binary is copied so that a rebuild during the run cannot
    break it or mix two builds in one table."""
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        workdir, tmp = keep.resolve(), None
    else:
        tmp = tempfile.TemporaryDirectory(prefix="alea-bench-")
        workdir = Path(tmp.name)
    try:
        copy = workdir / "alea"
        shutil.copy2(alea, copy)
        yield workdir, copy
    finally:
        if tmp is not None:
            tmp.cleanup()


# --- options -----------------------------------------------------------------


def add_leading_options(ap, quick_help, clock_help):
    """--alea, --quick, --clock: the options every script lists first."""
    ap.add_argument("--alea", type=Path, default=None,
                    help="the alea binary (default: build/release/alea)")
    ap.add_argument("--quick", action="store_true", help=quick_help)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help=clock_help)


def add_trailing_options(ap):
    """--runs, --target, --keep, -v: how long and how often to time."""
    ap.add_argument("--runs", type=int, default=None,
                    help="hyperfine runs per program and NumPy repeats (default 5, quick 3)")
    ap.add_argument("--target", type=float, default=None,
                    help="seconds each timed loop should take (default 0.5, quick 0.2)")
    ap.add_argument("--max-reps", type=int, default=1000, help=argparse.SUPPRESS)
    ap.add_argument("--keep", type=Path, default=None,
                    help="write the generated programs and JSON here and keep them")
    ap.add_argument("-v", "--verbose", action="store_true", help="show hyperfine's output")


def finish_options(args):
    """Fills in the defaults that depend on --quick."""
    args.runs = args.runs or (3 if args.quick else 5)
    args.target = args.target or (0.2 if args.quick else 0.5)
    args.warmup = 0 if args.quick else 1
    return args


# --- timing Alea -------------------------------------------------------------


def calibrate(alea_cmd, path, timeout=None):
    """Runs a calibration program and estimates one operation's time:
    (seconds, None) or (None, error). The program prints
    `(count, first run's seconds, loop's seconds, checksum)`: it runs the
    operation once (JIT compile, page faults: on a busy machine that can take
    100 times longer than the next run) and, unless that took long, again in a
    loop timed with clock() (wall time). That time is scaled by the process's
    CPU/wall time, so that a busy machine does not make R much too small.
    A run past `timeout` seconds is an error (a hung build would otherwise
    hang hyperfine next)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        p = subprocess.run(alea_cmd + [str(path)], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"the calibration run took over {timeout:g} s"
    except OSError as e:
        return None, str(e)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[0]
    m = re.search(r"\((\d+), ([0-9.e+-]+), ([0-9.e+-]+), ", p.stdout)
    if not m:
        return None, f"unexpected output: {p.stdout.strip()[:80]!r}"
    n, first, rest = int(m.group(1)), float(m.group(2)), float(m.group(3))
    busy = min(1.0, cpu / wall) if wall > 0 else 1.0
    return max((rest / n if n > 0 else first) * busy, 1e-7), None


def hyperfine_steady_state(alea_cmd, progs, json_path, label, args, clock=None):
    """Times pairs of programs with hyperfine and returns {key: seconds per
    operation, or an error string; key + ":reps": R}. progs holds
    (key, R, timed program running the operation R + 1 times, baseline
    running it once). clock ("wall": best of the runs, "cpu": mean
    user + system time, as hyperfine exports only means of those) defaults
    to args.clock."""
    clock = clock or args.clock
    results = {}
    if not progs:
        return results
    cmds = [c for _, _, path, base in progs for c in (base, path)]
    log(f"{label}: hyperfine, {len(cmds)} programs x "
        f"{args.runs} runs; R = " + ", ".join(f"{key}:{r}" for key, r, _, _ in progs))
    hf = ["hyperfine", "-N", "--style", "basic" if args.verbose else "none",
          "--warmup", str(args.warmup), "--runs", str(args.runs), "--export-json", str(json_path)]
    hf += [shlex.join(alea_cmd + [str(c)]) for c in cmds]
    p = subprocess.run(hf, stdout=sys.stderr if args.verbose else subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        die(f"hyperfine failed:\n{p.stderr}")
    res = json.loads(json_path.read_text())["results"]

    def stat(r):
        return min(r["times"]) if clock == "wall" else r["user"] + r["system"]

    for i, (key, reps, _, _) in enumerate(progs):
        d = stat(res[2 * i + 1]) - stat(res[2 * i])
        results[key] = d / reps if d > 0 else "noise: t_(R+1) <= t_1"
        results[key + ":reps"] = reps
    return results


# --- timing NumPy ------------------------------------------------------------

# The timing loop run by /usr/bin/python3: SETUP (the caller's code, defining
# what the statements use) goes where the marker is. Each statement is timed
# with `timeit`, its number of executions per repeat grown until one repeat
# takes min_repeat_s.
NUMPY_SCRIPT = r"""
import json, sys, time, timeit
import numpy as np
stmts, clock, repeats, min_repeat_s = json.loads(sys.argv[1])
#SETUP#
timer = time.process_time if clock == "cpu" else time.perf_counter
out = {}
for key, stmt in stmts:
    t = timeit.Timer(stmt, timer=timer, globals=globals())
    number = 1
    while True:
        once = t.timeit(number)
        if once >= min_repeat_s or number >= 1 << 20:
            break
        number = max(number * 2, int(number * min_repeat_s / max(once, 1e-9) * 1.1))
    per = [x / number for x in t.repeat(repeat=repeats, number=number)]
    out[key] = min(per) if clock == "wall" else sum(per) / len(per)
print(json.dumps(out))
"""


def time_numpy(setup, stmts, args, what="ops", threads=1, blas_threads=None):
    """{key: seconds per execution} for stmts ([key, statement] pairs),
    timed in one /usr/bin/python3 process after `setup`. Best of args.runs
    repeats (wall) or their mean (cpu). OpenMP (as PyTorch uses it) is held
    to `threads` and OpenBLAS to `blas_threads` (default: the same):
    installing libopenblas-dev switches Debian's NumPy to it."""
    if not stmts:
        return {}
    log(f"Python: {len(stmts)} {what} x {args.runs} repeats")
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(blas_threads or threads),
               OMP_NUM_THREADS=str(threads))
    cfg = json.dumps([stmts, args.clock, args.runs, args.target / 2])
    script = NUMPY_SCRIPT.replace("#SETUP#", setup.strip("\n"))
    p = subprocess.run(["/usr/bin/python3", "-c", script, cfg], capture_output=True,
                       text=True, env=env)
    if p.returncode != 0:
        log(f"NumPy failed:\n{p.stderr}")
        return {k: "error: NumPy failed" for k, _ in stmts}
    return json.loads(p.stdout)


# --- reporting ---------------------------------------------------------------


def cpu_description():
    """The CPU model, with "(AVX-512)" when it has it: the JIT's kernels and
    OpenBLAS's take a different path with it."""
    cpu = "?"
    try:
        info = Path("/proc/cpuinfo").read_text()
        m = re.search(r"model name\s*:\s*(.*)", info)
        cpu = (m.group(1) if m else platform.processor()) + (
            " (AVX-512)" if "avx512f" in info else "")
    except OSError:
        pass
    return cpu


def ratio(anchor, alea):
    """anchor / Alea (> 1: Alea is faster), or None when either is missing."""
    if isinstance(anchor, (int, float)) and isinstance(alea, (int, float)) and alea > 0:
        return anchor / alea
    return None


def print_table(head, rows):
    """Left-aligned columns, as wide as their widest cell, under a rule."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths))
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip())


def machine_was_busy():
    """Whether the 1-minute load average exceeded half the cores: then
    wall-clock times include waiting for a core."""
    return os.getloadavg()[0] > 0.5 * (os.cpu_count() or 1)
