"""Builds the alea package: pybind11 (Debian's python3-pybind11) over the C
API of libalea.so, which the package carries beside its extension.

    cmake --workflow --preset release        # builds libalea.so
    python3 -m venv --system-site-packages /tmp/venv
    /tmp/venv/bin/pip install ./python

ALEA_BUILD_DIR names another build tree than ../build/release.
"""

import glob
import os
import shutil

import pybind11
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("ALEA_BUILD_DIR", os.path.join(ROOT, "build", "release"))
LIBRARY_DIR = os.path.join(BUILD, "embed")


def shared_library():
    """The real file of libalea.so (libalea.so.MAJOR.MINOR.PATCH) and its SONAME link."""
    found = sorted(glob.glob(os.path.join(LIBRARY_DIR, "libalea.so.*.*.*")))
    if not found:
        raise SystemExit(
            f"alea: no libalea.so in {LIBRARY_DIR}: build Alea first "
            "(cmake --workflow --preset release), or set ALEA_BUILD_DIR")
    real = found[-1]
    major, minor = os.path.basename(real).split(".so.")[1].split(".")[:2]
    return real, f"libalea.so.{major}.{minor}"


class BuildWithLibrary(build_ext):
    """Puts libalea.so (under its SONAME) beside the extension, which finds it
    through an $ORIGIN run path."""

    def run(self):
        super().run()
        real, soname = shared_library()
        target = os.path.join(self.build_lib, "alea", soname)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(real, target)
        if self.inplace:
            shutil.copyfile(real, os.path.join(HERE, "alea", soname))


real, soname = shared_library()
setup(
    name="alea",
    version=os.path.basename(real).split(".so.")[1],
    description="Alea from Python: exact, reproducible stochastic programs",
    packages=["alea"],
    ext_modules=[
        Extension(
            "alea._alea",
            sources=["src/alea_module.cc"],
            include_dirs=[pybind11.get_include(), os.path.join(ROOT, "include")],
            extra_compile_args=["-std=c++20", "-O2", "-fvisibility=hidden"],
            extra_link_args=[os.path.join(LIBRARY_DIR, soname), "-Wl,-rpath,$ORIGIN"],
            language="c++",
        )
    ],
    cmdclass={"build_ext": BuildWithLibrary},
    zip_safe=False,
)
