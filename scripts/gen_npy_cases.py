#!/usr/bin/python3
"""Regenerates tests/vm/data/npy/: small .npy files written by NumPy itself.

tests/vm/npy_test.cc checks that Alea reads each one and, for the supported
ones, that Alea's own writer produces the same bytes. The files are committed
so the tests need no Python; rerun this (with /usr/bin/python3, NumPy >= 1.24)
only to add cases, and update the test's expectations to match.
"""

import os
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "vm", "data", "npy")


def save(name, array):
    np.save(os.path.join(OUT, name), array, allow_pickle=False)


def save_version(name, array, version):
    with open(os.path.join(OUT, name), "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=False)


def main():
    os.makedirs(OUT, exist_ok=True)
    # Supported dtypes, as np.save writes them (format 1.0): Alea must match
    # these bytes exactly.
    save("f32_2x3.npy", (np.arange(6, dtype=np.float32).reshape(2, 3) - 2) * 0.75)
    save("f32_scalar.npy", np.float32(3.25))  # 0-d: shape ()
    save("f32_0x4.npy", np.zeros((0, 4), dtype=np.float32))
    save("i32_5.npy", np.array([-2**31, -1, 0, 1, 2**31 - 1], dtype=np.int32))
    save("u32_2x2.npy", np.array([[0, 1], [0xDEADBEEF, 0xFFFFFFFF]], dtype=np.uint32))
    save("bool_3.npy", np.array([True, False, True]))
    save("i32_1x2x3x4.npy", np.arange(24, dtype=np.int32).reshape(1, 2, 3, 4))
    # Other header versions NumPy can write, for the reader.
    save_version("f32_2x3_v2.npy", np.arange(6, dtype=np.float32).reshape(2, 3), (2, 0))
    save_version("f32_2x3_v3.npy", np.arange(6, dtype=np.float32).reshape(2, 3), (3, 0))
    # Files Alea must refuse with a clear message.
    save("f64_2.npy", np.array([1.5, 2.5], dtype=np.float64))
    save("i64_2.npy", np.array([1, 2], dtype=np.int64))
    save("f32_be_2.npy", np.array([1.5, 2.5], dtype=">f4"))
    save("u8_2.npy", np.array([1, 2], dtype=np.uint8))
    save("f32_fortran_2x3.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
