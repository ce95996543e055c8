#include "vm/kernels/count.h"

#include <cmath>
#include <cstdint>

#include "vm/kernels/linspace.h"

namespace alea::vm::kernels {
namespace {

// np.min_scalar_type gives float64 for a double from this magnitude on, so
// NumPy 1.24 computes in float64 next to a float32 array; below it (and for
// infinities, which it calls float16) in float32.
constexpr double kF32ScalarLimit = 3.4e38;

bool NeedsF64(double v) { return !std::isinf(v) && std::fabs(v) >= kF32ScalarLimit; }

// Steps 3 and 4 of count.h for an element x with estimate f, in the edges'
// type E.
template <typename E>
int64_t Correct(const HistogramPlan& p, const E* edges, E x, double f) {
  const int64_t last = p.bins - 1;
  // astype(np.intp) truncates; `f < bins` also sends a NaN estimate (0 times
  // an infinite norm) to the last bin rather than to an undefined cast.
  int64_t i = f < static_cast<double>(p.bins) ? static_cast<int64_t>(f) : last;
  if (i > 0 && x < edges[i]) --i;
  if (i != last && x >= edges[i + 1]) ++i;
  return i;
}

void HistogramF32(const HistogramPlan& p, const float* x, int64_t n, float* edges,
                  int32_t* counts) {
  Linspace(p.lo, p.hi, p.bins + 1, 0, p.bins + 1, edges);
  const float lo = static_cast<float>(p.lo), hi = static_cast<float>(p.hi);
  const float norm = static_cast<float>(p.norm);
  for (int64_t k = 0; k < n; ++k) {
    const float v = x[k];
    if (!(v >= lo && v <= hi)) continue;
    const float d = v - lo;
    const double f = p.norm_f64 ? static_cast<double>(d) * p.norm : static_cast<double>(d * norm);
    ++counts[Correct(p, edges, v, f)];
  }
}

void HistogramF64(const HistogramPlan& p, const float* x, int64_t n, double* edges,
                  int32_t* counts) {
  Linspace(p.lo, p.hi, p.bins + 1, 0, p.bins + 1, edges);
  const float lo = static_cast<float>(p.lo), hi = static_cast<float>(p.hi);
  for (int64_t k = 0; k < n; ++k) {
    const double v = x[k];
    const bool above = p.lo_f64 ? v >= p.lo : x[k] >= lo;
    const bool below = p.hi_f64 ? v <= p.hi : x[k] <= hi;
    if (!(above && below)) continue;
    ++counts[Correct(p, edges, v, (v - p.lo) * p.norm)];
  }
}

}  // namespace

void BinCount(const int32_t* idx, int64_t n, int32_t* counts) {
  for (int64_t i = 0; i < n; ++i) ++counts[idx[i]];
}

void BinCountWeighted(const int32_t* idx, const float* weights, int64_t n, int64_t length,
                      double* sums, float* out) {
  for (int64_t i = 0; i < n; ++i) {
    // A NaN sum stays as it is: x86 keeps the first operand's NaN when both
    // are NaN (NumPy's `sum += w`), but the compiler may swap the operands
    // of a commutative `+`.
    double& s = sums[idx[i]];
    s = std::isnan(s) ? s : s + static_cast<double>(weights[i]);
  }
  for (int64_t v = 0; v < length; ++v) out[v] = static_cast<float>(sums[v]);
}

int64_t FirstNegative(const int32_t* idx, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (idx[i] < 0) return i;
  }
  return -1;
}

int32_t MaxIndex(const int32_t* idx, int64_t n) {
  int32_t max = -1;
  for (int64_t i = 0; i < n; ++i) max = idx[i] > max ? idx[i] : max;
  return max;
}

HistogramPlan PlanHistogram(double lo, double hi, int64_t bins) {
  // NumPy: n_equal_bins / (last_edge - first_edge), in float64.
  const double norm = static_cast<double>(bins) / (hi - lo);
  return HistogramPlan{lo, hi, norm, bins, NeedsF64(lo), NeedsF64(hi), NeedsF64(norm)};
}

void Histogram(const HistogramPlan& plan, const float* x, int64_t n, void* edges, int32_t* counts) {
  if (plan.lo_f64 || plan.hi_f64) {
    HistogramF64(plan, x, n, static_cast<double*>(edges), counts);
  } else {
    HistogramF32(plan, x, n, static_cast<float*>(edges), counts);
  }
}

}  // namespace alea::vm::kernels
