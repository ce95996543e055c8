#!/usr/bin/env python3
"""The cost of one Python -> Alea call of a trivial function, beside a
pybind11 no-op and a NumPy ufunc on 1-element arrays (bench/python/README.md).

    bench/python/call_overhead.py PYTHON_WITH_ALEA   # e.g. build/release/python-venv/bin/python
"""

import os
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

MEASURE = r'''
import sys, timeit
sys.path.insert(0, sys.argv[1])
import numpy as np
import alea, noop

m = alea.compile("fn add(a: Int, b: Int) -> Int = a + b\nfn addf(a: Float, b: Float) -> Float = a + b\n"
                 "fn first(x: Tensor) -> Float = item(x[0])\n")
vm = alea.Vm()
vm.load(m)
add = vm.function("add")
addf = vm.function("addf")
first = vm.function("first")
one = np.ones(1, np.float32)
a = np.ones(1, np.float32)
cases = [
    ("alea: add(1, 2) through a Function", lambda: add(1, 2)),
    ("alea: vm.call('add', 1, 2)", lambda: vm.call("add", 1, 2)),
    ("alea: addf(1.0, 2.0)", lambda: addf(1.0, 2.0)),
    ("alea: first(1-element f32 array)", lambda: first(one)),
    ("pybind11 no-op add(1, 2)", lambda: noop.add(1, 2)),
    ("numpy.add on 1-element arrays", lambda: np.add(a, a)),
]
for name, f in cases:
    n = 200000
    best = min(timeit.repeat(f, number=n, repeat=7)) / n
    print(f"{name:40s} {best * 1e9:8.0f} ns")
'''


def main():
    python = sys.argv[1] if len(sys.argv) > 1 else sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        includes = subprocess.run([python, "-m", "pybind11", "--includes"], check=True,
                                  capture_output=True, text=True).stdout.split()
        suffix = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                                check=True, capture_output=True, text=True).stdout.strip()
        subprocess.run(["c++", "-O2", "-shared", "-fPIC", "-std=c++17", *includes,
                        os.path.join(HERE, "noop.cc"), "-o", os.path.join(scratch, "noop" + suffix)],
                       check=True)
        subprocess.run([python, "-c", MEASURE, scratch], check=True)


if __name__ == "__main__":
    main()
