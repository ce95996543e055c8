// Counting into bins on plain buffers: the reference kernels of `bincount`
// and `histogram`.
//
// Both walk their input once in index order. Integer counts do not depend on
// the order; bincount's weights are added in it, in double (as
// np.bincount(weights=) does), and each bin is rounded to f32 once at the
// end, so a result is NumPy's float64 result cast to float32, bit for bit.
//
// Histogram is NumPy 1.24's np.histogram(x, bins, range=(lo, hi))[0] for
// float32 x and Python-float lo < hi, step for step
// (numpy/lib/histograms.py, the uniform-bins path). NumPy's value-based
// casting decides each step's precision: a double scalar next to a float32
// array counts as float32 when |v| < 3.4e38 (np.min_scalar_type), else as
// float64. With norm = double(bins) / (hi - lo) in float64:
//   - when |lo| and |hi| are both below 3.4e38 the edges are
//     np.linspace(lo, hi, bins + 1, dtype=float32) (kernels/linspace.h) and
//     the work is in float32: x is kept when x >= f32(lo) and x <= f32(hi)
//     (so NaN, infinities and values outside are dropped), and the bin's
//     estimate is f = f32(x - f32(lo)) * f32(norm), that product in float32
//     too unless |norm| >= 3.4e38 (then in float64);
//   - otherwise the edges are np.linspace(lo, hi, bins + 1) in float64, x
//     is kept when x >= lo and x <= hi (each comparison in float32 or
//     float64 by its bound's magnitude, as above), and then converted to
//     float64 for f = (x - lo) * norm and the comparisons with the edges;
//   - then i = int64(f) (truncation), i == bins becomes bins - 1, i -= 1
//     when x < edges[i], and unless i is the last bin i += 1 when
//     x >= edges[i + 1].
// In every case NumPy handles without an IndexError, i ends in [0, bins);
// the estimate is clamped to that range before an edge is read, so memory is
// never touched outside, whatever the range.
#ifndef ALEA_VM_KERNELS_COUNT_H_
#define ALEA_VM_KERNELS_COUNT_H_

#include <cstdint>

namespace alea::vm::kernels {

// counts[v] += 1 for each of the n indices idx[i], all in [0, length); the
// caller has zeroed counts and checked the indices (FirstNegative, Max).
void BinCount(const int32_t* idx, int64_t n, int32_t* counts);
// counts[idx[i]] += weights[i] in double over i ascending (sums[length],
// zeroed by the caller), then out[v] = float(sums[v]).
void BinCountWeighted(const int32_t* idx, const float* weights, int64_t n, int64_t length,
                      double* sums, float* out);
// The position of the first negative index, or -1.
int64_t FirstNegative(const int32_t* idx, int64_t n);
// The largest index, or -1 for none.
int32_t MaxIndex(const int32_t* idx, int64_t n);

// The precisions NumPy 1.24 computes a histogram's steps in (above).
struct HistogramPlan {
  double lo, hi, norm;
  int64_t bins;
  bool lo_f64, hi_f64;  // |lo|, |hi| >= 3.4e38: either makes the edges float64
  bool norm_f64;        // |norm| >= 3.4e38: the f32 path's product in float64
};
// The plan for finite lo < hi and bins >= 1.
HistogramPlan PlanHistogram(double lo, double hi, int64_t bins);
// counts[0..bins) += the histogram of x[0..n). `edges`: room for bins + 1
// doubles, where the edges are written first (as floats or doubles).
void Histogram(const HistogramPlan& plan, const float* x, int64_t n, void* edges, int32_t* counts);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_COUNT_H_
