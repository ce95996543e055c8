#include "vm/kernels/linspace.h"

namespace alea::vm::kernels {
namespace {

// T: the result's type; every step is in double either way.
template <typename T>
void Fill(double a, double b, int64_t n, int64_t begin, int64_t end, T* out) {
  const double delta = b - a;
  const int64_t div = n - 1;
  if (div > 0) {
    const double d = static_cast<double>(div);
    const double step = delta / d;
    if (step == 0) {
      // NumPy's special case for a subnormal delta: divide first, so that
      // y[i] is not i * 0.
      for (int64_t i = begin; i < end; ++i) {
        const double y = static_cast<double>(i) / d;
        out[i] = static_cast<T>(y * delta + a);
      }
    } else {
      for (int64_t i = begin; i < end; ++i) {
        const double y = static_cast<double>(i) * step;
        out[i] = static_cast<T>(y + a);
      }
    }
    // NumPy sets the endpoint after the sum: the last element is b exactly.
    if (end == n) out[n - 1] = static_cast<T>(b);
    return;
  }
  // n == 1: NumPy multiplies its arange by delta without a step.
  for (int64_t i = begin; i < end; ++i) out[i] = static_cast<T>(0.0 * delta + a);
}

}  // namespace

void Linspace(double a, double b, int64_t n, int64_t begin, int64_t end, float* out) {
  Fill(a, b, n, begin, end, out);
}

void Linspace(double a, double b, int64_t n, int64_t begin, int64_t end, double* out) {
  Fill(a, b, n, begin, end, out);
}

}  // namespace alea::vm::kernels
