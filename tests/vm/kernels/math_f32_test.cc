// Fast checks of Alea's f32 math (vm/kernels/math_f32.h): every 997th f32 bit
// pattern plus dense windows around special values and range boundaries,
// against libm / long double references. The full 2^32 sweep lives in
// tests/vm/slow/math_f32_exhaustive_test.cc.
#include "vm/kernels/math_f32.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "tests/vm/kernels/math_f32_reference.h"

namespace alea::vm::kernels {
namespace {

using testing::Eval;
using testing::Fn;
using testing::FnName;
using testing::Reference;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kMinSub = std::numeric_limits<float>::denorm_min();

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

// The sample: every 997th bit pattern and ±2000 patterns around values where
// the functions change regime or the answer is special.
std::vector<uint32_t> Sample() {
  std::vector<uint32_t> out;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 997) out.push_back(static_cast<uint32_t>(b));
  const float kCenters[] = {0.0f, 0x1p-126f, 1.0f, 0.5f, 0.75f, 0.625f, 2.0f, 88.72283f, 87.33654f,
                            103.97208f, 0x1p-24f, 0x1p-12f, 0.41421356f, 0.29289322f, 0.99999994f,
                            0.9966f, 9.01f, 16.6f, 0x1.2bec34p-2f, 0x1.a8279ap-2f, 1.4142135f,
                            0.70710677f, 20.0f, 0.3466f, 44.3614f, 89.41599f, 30.0f, 3.92f, 2.5f,
                            1.25f, 0x1p22f, 0x1p23f,
                            // sin cos tan: the f32 inputs nearest a multiple of pi/2 (the hardest
                            // reductions), pi/4, pi/2, pi.
                            0x1.f9cbe2p+7f, 0x1.2d97c8p+2f, 0x1.2d97c8p+3f, 0x1.4ac55cp+21f,
                            0x1.9a48dep+15f, 0.7853982f, 1.5707964f, 3.1415927f,
                            // erfc: its branch points and the last nonzero results.
                            0.47f, 10.0546f, 9.194f, 10.1f,
                            // lgamma: its zeros and branch points, a negative zero.
                            1.5f, 3.0f, 2.4570382f, 4.0850e36f};
  for (float c : kCenters) {
    for (float s : {c, -c}) {
      for (int64_t d = -2000; d <= 2000; ++d) {
        int64_t b = static_cast<int64_t>(Bits(s)) + d;
        if (b >= 0 && b < (int64_t{1} << 32)) out.push_back(static_cast<uint32_t>(b));
      }
    }
  }
  return out;
}

void CheckUlp(Fn fn) {
  double max_err = 0.0;
  float worst = 0.0f;
  int64_t bad = 0;
  for (uint32_t b : Sample()) {
    float x = testing::FloatFromBits(b);
    float got = Eval(fn, x);
    double err = testing::ErrorOf(fn, x, got, Reference(fn, x, got, /*newton_steps=*/2));
    if (!(err <= 2.0)) {
      if (++bad <= 5) {
        ADD_FAILURE() << FnName(fn) << "(" << std::hexfloat << x << ") = " << got << ", reference "
                      << static_cast<double>(Reference(fn, x, got, 2)) << std::defaultfloat << " ("
                      << err << " ulp)";
      }
    }
    if (err > max_err) {
      max_err = err;
      worst = x;
    }
  }
  std::printf("[ sample   ] %-8s max %.3f ulp at %a\n", FnName(fn), max_err, worst);
  EXPECT_EQ(bad, 0) << FnName(fn) << ": " << bad << " sampled inputs over 2 ulp";
}

// Where the real function is non-decreasing, counts the sampled x with
// f(next float up) < f(x) (both not NaN).
int64_t CountDecreases(Fn fn) {
  int64_t bad = 0;
  for (uint32_t b : Sample()) {
    float x = testing::FloatFromBits(b);
    float up = std::nextafter(x, kInf);
    float fx = Eval(fn, x);
    float fu = Eval(fn, up);
    if (std::isnan(x) || std::isnan(fx) || std::isnan(fu)) continue;
    if (fu < fx) ++bad;
  }
  std::printf("[ sample   ] %-8s %lld non-monotone steps\n", FnName(fn),
              static_cast<long long>(bad));
  return bad;
}

// Bitwise equality, so +0 and -0 differ and any NaN matches any NaN.
void ExpectSame(float got, float want, const char* what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what << " = " << got;
  } else {
    EXPECT_EQ(Bits(got), Bits(want)) << what << " = " << std::hexfloat << got << ", want " << want;
  }
}

// Every function on the sample (the rounding functions and sign are exact,
// so their bound holds trivially but a wrong result still fails).
class MathF32UlpTest : public ::testing::TestWithParam<Fn> {};
TEST_P(MathF32UlpTest, Within2Ulp) { CheckUlp(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Fns, MathF32UlpTest,
                         ::testing::Values(Fn::kExp, Fn::kLog, Fn::kLog1p, Fn::kTanh, Fn::kSigmoid,
                                           Fn::kErfinv, Fn::kFloor, Fn::kCeil, Fn::kRound,
                                           Fn::kTrunc, Fn::kSign, Fn::kExpm1, Fn::kSinh, Fn::kCosh,
                                           Fn::kErf, Fn::kSin, Fn::kCos, Fn::kTan, Fn::kAtan,
                                           Fn::kAsin, Fn::kAcos, Fn::kErfc, Fn::kLgamma),
                         [](const ::testing::TestParamInfo<Fn>& info) {
                           return std::string(FnName(info.param));
                         });

TEST(MathF32Test, MonotoneOnSample) {
  for (Fn fn : {Fn::kExp, Fn::kLog, Fn::kLog1p, Fn::kTanh, Fn::kErfinv, Fn::kFloor, Fn::kCeil,
                Fn::kRound, Fn::kTrunc, Fn::kSign, Fn::kExpm1, Fn::kSinh, Fn::kAtan, Fn::kAsin}) {
    EXPECT_EQ(CountDecreases(fn), 0) << FnName(fn);
  }
  // erf is within 2 ulp but not monotone just below 1, where it rises by
  // under half an ulp per input step and its sub-ulp errors show as 1-ulp
  // dips (e.g. at 0x1.d94d26p-1); its count is only reported.
  CountDecreases(Fn::kErf);
  // sigmoid is within 2 ulp but not monotone: the rounding error of e^-|x|
  // in 1 / (1 + e^-|x|) makes rare 1-ulp dips (e.g. near x = 0.247), so its
  // count is only reported.
  CountDecreases(Fn::kSigmoid);
}

TEST(MathF32Test, ExpSpecialValues) {
  ExpectSame(ExpF32(kNaN), kNaN, "exp(nan)");
  ExpectSame(ExpF32(kInf), kInf, "exp(inf)");
  ExpectSame(ExpF32(-kInf), 0.0f, "exp(-inf)");
  ExpectSame(ExpF32(0.0f), 1.0f, "exp(0)");
  ExpectSame(ExpF32(-0.0f), 1.0f, "exp(-0)");
  ExpectSame(ExpF32(kMinSub), 1.0f, "exp(min subnormal)");
  ExpectSame(ExpF32(1.0f), 0x1.5bf0a8p+1f, "exp(1)");
  // Overflow: the largest finite result and the first inf.
  ExpectSame(ExpF32(0x1.62e42ep+6f), 0x1.ffff08p+127f, "exp(88.72283)");
  ExpectSame(ExpF32(0x1.62e430p+6f), kInf, "exp(88.72284)");
  // Underflow: results go subnormal below -87.34 and reach 0 below -103.97.
  EXPECT_EQ(std::fpclassify(ExpF32(-100.0f)), FP_SUBNORMAL);
  ExpectSame(ExpF32(-0x1.9fe368p+6f), kMinSub, "exp(-103.972)");
  ExpectSame(ExpF32(-0x1.9fe36ap+6f), 0.0f, "exp(-103.97208)");
  ExpectSame(ExpF32(-1000.0f), 0.0f, "exp(-1000)");
}

TEST(MathF32Test, LogSpecialValues) {
  ExpectSame(LogF32(kNaN), kNaN, "log(nan)");
  ExpectSame(LogF32(kInf), kInf, "log(inf)");
  ExpectSame(LogF32(-kInf), kNaN, "log(-inf)");
  ExpectSame(LogF32(0.0f), -kInf, "log(0)");
  ExpectSame(LogF32(-0.0f), -kInf, "log(-0)");
  ExpectSame(LogF32(-1.0f), kNaN, "log(-1)");
  ExpectSame(LogF32(-kMinSub), kNaN, "log(-min subnormal)");
  ExpectSame(LogF32(1.0f), 0.0f, "log(1)");
  ExpectSame(LogF32(kMinSub), -0x1.9d1da0p+6f, "log(min subnormal)");
  ExpectSame(LogF32(2.0f), 0x1.62e430p-1f, "log(2)");
}

TEST(MathF32Test, Log1pSpecialValues) {
  ExpectSame(Log1pF32(kNaN), kNaN, "log1p(nan)");
  ExpectSame(Log1pF32(kInf), kInf, "log1p(inf)");
  ExpectSame(Log1pF32(-kInf), kNaN, "log1p(-inf)");
  ExpectSame(Log1pF32(0.0f), 0.0f, "log1p(0)");
  ExpectSame(Log1pF32(-0.0f), -0.0f, "log1p(-0)");
  ExpectSame(Log1pF32(-1.0f), -kInf, "log1p(-1)");
  ExpectSame(Log1pF32(-1.5f), kNaN, "log1p(-1.5)");
  ExpectSame(Log1pF32(kMinSub), kMinSub, "log1p(min subnormal)");
  ExpectSame(Log1pF32(-kMinSub), -kMinSub, "log1p(-min subnormal)");
  ExpectSame(Log1pF32(0x1p-30f), 0x1p-30f, "log1p(2^-30)");
  ExpectSame(Log1pF32(std::numeric_limits<float>::max()), 0x1.62e430p+6f, "log1p(max)");
}

TEST(MathF32Test, TanhSpecialValues) {
  ExpectSame(TanhF32(kNaN), kNaN, "tanh(nan)");
  ExpectSame(TanhF32(kInf), 1.0f, "tanh(inf)");
  ExpectSame(TanhF32(-kInf), -1.0f, "tanh(-inf)");
  ExpectSame(TanhF32(0.0f), 0.0f, "tanh(0)");
  ExpectSame(TanhF32(-0.0f), -0.0f, "tanh(-0)");
  ExpectSame(TanhF32(kMinSub), kMinSub, "tanh(min subnormal)");
  ExpectSame(TanhF32(-kMinSub), -kMinSub, "tanh(-min subnormal)");
  ExpectSame(TanhF32(10.0f), 1.0f, "tanh(10)");
  ExpectSame(TanhF32(-1e30f), -1.0f, "tanh(-1e30)");
}

TEST(MathF32Test, SigmoidSpecialValues) {
  ExpectSame(SigmoidF32(kNaN), kNaN, "sigmoid(nan)");
  ExpectSame(SigmoidF32(kInf), 1.0f, "sigmoid(inf)");
  ExpectSame(SigmoidF32(-kInf), 0.0f, "sigmoid(-inf)");
  ExpectSame(SigmoidF32(0.0f), 0.5f, "sigmoid(0)");
  ExpectSame(SigmoidF32(-0.0f), 0.5f, "sigmoid(-0)");
  ExpectSame(SigmoidF32(20.0f), 1.0f, "sigmoid(20)");
  ExpectSame(SigmoidF32(1e30f), 1.0f, "sigmoid(1e30)");
  ExpectSame(SigmoidF32(-1e30f), 0.0f, "sigmoid(-1e30)");
  EXPECT_EQ(std::fpclassify(SigmoidF32(-100.0f)), FP_SUBNORMAL);
  ExpectSame(SigmoidF32(-0x1.9fe36ap+6f), 0.0f, "sigmoid(-103.97208)");
}

TEST(MathF32Test, ErfinvSpecialValues) {
  ExpectSame(ErfinvF32(kNaN), kNaN, "erfinv(nan)");
  ExpectSame(ErfinvF32(1.0f), kInf, "erfinv(1)");
  ExpectSame(ErfinvF32(-1.0f), -kInf, "erfinv(-1)");
  ExpectSame(ErfinvF32(std::nextafter(1.0f, 2.0f)), kNaN, "erfinv(1+ulp)");
  ExpectSame(ErfinvF32(-2.0f), kNaN, "erfinv(-2)");
  ExpectSame(ErfinvF32(kInf), kNaN, "erfinv(inf)");
  ExpectSame(ErfinvF32(-kInf), kNaN, "erfinv(-inf)");
  ExpectSame(ErfinvF32(0.0f), 0.0f, "erfinv(0)");
  ExpectSame(ErfinvF32(-0.0f), -0.0f, "erfinv(-0)");
  ExpectSame(ErfinvF32(kMinSub), kMinSub, "erfinv(min subnormal)");
  EXPECT_TRUE(std::isfinite(ErfinvF32(0x1.fffffep-1f)));
}

TEST(MathF32Test, Expm1SpecialValues) {
  ExpectSame(Expm1F32(kNaN), kNaN, "expm1(nan)");
  ExpectSame(Expm1F32(kInf), kInf, "expm1(inf)");
  ExpectSame(Expm1F32(-kInf), -1.0f, "expm1(-inf)");
  ExpectSame(Expm1F32(0.0f), 0.0f, "expm1(0)");
  ExpectSame(Expm1F32(-0.0f), -0.0f, "expm1(-0)");
  ExpectSame(Expm1F32(kMinSub), kMinSub, "expm1(min subnormal)");
  ExpectSame(Expm1F32(-kMinSub), -kMinSub, "expm1(-min subnormal)");
  ExpectSame(Expm1F32(0x1p-30f), 0x1p-30f, "expm1(2^-30)");
  ExpectSame(Expm1F32(-20.0f), -1.0f, "expm1(-20)");
  EXPECT_TRUE(std::isfinite(Expm1F32(0x1.62e42ep+6f)));
  ExpectSame(Expm1F32(0x1.62e430p+6f), kInf, "expm1(88.72284)");
}

TEST(MathF32Test, SinhCoshSpecialValues) {
  ExpectSame(SinhF32(kNaN), kNaN, "sinh(nan)");
  ExpectSame(SinhF32(kInf), kInf, "sinh(inf)");
  ExpectSame(SinhF32(-kInf), -kInf, "sinh(-inf)");
  ExpectSame(SinhF32(-0.0f), -0.0f, "sinh(-0)");
  ExpectSame(SinhF32(kMinSub), kMinSub, "sinh(min subnormal)");
  ExpectSame(CoshF32(kNaN), kNaN, "cosh(nan)");
  ExpectSame(CoshF32(-kInf), kInf, "cosh(-inf)");
  ExpectSame(CoshF32(0.0f), 1.0f, "cosh(0)");
  ExpectSame(CoshF32(-0.0f), 1.0f, "cosh(-0)");
  // Finite past e^x's overflow (88.72), up to 89.41599.
  EXPECT_TRUE(std::isfinite(SinhF32(89.4f)));
  EXPECT_TRUE(std::isfinite(CoshF32(-89.4f)));
  ExpectSame(SinhF32(89.5f), kInf, "sinh(89.5)");
  ExpectSame(CoshF32(89.5f), kInf, "cosh(89.5)");
}

TEST(MathF32Test, ErfSpecialValues) {
  ExpectSame(ErfF32(kNaN), kNaN, "erf(nan)");
  ExpectSame(ErfF32(kInf), 1.0f, "erf(inf)");
  ExpectSame(ErfF32(-kInf), -1.0f, "erf(-inf)");
  ExpectSame(ErfF32(-0.0f), -0.0f, "erf(-0)");
  ExpectSame(ErfF32(4.0f), 1.0f, "erf(4)");
  ExpectSame(ErfF32(-1e30f), -1.0f, "erf(-1e30)");
  EXPECT_LT(ErfF32(3.5f), 1.0f);
}

TEST(MathF32Test, LgammaSpecialValues) {
  ExpectSame(LgammaF32(kNaN), kNaN, "lgamma(nan)");
  ExpectSame(LgammaF32(kInf), kInf, "lgamma(inf)");
  ExpectSame(LgammaF32(-kInf), kInf, "lgamma(-inf)");
  ExpectSame(LgammaF32(0.0f), kInf, "lgamma(0)");
  ExpectSame(LgammaF32(-0.0f), kInf, "lgamma(-0)");
  ExpectSame(LgammaF32(-1.0f), kInf, "lgamma(-1)");
  ExpectSame(LgammaF32(-3e7f), kInf, "lgamma(-3e7)");
  ExpectSame(LgammaF32(1.0f), 0.0f, "lgamma(1)");
  ExpectSame(LgammaF32(2.0f), 0.0f, "lgamma(2)");
  ExpectSame(LgammaF32(3.0f), 0x1.62e430p-1f, "lgamma(3)");  // log 2
  ExpectSame(LgammaF32(3e38f), kInf, "lgamma(3e38)");
  EXPECT_TRUE(std::isfinite(LgammaF32(4.0e36f)));
  ExpectSame(LgammaF32(kMinSub), 0x1.9d1da0p+6f, "lgamma(min subnormal)");  // -log
  ExpectSame(LgammaF32(-kMinSub), 0x1.9d1da0p+6f, "lgamma(-min subnormal)");
}

TEST(MathF32Test, ErfcSpecialValues) {
  ExpectSame(ErfcF32(kNaN), kNaN, "erfc(nan)");
  ExpectSame(ErfcF32(kInf), 0.0f, "erfc(inf)");
  ExpectSame(ErfcF32(-kInf), 2.0f, "erfc(-inf)");
  ExpectSame(ErfcF32(0.0f), 1.0f, "erfc(0)");
  ExpectSame(ErfcF32(-0.0f), 1.0f, "erfc(-0)");
  ExpectSame(ErfcF32(kMinSub), 1.0f, "erfc(min subnormal)");
  ExpectSame(ErfcF32(-10.0f), 2.0f, "erfc(-10)");
  ExpectSame(ErfcF32(11.0f), 0.0f, "erfc(11)");
  // Underflow: subnormal results from 9.19 on, the last nonzero one near
  // 10.0546.
  EXPECT_EQ(std::fpclassify(ErfcF32(9.5f)), FP_SUBNORMAL);
  EXPECT_EQ(std::fpclassify(ErfcF32(9.0f)), FP_NORMAL);
  EXPECT_GT(ErfcF32(10.05f), 0.0f);
  ExpectSame(ErfcF32(10.06f), 0.0f, "erfc(10.06)");
}

TEST(MathF32Test, TrigSpecialValues) {
  using Scalar = float (*)(float);
  for (Scalar fn : {Scalar{SinF32}, Scalar{CosF32}, Scalar{TanF32}}) {
    for (float x : {kNaN, kInf, -kInf, 0x1.000002p22f, -1e30f}) ExpectSame(fn(x), kNaN, "trig");
  }
  ExpectSame(SinF32(0.0f), 0.0f, "sin(0)");
  ExpectSame(SinF32(-0.0f), -0.0f, "sin(-0)");
  ExpectSame(SinF32(kMinSub), kMinSub, "sin(min subnormal)");
  ExpectSame(TanF32(-0.0f), -0.0f, "tan(-0)");
  ExpectSame(TanF32(-kMinSub), -kMinSub, "tan(-min subnormal)");
  ExpectSame(CosF32(-0.0f), 1.0f, "cos(-0)");
  ExpectSame(CosF32(kMinSub), 1.0f, "cos(min subnormal)");
  // The last reduced input still gives a value; tan near pi/2 is large and
  // of the right sign on each side.
  EXPECT_TRUE(std::isfinite(SinF32(0x1p22f)));
  EXPECT_TRUE(std::isfinite(CosF32(-0x1p22f)));
  EXPECT_GT(TanF32(1.5707963f), 1e7f);
  EXPECT_LT(TanF32(1.5707964f), -1e7f);
}

TEST(MathF32Test, InverseTrigSpecialValues) {
  const float kPio2 = 0x1.921fb6p+0f;  // pi/2 rounded, as C's atanf(inf)
  ExpectSame(AtanF32(kNaN), kNaN, "atan(nan)");
  ExpectSame(AtanF32(kInf), kPio2, "atan(inf)");
  ExpectSame(AtanF32(-kInf), -kPio2, "atan(-inf)");
  ExpectSame(AtanF32(-0.0f), -0.0f, "atan(-0)");
  ExpectSame(AtanF32(kMinSub), kMinSub, "atan(min subnormal)");
  ExpectSame(AtanF32(1.0f), 0x1.921fb6p-1f, "atan(1)");
  ExpectSame(AtanF32(3e38f), kPio2, "atan(3e38)");
  ExpectSame(AsinF32(kNaN), kNaN, "asin(nan)");
  ExpectSame(AsinF32(1.0f), kPio2, "asin(1)");
  ExpectSame(AsinF32(-1.0f), -kPio2, "asin(-1)");
  ExpectSame(AsinF32(-0.0f), -0.0f, "asin(-0)");
  ExpectSame(AsinF32(kMinSub), kMinSub, "asin(min subnormal)");
  ExpectSame(AcosF32(kNaN), kNaN, "acos(nan)");
  ExpectSame(AcosF32(1.0f), 0.0f, "acos(1)");
  ExpectSame(AcosF32(-1.0f), 0x1.921fb6p+1f, "acos(-1)");
  ExpectSame(AcosF32(0.0f), kPio2, "acos(0)");
  ExpectSame(AcosF32(-0.0f), kPio2, "acos(-0)");
  ExpectSame(AcosF32(0.5f), 0x1.0c1524p+0f, "acos(0.5)");
  for (float x : {std::nextafter(1.0f, 2.0f), -1.5f, kInf, -kInf}) {
    ExpectSame(AsinF32(x), kNaN, "asin outside [-1, 1]");
    ExpectSame(AcosF32(x), kNaN, "acos outside [-1, 1]");
  }
}

TEST(MathF32Test, OddAndEvenFunctionsAreExactlySo) {
  for (uint32_t b : Sample()) {
    float x = testing::FloatFromBits(b);
    if (std::isnan(x)) continue;
    EXPECT_EQ(Bits(SinhF32(-x)), Bits(-SinhF32(x))) << x;
    EXPECT_EQ(Bits(ErfF32(-x)), Bits(-ErfF32(x))) << x;
    EXPECT_EQ(Bits(AtanF32(-x)), Bits(-AtanF32(x))) << x;
    EXPECT_EQ(Bits(CoshF32(-x)), Bits(CoshF32(x))) << x;
    if (std::fabs(x) <= 0x1p22f) {  // beyond, NaN
      EXPECT_EQ(Bits(SinF32(-x)), Bits(-SinF32(x))) << x;
      EXPECT_EQ(Bits(CosF32(-x)), Bits(CosF32(x))) << x;
      EXPECT_EQ(Bits(TanF32(-x)), Bits(-TanF32(x))) << x;
    }
    EXPECT_EQ(Bits(TanhF32(-x)), Bits(-TanhF32(x))) << x;
    if (std::fabs(x) <= 1.0f) {
      EXPECT_EQ(Bits(ErfinvF32(-x)), Bits(-ErfinvF32(x))) << x;
      EXPECT_EQ(Bits(AsinF32(-x)), Bits(-AsinF32(x))) << x;
    }
  }
}

TEST(MathF32Test, BatchFormsMatchScalar) {
  std::vector<float> in;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 65537) {
    in.push_back(testing::FloatFromBits(static_cast<uint32_t>(b)));
  }
  std::vector<float> out(in.size());
  using Batch = void (*)(const float*, float*, size_t);
  using Scalar = float (*)(float);
  const std::pair<Batch, Scalar> kPairs[] = {
      {ExpF32, ExpF32},         {LogF32, LogF32},       {Log1pF32, Log1pF32},  {TanhF32, TanhF32},
      {SigmoidF32, SigmoidF32}, {ErfinvF32, ErfinvF32}, {FloorF32, FloorF32},  {CeilF32, CeilF32},
      {RoundF32, RoundF32},     {TruncF32, TruncF32},   {SignF32, SignF32},    {Expm1F32, Expm1F32},
      {SinhF32, SinhF32},       {CoshF32, CoshF32},     {ErfF32, ErfF32},      {SinF32, SinF32},
      {CosF32, CosF32},         {TanF32, TanF32},       {AtanF32, AtanF32},    {AsinF32, AsinF32},
      {AcosF32, AcosF32},       {ErfcF32, ErfcF32},     {LgammaF32, LgammaF32}};
  for (const auto& [batch, scalar] : kPairs) {
    batch(in.data(), out.data(), in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      float want = scalar(in[i]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(out[i]));
      } else {
        EXPECT_EQ(Bits(out[i]), Bits(want));
      }
    }
  }
}

}  // namespace
}  // namespace alea::vm::kernels
