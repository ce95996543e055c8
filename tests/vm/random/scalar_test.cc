// vm/random/scalar.h against tests/vm/data/random/scalar_derived.txt: JAX's
// 64-bit-mode scalar draws as an independent from-spec Python version derives
// them (derive_scalar.py, its provenance in the data README). Bits, uniform,
// bernoulli and randint are exact; normal is within 2 ulp of the exact
// sqrt(2) * erfinv(u), and exponential within 1 ulp of the exact -log1p(-u)
// (the data gives both correctly rounded). Also: a scalar uniform's 64 bits
// are the two words of bits' hash at counter (0, 0), and a sweep of u values
// keeps normal within 2 ulp against an independent check of erf.
#include "vm/random/scalar.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/vm/random/vectors.h"
#include "vm/random/keys.h"
#include "vm/random/threefry.h"

namespace alea::vm::random {
namespace {

double Hex(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

// The distance in ulps between two finite doubles of the same sign (or zeros).
int64_t Ulps(double a, double b) {
  auto ordered = [](double x) {
    const auto bits = std::bit_cast<int64_t>(x);
    return bits < 0 ? INT64_MIN - bits : bits;
  };
  const int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

TEST(ScalarDraws, MatchTheDerivedValues) {
  const std::vector<testing::DerivedRecord> records = testing::DerivedRecords("scalar_derived.txt");
  ASSERT_GT(records.size(), 1000u) << "scalar_derived.txt missing or short";
  int checked = 0, normal_exact = 0, exponential_exact = 0;
  for (const testing::DerivedRecord& r : records) {
    SCOPED_TRACE(r.kind + " " + r.fields[0] + " " + r.fields[1]);
    if (r.kind == "normal_u") {
      const double u = Hex(r.fields[0]);
      const int64_t ulps = Ulps(NormalQuantileOfErfArgument(u), Hex(r.fields[1]));
      EXPECT_LE(ulps, 2) << "u = " << r.fields[0];
      normal_exact += ulps == 0;
      ++checked;
      continue;
    }
    const Key k = testing::RecordKey(r);
    if (r.kind == "bits64") {
      EXPECT_EQ(Bits64(k), std::stoull(r.fields[2]));
    } else if (r.kind == "uniform") {
      const double got = UniformScalar(k, Hex(r.fields[2]), Hex(r.fields[3]));
      EXPECT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(Hex(r.fields[4])))
          << got << " for [" << r.fields[2] << ", " << r.fields[3] << ")";
    } else if (r.kind == "normal") {
      const double u = UniformScalar(k, std::nextafter(-1.0, 0.0), 1.0);
      EXPECT_EQ(u, Hex(r.fields[2]));
      const int64_t ulps = Ulps(NormalScalar(k), Hex(r.fields[3]));
      EXPECT_LE(ulps, 2);
      normal_exact += ulps == 0;
    } else if (r.kind == "exponential") {
      EXPECT_EQ(UniformScalar(k, 0.0, 1.0), Hex(r.fields[2]));
      const int64_t ulps = Ulps(ExponentialScalar(k), Hex(r.fields[3]));
      EXPECT_LE(ulps, 1);
      exponential_exact += ulps == 0;
    } else if (r.kind == "bernoulli") {
      EXPECT_EQ(BernoulliScalar(k, Hex(r.fields[2])), r.fields[3] == "1") << "p " << r.fields[2];
    } else if (r.kind == "randint") {
      EXPECT_EQ(RandIntScalar(k, std::stoll(r.fields[2]), std::stoll(r.fields[3])),
                std::stoll(r.fields[4]))
          << "[" << r.fields[2] << ", " << r.fields[3] << ")";
    } else {
      ADD_FAILURE() << "unknown record kind " << r.kind;
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(records.size()));
  RecordProperty("normal_correctly_rounded", normal_exact);
  RecordProperty("exponential_correctly_rounded", exponential_exact);
}

// The property the docs state: uniform(s)'s 64 bits are the two words of
// the hash at counter (0, 0), the first one high.
TEST(ScalarDraws, UniformTakesItsBitsFromTheCounterZeroBlock) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    const Key k{static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng())};
    const auto [y0, y1] = Threefry2x32(k.k0, k.k1, 0, 0);
    const uint64_t bits = uint64_t{y0} << 32 | y1;
    EXPECT_EQ(Bits64(k), bits);
    EXPECT_EQ(UniformScalar(k, 0.0, 1.0), static_cast<double>(bits >> 12) * 0x1p-52);
  }
}

// Between the derived points: normal's inverse checked through erf and
// erfc (each within an ulp in glibc) over u from 1e-300 to 1 - 2^-53, both
// signs. A root off by more than 2 ulp moves erf(y) (or erfc(y) in the tail)
// by more than its own error.
TEST(ScalarDraws, NormalStaysWithinTwoUlpAcrossItsRange) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const double magnitude = i % 2 == 0 ? std::ldexp(static_cast<double>(rng() >> 11), -53)
                                        : 1.0 - std::ldexp(1.0, -static_cast<int>(rng() % 53 + 1));
    const double u = i % 4 < 2 ? magnitude : -magnitude;
    if (std::fabs(u) >= 1.0 || u == 0.0) continue;
    const double z = NormalQuantileOfErfArgument(u);
    const double y = z / std::sqrt(2.0);
    const double a = std::fabs(u);
    // The exact root y* has erf(y*) = a; erf moves by erf'(y) * (y - y*).
    const double slope = 2.0 / std::sqrt(M_PI) * std::exp(-y * y);
    const double residual =
        a < 0.5 ? std::erf(std::fabs(y)) - a : (1.0 - a) - std::erfc(std::fabs(y));
    const double error_in_y = std::fabs(residual / slope);
    const double ulp = std::nextafter(std::fabs(y), INFINITY) - std::fabs(y);
    // 2 ulp of z, plus the check's own rounding (erf's ulp over the slope).
    const double erf_ulp =
        a < 0.5 ? std::nextafter(a, 2.0) - a : std::nextafter(1.0 - a, 2.0) - (1.0 - a);
    EXPECT_LE(error_in_y, 2.0 * ulp + 2.0 * erf_ulp / slope) << "u = " << u;
  }
}

}  // namespace
}  // namespace alea::vm::random
