// The peer of a Python -> Alea call: a pybind11 function that does nothing
// but add two ints (bench/python/README.md).
#include <pybind11/pybind11.h>

PYBIND11_MODULE(noop, m) {
  m.def("add", [](long a, long b) { return a + b; });
}
