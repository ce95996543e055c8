// Alea's f32 functions of two operands (vm/kernels/math_f32.h: atan2,
// hypot, pow) against double-precision libm rounded to f32: 2 ulp over millions
// of random and structured pairs, and C99 Annex F's special cases (zeros of
// both signs, infinities, NaN) exactly, over every pair of special values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tests/vm/kernels/math_f32_reference.h"
#include "vm/kernels/math_f32.h"

namespace alea::vm::kernels {
namespace {

using testing::UlpError;

constexpr float kInf = std::numeric_limits<float>::infinity();

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }
float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

struct BinaryFn {
  const char* name;
  float (*f32)(float, float);
  double (*reference)(double, double);
};
const BinaryFn kFns[] = {
    {"atan2", Atan2F32, [](double a, double b) { return std::atan2(a, b); }},
    {"hypot", HypotF32, [](double a, double b) { return std::hypot(a, b); }},
    {"pow", PowF32, [](double a, double b) { return std::pow(a, b); }},
};

// Pairs: random bit patterns; numbers of moderate size with random signs;
// neighbours (b one ulp from a, either sign); b within 2^24 patterns of a
// (ratios near 1 and all binades near each other); for pow, bases near 1
// with exponents up to 256 (results near overflow and underflow) and
// negative bases with integer exponents.
std::vector<std::pair<float, float>> Pairs(size_t n) {
  std::mt19937_64 rng(20261125);
  std::vector<std::pair<float, float>> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    float a = FromBits(static_cast<uint32_t>(r));
    float b = FromBits(static_cast<uint32_t>(r >> 32));
    switch (i % 6) {
      case 1:
        a = std::ldexp(static_cast<float>(r & 0xffffff) * 0x1p-24f,
                       static_cast<int>((r >> 24) % 40) - 20);
        b = std::ldexp(static_cast<float>((r >> 32) & 0xffffff) * 0x1p-24f,
                       static_cast<int>((r >> 56) % 40) - 20);
        if ((r >> 62) & 1) a = -a;
        if ((r >> 63) & 1) b = -b;
        break;
      case 2:
        b = std::nextafter(a, ((r >> 40) & 1) ? kInf : -kInf);
        if ((r >> 41) & 1) b = -b;
        break;
      case 3:
        b = FromBits(Bits(a) + static_cast<uint32_t>((r >> 32) % 0x02000000) - 0x01000000u);
        break;
      case 4:  // pow near overflow and underflow: a in [1/4, 4), |b| < 256
        a = std::ldexp(1.0f + static_cast<float>(r & 0xffffff) * 0x1p-24f,
                       static_cast<int>((r >> 24) % 4) - 2);
        b = static_cast<float>(static_cast<int32_t>(r >> 32)) * 0x1p-23f;
        break;
      case 5:  // integer exponents of either parity, negative bases
        a = -std::ldexp(1.0f + static_cast<float>(r & 0xffffff) * 0x1p-24f,
                        static_cast<int>((r >> 24) % 16) - 8);
        b = static_cast<float>(static_cast<int32_t>((r >> 32) % 81) - 40);
        break;
      default:
        break;
    }
    out.emplace_back(a, b);
  }
  return out;
}

TEST(MathF32BinaryTest, Within2UlpOnDenseSample) {
  const std::vector<std::pair<float, float>> pairs = Pairs(4'000'000);
  for (const BinaryFn& fn : kFns) {
    double max_err = 0.0;
    std::pair<float, float> worst{};
    int64_t bad = 0;
    for (const auto& [a, b] : pairs) {
      const float got = fn.f32(a, b);
      const double err = UlpError(got, fn.reference(a, b));
      if (!(err <= 2.0) && ++bad <= 5) {
        ADD_FAILURE() << fn.name << "(" << std::hexfloat << a << ", " << b << ") = " << got
                      << ", reference " << fn.reference(a, b) << std::defaultfloat << " (" << err
                      << " ulp)";
      }
      if (err > max_err) {
        max_err = err;
        worst = {a, b};
      }
    }
    std::printf("[ sample   ] %-8s max %.3f ulp at (%a, %a)\n", fn.name, max_err, worst.first,
                worst.second);
    EXPECT_EQ(bad, 0) << fn.name;
  }
}

// Every pair of these: the result is the correctly rounded one (NaN for NaN,
// zeros with their sign), and a NaN result is the first NaN operand quieted.
TEST(MathF32BinaryTest, SpecialCasesAsCAnnexF) {
  const float kValues[] = {0.0f,
                           -0.0f,
                           kInf,
                           -kInf,
                           1.0f,
                           -1.0f,
                           2.0f,
                           -0.5f,
                           1e-45f,
                           -1e-45f,
                           1e-38f,
                           3.4e38f,
                           -3.4e38f,
                           1e30f,
                           -1e-30f,
                           FromBits(0x7fc00000u),
                           FromBits(0xff812345u),
                           FromBits(0x7fd54321u)};
  for (const BinaryFn& fn : kFns) {
    for (float a : kValues) {
      for (float b : kValues) {
        const float got = fn.f32(a, b);
        const float want = static_cast<float>(fn.reference(a, b));
        const std::string what =
            std::string(fn.name) + "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
        if (std::isnan(want)) {
          ASSERT_TRUE(std::isnan(got)) << what;
          if (std::isnan(a) || std::isnan(b)) {
            const float first = std::isnan(a) ? a : b;
            EXPECT_EQ(Bits(got), Bits(first) | 0x00400000u) << what;
          }
          continue;
        }
        EXPECT_LE(UlpError(got, fn.reference(a, b)), 2.0) << what;
        if (want == 0.0f || std::isinf(want)) {
          EXPECT_EQ(Bits(got), Bits(want)) << what;
        }
      }
    }
  }
  // The exact results C gives.
  const float kPi = 0x1.921fb6p+1f;
  EXPECT_EQ(Bits(Atan2F32(0.0f, -0.0f)), Bits(kPi));
  EXPECT_EQ(Bits(Atan2F32(-0.0f, -0.0f)), Bits(-kPi));
  EXPECT_EQ(Bits(Atan2F32(-0.0f, 0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Atan2F32(kInf, -kInf)), Bits(0x1.2d97c8p+1f));   // 3pi/4
  EXPECT_EQ(Bits(Atan2F32(-kInf, kInf)), Bits(-0x1.921fb6p-1f));  // -pi/4
  EXPECT_EQ(Bits(Atan2F32(1.0f, 1.0f)), Bits(0x1.921fb6p-1f));
  EXPECT_EQ(Bits(Atan2F32(-5.0f, -kInf)), Bits(-kPi));
  EXPECT_EQ(Bits(HypotF32(kInf, FromBits(0x7fc00000u))), Bits(kInf));
  EXPECT_EQ(Bits(HypotF32(FromBits(0xffc00000u), -kInf)), Bits(kInf));
  EXPECT_EQ(HypotF32(3.0f, 4.0f), 5.0f);
  EXPECT_EQ(HypotF32(-0.0f, 0.0f), 0.0f);
  EXPECT_EQ(HypotF32(3e38f, 3e38f), kInf);
  EXPECT_EQ(HypotF32(1e-45f, 1e-45f), 1e-45f);  // sqrt(2) 2^-149 rounds down
  const float kNaN = FromBits(0xffc12345u);
  EXPECT_EQ(PowF32(kNaN, 0.0f), 1.0f);
  EXPECT_EQ(PowF32(kNaN, -0.0f), 1.0f);
  EXPECT_EQ(PowF32(1.0f, kNaN), 1.0f);
  EXPECT_EQ(PowF32(1.0f, -kInf), 1.0f);
  EXPECT_EQ(PowF32(-1.0f, kInf), 1.0f);
  EXPECT_TRUE(std::isnan(PowF32(-2.0f, 0.5f)));
  EXPECT_TRUE(std::isnan(PowF32(-kNaN, 2.0f)));
  EXPECT_EQ(Bits(PowF32(-2.0f, 3.0f)), Bits(-8.0f));
  EXPECT_EQ(Bits(PowF32(-2.0f, 2.0f)), Bits(4.0f));
  EXPECT_EQ(Bits(PowF32(-0.0f, -3.0f)), Bits(-kInf));
  EXPECT_EQ(Bits(PowF32(-0.0f, -2.0f)), Bits(kInf));
  EXPECT_EQ(Bits(PowF32(-0.0f, 3.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(PowF32(-0.0f, 0.5f)), Bits(0.0f));
  EXPECT_EQ(Bits(PowF32(-kInf, -3.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(PowF32(-kInf, 3.0f)), Bits(-kInf));
  EXPECT_EQ(Bits(PowF32(-kInf, 0.5f)), Bits(kInf));
  EXPECT_EQ(Bits(PowF32(0.5f, kInf)), Bits(0.0f));
  EXPECT_EQ(Bits(PowF32(0.5f, -kInf)), Bits(kInf));
  EXPECT_EQ(Bits(PowF32(2.0f, 128.0f)), Bits(kInf));
  EXPECT_EQ(PowF32(2.0f, -149.0f), 0x1p-149f);
  EXPECT_EQ(PowF32(2.0f, -151.0f), 0.0f);
  EXPECT_EQ(PowF32(2.0f, 0.5f), 0x1.6a09e6p+0f);
  EXPECT_EQ(PowF32(-3.0f, 1e30f), kInf);  // an even integer exponent
  EXPECT_EQ(PowF32(10.0f, 10.0f), 1e10f);
}

}  // namespace
}  // namespace alea::vm::kernels
