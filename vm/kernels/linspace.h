// Evenly spaced numbers on a plain buffer: the reference kernel of
// `linspace`.
//
// NumPy's np.linspace(a, b, n, dtype=np.float32) step for step
// (numpy/core/function_base.py), so the result is NumPy's bit for bit: in
// float64, delta = b - a and div = n - 1; when div > 0, step = delta / div
// and y[i] = double(i) * step (or, when step == 0, as for a subnormal
// delta, y[i] = double(i) / div * delta); when n == 1, y[0] = 0.0 * delta
// (so an infinite or NaN delta gives NaN, as NumPy's). Then y[i] += a, the
// last element (n > 1) is b itself, and each is rounded to f32 (nearest
// even, as astype). Every operation is one IEEE double rounding: the build
// has -ffp-contract=off, so no FMA changes a bit.
#ifndef ALEA_VM_KERNELS_LINSPACE_H_
#define ALEA_VM_KERNELS_LINSPACE_H_

#include <cstdint>

namespace alea::vm::kernels {

// Writes out[begin..end) of linspace(a, b, n) (0 <= begin <= end <= n):
// each element depends only on its index, so ranges may run on threads.
void Linspace(double a, double b, int64_t n, int64_t begin, int64_t end, float* out);
// The same in float64 (np.linspace(a, b, n) itself: the last rounding left
// out), for histogram's float64 edges (kernels/count.h).
void Linspace(double a, double b, int64_t n, int64_t begin, int64_t end, double* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_LINSPACE_H_
