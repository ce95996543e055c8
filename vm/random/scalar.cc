// Scalar draws in JAX's 64-bit mode (scalar.h). The arithmetic JAX does in
// float64 is spelled out one rounded operation at a time (the build has
// -ffp-contract=off, so no FMA is formed behind our back); the one explicit
// std::fma below is part of a double-double product, not of JAX's formula.
#include "vm/random/scalar.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "vm/kernels/math_f32.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

constexpr double kTwoOverSqrtPi = 1.1283791670955126;  // 2 / sqrt(pi), rounded
constexpr double kLogSqrtPi = 0.57236494292470008;     // log(sqrt(pi)), rounded

// erfinv(a) for a in [0, 1): Newton's method from an f32 start (or, in the
// tail, from erfc's asymptotic form), on erf(y) - a while a < 0.5 and on
// erfc(y) - (1 - a) beyond (1 - a is exact there, and erfc keeps its
// relative accuracy where erf(y) would round to 1): each residual is then
// within about an ulp, so the root is too. Converges in 2-3 steps.
double ErfinvNonNegative(double a) {
  if (a == 0.0) return 0.0;
  const bool tail = a >= 0.5;
  const double t = 1.0 - a;  // exact for a >= 0.5
  double y;
  if (t < 0.01) {
    // erfc(y) ~ exp(-y^2) / (y sqrt(pi)): y^2 = -log(t) - log(y sqrt(pi)),
    // iterated from y = sqrt(-log(t)); y > 1.8 here, where this settles.
    const double l = -std::log(t);
    y = std::sqrt(l);
    for (int i = 0; i < 3; ++i) y = std::sqrt(l - std::log(y) - kLogSqrtPi);
  } else {
    y = static_cast<double>(kernels::ErfinvF32(static_cast<float>(a)));
  }
  for (int i = 0; i < 8; ++i) {
    const double slope = kTwoOverSqrtPi * std::exp(-y * y);
    const double step = tail ? (t - std::erfc(y)) / slope : (std::erf(y) - a) / slope;
    y -= step;
    if (std::fabs(step) <= 0x1p-60 * y) break;
  }
  return y;
}

}  // namespace

uint64_t Bits64(Key k) {
  const auto [y0, y1] = Threefry2x32(k.k0, k.k1, 0, 0);
  return uint64_t{y0} << 32 | y1;
}

double BitsToUnitDouble(uint64_t bits) {
  return std::bit_cast<double>(bits >> 12 | std::bit_cast<uint64_t>(1.0)) - 1.0;
}

double UniformScalar(Key k, double lo, double hi) {
  const double u = BitsToUnitDouble(Bits64(k));
  const double scaled = u * (hi - lo);
  const double value = scaled + lo;
  // XLA's max: NaN if either is NaN.
  if (std::isnan(lo) || std::isnan(value)) return std::numeric_limits<double>::quiet_NaN();
  return std::max(lo, value);
}

double NormalQuantileOfErfArgument(double u) {
  const double y = ErfinvNonNegative(std::fabs(u));
  // sqrt(2) as hi + lo, and the product rounded once: within an ulp of
  // sqrt(2) * y, which is within an ulp of the exact value.
  constexpr double kSqrt2Hi = 0x1.6a09e667f3bcdp+0;
  constexpr double kSqrt2Lo = -0x1.bdd3413b26456p-54;
  const double z = std::fma(y, kSqrt2Hi, y * kSqrt2Lo);
  return u < 0 ? -z : z;
}

double NormalScalar(Key k) {
  return NormalQuantileOfErfArgument(UniformScalar(k, std::nextafter(-1.0, 0.0), 1.0));
}

double ExponentialScalar(Key k) { return -std::log1p(-UniformScalar(k, 0.0, 1.0)); }

bool BernoulliScalar(Key k, double p) { return UniformScalar(k, 0.0, 1.0) < p; }

int64_t RandIntScalar(Key k, int64_t lo, int64_t hi) {
  const uint64_t higher = Bits64(SplitKey(k, 0));
  const uint64_t lower = Bits64(SplitKey(k, 1));
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (hi <= lo) span = 1;
  uint64_t multiplier = (uint64_t{1} << 32) % span;
  multiplier = multiplier * multiplier % span;
  const uint64_t offset = (higher % span * multiplier + lower % span) % span;
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
}

}  // namespace alea::vm::random
