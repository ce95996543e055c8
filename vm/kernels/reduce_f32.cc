// The f32 reductions of several passes (reduce.h: var, std, logsumexp) and
// softmax, each pass in reduce.h's order through reduce_lanes.h.
//
// Outputs go in groups: along the last axis one output (a contiguous row),
// along another axis up to kReduceBlock neighbouring outputs of one outer
// index (rows `inner` apart), whose per-output values between passes (a
// mean, a max) live in scratch arrays on the stack.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/kernels/reduce.h"
#include "vm/kernels/reduce_lanes.h"

namespace alea::vm::kernels {
namespace {

using Scratch = std::array<float, kReduceBlock>;

// body(base, width, stride, out) for every group: `base` its first input
// element, `width` outputs, rows `stride` apart, `out` its first output
// (contiguous), `first` the offset of base in the whole input.
template <typename Body>
void ForGroups(int64_t outer, int64_t n, int64_t inner, const float* in, float* out, Body body) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t p0 = 0; p0 < inner; p0 += kReduceBlock) {
      const int64_t width = std::min(kReduceBlock, inner - p0);
      const int64_t first = o * n * inner + p0;
      body(in + first, width, inner, out + o * inner + p0, first);
    }
  }
}

// The means of a group into m (reduce.h: the sum / float(n)).
void Means(const float* base, int64_t n, int64_t width, int64_t stride, float* m) {
  ReduceLanes<SumOp<float>, float>(1, n, width, base, m, NoMap(), stride);
  const float divisor = static_cast<float>(n);
  for (int64_t p = 0; p < width; ++p) m[p] = m[p] / divisor;
}

// The maxima of a group into m.
void Maxima(const float* base, int64_t n, int64_t width, int64_t stride, float* m) {
  ReduceLanes<MaxOp<float>, float>(1, n, width, base, m, NoMap(), stride);
}

}  // namespace

void Var(int64_t outer, int64_t n, int64_t inner, int64_t ddof, bool std, const float* in,
         float* out) {
  // NumPy's max(n - ddof, 0), converted to f32 as NumPy's true_divide does.
  const float divisor = VarDivisor(n, ddof);
  ForGroups(outer, n, inner, in, out,
            [&](const float* base, int64_t width, int64_t stride, float* y, int64_t) {
              Scratch m;
              Means(base, n, width, stride, m.data());
              ReduceLanes<SumOp<float>, float>(
                  1, n, width, base, y,
                  [&](int64_t q, float x) {
                    const float d = x - m[q];
                    return d * d;
                  },
                  stride);
              for (int64_t p = 0; p < width; ++p) {
                y[p] = y[p] / divisor;
                if (std) y[p] = std::sqrt(y[p]);
              }
            });
}

void LogSumExp(int64_t outer, int64_t n, int64_t inner, const float* in, float* out) {
  ForGroups(outer, n, inner, in, out,
            [&](const float* base, int64_t width, int64_t stride, float* y, int64_t) {
              Scratch c;
              Maxima(base, n, width, stride, c.data());
              for (int64_t p = 0; p < width; ++p) {
                if (!std::isfinite(c[p])) c[p] = 0.0f;  // scipy's a_max[~isfinite] = 0
              }
              ReduceLanes<SumOp<float>, float>(
                  1, n, width, base, y, [&](int64_t q, float x) { return ExpF32(x - c[q]); },
                  stride);
              for (int64_t p = 0; p < width; ++p) y[p] = LogF32(y[p]) + c[p];
            });
}

void Softmax(int64_t outer, int64_t n, int64_t inner, const float* in, float* out) {
  if (n == 0) return;
  // Groups of outputs are groups of reduced sequences here: `y` is unused,
  // the sequence's elements are written in place of its inputs' positions.
  ForGroups(outer, n, inner, in, out,
            [&](const float* base, int64_t width, int64_t stride, float*, int64_t first) {
              Scratch m, s;
              Maxima(base, n, width, stride, m.data());
              float* e = out + first;
              for (int64_t i = 0; i < n; ++i) {
                for (int64_t p = 0; p < width; ++p) {
                  e[i * stride + p] = ExpF32(base[i * stride + p] - m[p]);
                }
              }
              ReduceLanes<SumOp<float>, float>(1, n, width, e, s.data(), NoMap(), stride);
              for (int64_t i = 0; i < n; ++i) {
                for (int64_t p = 0; p < width; ++p) e[i * stride + p] = e[i * stride + p] / s[p];
              }
            });
}

}  // namespace alea::vm::kernels
