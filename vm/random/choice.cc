#include "vm/random/choice.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "vm/kernels/math_f32.h"
#include "vm/random/samplers.h"

namespace alea::vm::random {
namespace {

constexpr uint64_t kChunk = 512;

// x mod d for a fixed d >= 1 without a division: with c = 2^64 / d rounded
// up (mod 2^64), the high 64 bits of (c x mod 2^64) d, exact for every
// 32-bit x and d (Lemire, Kaser and Kurz, "Faster remainder by direct
// computation", 2019). JAX's randint takes three remainders per element.
class Remainder {
 public:
  explicit Remainder(uint32_t d) : d_(d), c_(UINT64_MAX / d + 1) {}
  uint32_t operator()(uint32_t x) const {
    const uint64_t low = c_ * x;
    return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * d_) >> 64);
  }

 private:
  uint64_t d_, c_;
};

// The first c in [0, n) with cum[c] >= r, or n (std::lower_bound), by
// halving with conditional moves instead of branches: a draw's r is
// random, so a branch on it would be mispredicted half the time.
int64_t LowerBound(const float* cum, int64_t n, float r) {
  const float* base = cum;
  while (n > 1) {
    const int64_t half = n / 2;
    base = base[half - 1] < r ? base + half : base;
    n -= half;
  }
  return (base - cum) + (*base < r ? 1 : 0);
}

}  // namespace

void CumulativeSum(const float* p, int64_t n, float* cum) {
  float acc = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    acc = acc + p[i];
    cum[i] = acc;
  }
}

void ChoiceUniform(Key k, int64_t n, uint64_t start, uint64_t count, int32_t* out,
                   const DrawKernels& batch) {
  // samplers.h's RandInt for [0, n): the span is n, the multiplier (2^16
  // mod n)^2 mod n (the square < 2^32), and the sum below wraps in u32 as
  // JAX's does.
  const auto span = static_cast<uint32_t>(n);
  const Remainder rem(span);
  const uint32_t half = rem(1u << 16);
  const uint32_t multiplier = rem(half * half);
  const Key k_high = SplitKey(k, 0), k_low = SplitKey(k, 1);
  uint32_t high[kChunk], low[kChunk];
  for (uint64_t base = 0; base < count; base += kChunk) {
    const uint64_t m = std::min(kChunk, count - base);
    batch.Bits(k_high, start + base, m, high);
    batch.Bits(k_low, start + base, m, low);
    for (uint64_t j = 0; j < m; ++j) {
      out[base + j] = static_cast<int32_t>(rem(rem(high[j]) * multiplier + rem(low[j])));
    }
  }
}

void ChoiceByWeights(Key k, const float* cum, int64_t n, uint64_t start, uint64_t count,
                     int32_t* out, const DrawKernels& batch) {
  const float total = cum[n - 1];
  float u[kChunk];
  for (uint64_t base = 0; base < count; base += kChunk) {
    const uint64_t m = std::min(kChunk, count - base);
    batch.Uniform(k, start + base, m, u);
    for (uint64_t j = 0; j < m; ++j) {
      // 1 - u is in (0, 1], so r is in (0, total] and the search never runs
      // off the end, nor stops at a leading class of weight 0.
      const float r = total * (1.0f - u[j]);
      out[base + j] = static_cast<int32_t>(LowerBound(cum, n, r));
    }
  }
}

void ChoiceTopK(Key k, const float* p, int64_t n, int64_t draws, int32_t* out,
                const DrawKernels& batch) {
  std::vector<float> g(static_cast<size_t>(n));
  batch.Gumbel(k, 0, static_cast<uint64_t>(n), g.data());
  for (int64_t c = 0; c < n; ++c) g[c] = g[c] + kernels::LogF32(p[c]);
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  // Weights are finite and >= 0, so no g is NaN (a weight of 0 gives -inf).
  std::partial_sort(order.begin(), order.begin() + draws, order.end(),
                    [&g](int32_t a, int32_t b) { return g[a] > g[b] || (g[a] == g[b] && a < b); });
  std::copy(order.begin(), order.begin() + draws, out);
}

}  // namespace alea::vm::random
