#include "vm/random/samplers.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>

#include "vm/kernels/math_f32.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

// XLA's max: NaN if either operand is NaN (std::max would drop one side).
inline float MaxF32(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::nanf("");
  return a > b ? a : b;
}

inline uint32_t BitsAt(Key k, uint64_t i) {
  const auto [a, b] =
      Threefry2x32(k.k0, k.k1, static_cast<uint32_t>(i >> 32), static_cast<uint32_t>(i));
  return a ^ b;
}

// XLA's unsigned remainder: x % 0 == x (JAX's randint relies on it).
inline uint32_t RemU32(uint32_t x, uint32_t y) { return y == 0 ? x : x % y; }

}  // namespace

void Bits(Key k, uint64_t start, uint64_t count, uint32_t* out) {
  for (uint64_t j = 0; j < count; ++j) out[j] = BitsAt(k, start + j);
}

void Uniform(Key k, uint64_t start, uint64_t count, float lo, float hi, float* out) {
  const float scale = hi - lo;
  for (uint64_t j = 0; j < count; ++j) {
    const float u = BitsToUnitFloat(BitsAt(k, start + j));
    // Two roundings, as JAX's separate multiply and add (-ffp-contract=off).
    const float scaled = u * scale;
    out[j] = MaxF32(lo, scaled + lo);
  }
}

void Bernoulli(Key k, float p, uint64_t start, uint64_t count, uint8_t* out) {
  // uniform(0, 1) is u itself: u * 1 + 0 and max(0, u) are exact.
  for (uint64_t j = 0; j < count; ++j) {
    out[j] = BitsToUnitFloat(BitsAt(k, start + j)) < p ? 1 : 0;
  }
}

namespace {

// JAX's randint arithmetic for one [lo, hi), precomputed once per draw.
class RandIntRange {
 public:
  RandIntRange(int64_t lo, int64_t hi) {
    constexpr int64_t kMin = INT32_MIN;
    constexpr int64_t kMax = INT32_MAX;
    const bool hi_out_of_range = hi > kMax;
    lo_ = static_cast<int32_t>(std::clamp(lo, kMin, kMax));
    const int32_t hi32 = static_cast<int32_t>(std::clamp(hi, kMin, kMax));
    // JAX subtracts in i32 (wrapping) and reinterprets the difference as u32.
    span_ = static_cast<uint32_t>(hi32) - static_cast<uint32_t>(lo_);
    if (hi32 <= lo_) span_ = 1;
    // Lets hi = 2^31 reach INT32_MAX; the full range wraps to 0 = "all of u32".
    if (hi_out_of_range && hi32 > lo_) span_ += 1;
    // 2^32 mod span through (2^16 mod span)^2, the square wrapping in u32.
    multiplier_ = RemU32(1u << 16, span_);
    multiplier_ = RemU32(multiplier_ * multiplier_, span_);
  }

  int32_t operator()(uint32_t high, uint32_t low) const {
    const uint32_t offset = RemU32(RemU32(high, span_) * multiplier_ + RemU32(low, span_), span_);
    return static_cast<int32_t>(static_cast<uint32_t>(lo_) + offset);
  }

 private:
  int32_t lo_;
  uint32_t span_;
  uint32_t multiplier_;
};

}  // namespace

void RandInt(Key k, int64_t lo, int64_t hi, uint64_t start, uint64_t count, int32_t* out) {
  const RandIntRange range(lo, hi);
  const Key k_high = SplitKey(k, 0);
  const Key k_low = SplitKey(k, 1);
  for (uint64_t j = 0; j < count; ++j) {
    out[j] = range(BitsAt(k_high, start + j), BitsAt(k_low, start + j));
  }
}

int32_t RandIntFromWords(int64_t lo, int64_t hi, uint32_t high, uint32_t low) {
  return RandIntRange(lo, hi)(high, low);
}

int PermutationRounds(uint64_t n) {
  // Computed as JAX computes it, in double: the static stop criterion of
  // tjablin's analysis (exponent 3). n^3 is never a power of 2^32 - 1 for
  // n > 1, so no rounding case sits on an integer.
  constexpr double kExponent = 3.0;
  const double size = static_cast<double>(std::max<uint64_t>(1, n));
  return static_cast<int>(std::ceil(kExponent * std::log(size) / std::log(4294967295.0)));
}

void Permutation(Key k, uint64_t n, int32_t* out, uint64_t* scratch) {
  for (uint64_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(i);
  const int rounds = PermutationRounds(n);
  // A round's stable sort of the values by the bits of their positions is
  // a sort of (bits << 32 | position), all distinct: positions break ties
  // as stability does. So std::sort in place, without the buffer
  // std::stable_sort would allocate beside the caller's scratch.
  constexpr uint64_t kChunk = 256;
  uint32_t bits[kChunk];
  for (int r = 0; r < rounds; ++r) {
    const Key sub = SplitKey(k, 1);
    k = SplitKey(k, 0);
    // The sort keys belong to positions, not values: position i gets bits i.
    for (uint64_t from = 0; from < n; from += kChunk) {
      const uint64_t count = std::min(kChunk, n - from);
      Bits(sub, from, count, bits);
      for (uint64_t j = 0; j < count; ++j) scratch[from + j] = uint64_t{bits[j]} << 32 | (from + j);
    }
    std::sort(scratch, scratch + n);
    // Each row takes the value at its old position, then they go back.
    for (uint64_t i = 0; i < n; ++i) {
      scratch[i] = static_cast<uint32_t>(out[scratch[i] & 0xFFFFFFFFu]);
    }
    for (uint64_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(scratch[i]);
  }
}

float NormalOfBits(uint32_t bits) {
  // JAX: lo = nextafter(-1, 0) keeps erfinv finite; sqrt(2) rounded to f32.
  // Uniform(lo, 1)'s two roundings, then the transform.
  constexpr float kLo = -0x1.fffffep-1f;
  constexpr float kSqrt2 = 0x1.6a09e6p+0f;
  constexpr float kScale = 1.0f - kLo;
  const float scaled = BitsToUnitFloat(bits) * kScale;
  return kSqrt2 * kernels::ErfinvF32(MaxF32(kLo, scaled + kLo));
}

void Normal(Key k, uint64_t start, uint64_t count, float* out) {
  for (uint64_t j = 0; j < count; ++j) out[j] = NormalOfBits(BitsAt(k, start + j));
}

void Exponential(Key k, uint64_t start, uint64_t count, float* out) {
  // 1 - u moves log's argument to (0, 1], so the result is finite.
  Uniform(k, start, count, 0.0f, 1.0f, out);
  for (uint64_t j = 0; j < count; ++j) out[j] = -kernels::Log1pF32(-out[j]);
}

void Categorical(Key k, const float* logits, uint64_t classes, uint64_t start_row, uint64_t rows,
                 int32_t* out, const DrawKernels& batch) {
  if (classes == 0) {
    std::fill(out, out + rows, 0);
    return;
  }
  for (uint64_t r = 0; r < rows; ++r) {
    out[r] = static_cast<int32_t>(
        batch.CategoricalRow(k, (start_row + r) * classes, logits + r * classes, classes));
  }
}

void Dropout(Key k, double rate, const float* x, uint64_t start, uint64_t count, float* out) {
  if (rate == 0.0) {
    if (x != out) std::copy(x, x + count, out);
    return;
  }
  if (rate == 1.0) {
    std::fill(out, out + count, 0.0f);
    return;
  }
  // Flax computes 1 - rate in double; JAX then rounds it to f32 for both the
  // bernoulli probability and the division.
  const float keep = static_cast<float>(1.0 - rate);
  for (uint64_t j = 0; j < count; ++j) {
    const bool kept = BitsToUnitFloat(BitsAt(k, start + j)) < keep;
    out[j] = kept ? x[j] / keep : 0.0f;
  }
}

}  // namespace alea::vm::random
