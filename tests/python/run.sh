#!/usr/bin/env bash
# The Python package as a user installs it: a virtual environment over
# Debian's Python (NumPy, pytest, Dask from Debian), `pip install ./python`
# against this build's libalea.so, then python/tests with pytest (the Dask
# example included: ALEA_BIN is the `alea` binary it is compared with).
#   run.sh BUILD_DIR ALEA_BIN
set -euo pipefail
build=$(cd "$1" && pwd)
alea_bin=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$build/python-venv

python=/usr/bin/python3
if ! "$python" -c 'import numpy, pybind11, pytest' 2>/dev/null; then
  echo "python: Debian's python3-numpy, python3-pybind11 and python3-pytest are missing (scripts/setup)" >&2
  exit 1
fi
rm -rf "$venv"
"$python" -m venv --system-site-packages "$venv"
# No index is reached: everything the build needs is Debian's.
ALEA_BUILD_DIR=$build "$venv/bin/pip" install --quiet --no-index --no-build-isolation \
  "$root/python" >"$build/python-pip.log" 2>&1 || {
  cat "$build/python-pip.log" >&2
  exit 1
}
cd "$build"  # not the source tree: import the installed package
ALEA_BIN=$alea_bin "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
