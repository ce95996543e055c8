"""examples/dask/: the ensemble on a Dask cluster of two worker processes
equals, bit for bit, the same ensemble run in one process by `alea run`."""

import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "dask")

pytest.importorskip("dask.distributed")


def test_two_workers_equal_one_process(tmp_path):
    alea_bin = os.environ.get("ALEA_BIN")
    if not alea_bin:
        pytest.skip("ALEA_BIN (the alea binary) is not set")
    one = tmp_path / "one.npy"
    many = tmp_path / "many.npy"
    args = ["6", "2000", "7"]
    expected = subprocess.run([alea_bin, "run", os.path.join(EXAMPLE, "ensemble.alea"), *args,
                               str(one)], check=True, capture_output=True, text=True).stdout
    got = subprocess.run([sys.executable, os.path.join(EXAMPLE, "ensemble.py"), "--workers", "2",
                          "--tasks", args[0], "--paths", args[1], "--seed", args[2], "--out",
                          str(many)], check=True, capture_output=True, text=True, cwd=tmp_path)
    assert got.stdout == expected
    a, b = np.load(one), np.load(many)
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape == (12000,)
    assert a.tobytes() == b.tobytes()
