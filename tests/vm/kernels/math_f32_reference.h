// Reference values and ulp distances for the f32 math tests (fast and
// exhaustive). Every function but erfinv comes from double-precision libm
// (about 2^-52 relative, far below an f32 ulp; glibc's sin, cos and tan
// reduce every argument exactly); erfinv from a Newton step in
// long double on erfl starting at the function's own result.
#ifndef ALEA_TESTS_VM_KERNELS_MATH_F32_REFERENCE_H_
#define ALEA_TESTS_VM_KERNELS_MATH_F32_REFERENCE_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "vm/kernels/math_f32.h"

namespace alea::vm::kernels::testing {

enum class Fn {
  kExp,
  kLog,
  kLog1p,
  kTanh,
  kSigmoid,
  kErfinv,
  kFloor,
  kCeil,
  kRound,
  kTrunc,
  kSign,
  kExpm1,
  kSinh,
  kCosh,
  kErf,
  kSin,
  kCos,
  kTan,
  kAtan,
  kAsin,
  kAcos,
  kErfc,
  kLgamma,
};

// How f(-x) relates to f(x) (the sweeps check x < 0 bitwise by it) and
// whether f is monotone: direction +1 for non-decreasing, -1 for
// non-increasing on x >= 0 (an odd f the same everywhere, an even f the
// opposite on x < 0), 0 for neither.
enum class Symmetry { kNone, kOdd, kEven };
struct FnTraits {
  Symmetry symmetry;
  int direction;
  bool exact = false;  // must equal the reference bit for bit (signed zeros too)
};
inline FnTraits TraitsOf(Fn fn) {
  switch (fn) {
    case Fn::kFloor:
    case Fn::kCeil:
    case Fn::kRound:
    case Fn::kTrunc:
    case Fn::kSign:
      return {Symmetry::kNone, 1, true};
    case Fn::kTanh:
    case Fn::kErfinv:
    case Fn::kSinh:
    case Fn::kErf:
      return {Symmetry::kOdd, 1};
    case Fn::kCosh:
      return {Symmetry::kEven, 1};
    case Fn::kSin:
    case Fn::kTan:
      return {Symmetry::kOdd, 0};
    case Fn::kAtan:
    case Fn::kAsin:
      return {Symmetry::kOdd, 1};
    case Fn::kAcos:
    case Fn::kErfc:
      return {Symmetry::kNone, -1};
    case Fn::kLgamma:
      return {Symmetry::kNone, 0};
    case Fn::kCos:
      return {Symmetry::kEven, 0};
    default:
      return {Symmetry::kNone, 1};
  }
}

inline const char* FnName(Fn fn) {
  switch (fn) {
    case Fn::kExp:
      return "exp";
    case Fn::kLog:
      return "log";
    case Fn::kLog1p:
      return "log1p";
    case Fn::kTanh:
      return "tanh";
    case Fn::kSigmoid:
      return "sigmoid";
    case Fn::kErfinv:
      return "erfinv";
    case Fn::kFloor:
      return "floor";
    case Fn::kCeil:
      return "ceil";
    case Fn::kRound:
      return "round";
    case Fn::kTrunc:
      return "trunc";
    case Fn::kSign:
      return "sign";
    case Fn::kExpm1:
      return "expm1";
    case Fn::kSinh:
      return "sinh";
    case Fn::kCosh:
      return "cosh";
    case Fn::kErf:
      return "erf";
    case Fn::kSin:
      return "sin";
    case Fn::kCos:
      return "cos";
    case Fn::kTan:
      return "tan";
    case Fn::kAtan:
      return "atan";
    case Fn::kAsin:
      return "asin";
    case Fn::kAcos:
      return "acos";
    case Fn::kErfc:
      return "erfc";
    case Fn::kLgamma:
      return "lgamma";
  }
  return "?";
}

inline float Eval(Fn fn, float x) {
  switch (fn) {
    case Fn::kExp:
      return ExpF32(x);
    case Fn::kLog:
      return LogF32(x);
    case Fn::kLog1p:
      return Log1pF32(x);
    case Fn::kTanh:
      return TanhF32(x);
    case Fn::kSigmoid:
      return SigmoidF32(x);
    case Fn::kErfinv:
      return ErfinvF32(x);
    case Fn::kFloor:
      return FloorF32(x);
    case Fn::kCeil:
      return CeilF32(x);
    case Fn::kRound:
      return RoundF32(x);
    case Fn::kTrunc:
      return TruncF32(x);
    case Fn::kSign:
      return SignF32(x);
    case Fn::kExpm1:
      return Expm1F32(x);
    case Fn::kSinh:
      return SinhF32(x);
    case Fn::kCosh:
      return CoshF32(x);
    case Fn::kErf:
      return ErfF32(x);
    case Fn::kSin:
      return SinF32(x);
    case Fn::kCos:
      return CosF32(x);
    case Fn::kTan:
      return TanF32(x);
    case Fn::kAtan:
      return AtanF32(x);
    case Fn::kAsin:
      return AsinF32(x);
    case Fn::kAcos:
      return AcosF32(x);
    case Fn::kErfc:
      return ErfcF32(x);
    case Fn::kLgamma:
      return LgammaF32(x);
  }
  return 0.0f;
}

// erfinv(x) for |x| < 1: `newton_steps` Newton steps on erfl from `guess`
// (one step from a 2-ulp guess leaves ~2^-44 relative error).
inline long double ErfinvReference(float x, float guess, int newton_steps) {
  const long double kTwoOverSqrtPi = 1.1283791670955125738961589031215452L;
  long double y = guess;
  if (!std::isfinite(guess)) y = 0.0L;
  for (int i = 0; i < newton_steps; ++i) {
    // Near |x| = 1 the residual is formed from erfc so 1 - |x| stays exact.
    long double residual = erfl(y) - static_cast<long double>(x);
    if (std::fabs(x) > 0.5f) {
      long double tail = (1.0L - std::fabs(static_cast<long double>(x))) - erfcl(std::fabs(y));
      residual = y < 0 ? -tail : tail;
    }
    y -= residual / (kTwoOverSqrtPi * expl(-y * y));
  }
  return y;
}

// The exact function value, as well as the reference can give it. `got` is
// the value under test (erfinv's reference starts from it).
inline long double Reference(Fn fn, float x, float got, int newton_steps = 1) {
  double xd = x;
  switch (fn) {
    case Fn::kExp:
      return std::exp(xd);
    case Fn::kLog:
      return std::log(xd);
    case Fn::kLog1p:
      return std::log1p(xd);
    case Fn::kTanh:
      return std::tanh(xd);
    case Fn::kSigmoid:
      return 1.0 / (1.0 + std::exp(-xd));
    case Fn::kErfinv:
      if (std::isnan(x) || std::fabs(x) > 1.0f) return std::numeric_limits<double>::quiet_NaN();
      if (std::fabs(x) == 1.0f) return std::copysign(std::numeric_limits<double>::infinity(), xd);
      if (x == 0.0f) return x;
      return ErfinvReference(x, got, newton_steps);
    case Fn::kFloor:
      return std::floor(xd);
    case Fn::kCeil:
      return std::ceil(xd);
    case Fn::kRound:
      return std::nearbyint(xd);
    case Fn::kTrunc:
      return std::trunc(xd);
    case Fn::kSign:
      if (std::isnan(x) || x == 0.0f) return xd;
      return std::copysign(1.0, xd);
    case Fn::kExpm1:
      return std::expm1(xd);
    case Fn::kSinh:
      return std::sinh(xd);
    case Fn::kCosh:
      return std::cosh(xd);
    case Fn::kErf:
      return std::erf(xd);
    case Fn::kSin:
    case Fn::kCos:
    case Fn::kTan:
      // Alea's trig functions reduce |x| <= 2^22 only and give NaN beyond.
      if (std::fabs(x) > 0x1p22f) return std::numeric_limits<double>::quiet_NaN();
      return fn == Fn::kSin ? std::sin(xd) : fn == Fn::kCos ? std::cos(xd) : std::tan(xd);
    case Fn::kAtan:
      return std::atan(xd);
    case Fn::kAsin:
      return std::asin(xd);
    case Fn::kAcos:
      return std::acos(xd);
    case Fn::kErfc:
      return std::erfc(xd);
    case Fn::kLgamma:
      return std::lgamma(xd);
  }
  return 0.0L;
}

// Distance from `got` to `ref` in units of the f32 ulp at `ref` (subnormal
// ulp 2^-149 below 2^-126). Infinity when the result is wrong in kind: NaN
// vs. not NaN, inf vs. finite, zero where the correctly rounded result is not
// zero or the reverse (overflow and underflow must match exactly), or a
// nonzero result of the wrong sign.
inline double UlpError(float got, long double ref) {
  constexpr double kWrong = std::numeric_limits<double>::infinity();
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0.0 : kWrong;
  float rounded = static_cast<float>(ref);
  if (std::isinf(rounded) || std::isinf(got)) return got == rounded ? 0.0 : kWrong;
  if ((rounded == 0.0f) != (got == 0.0f)) return kWrong;
  if (got != 0.0f && std::signbit(got) != std::signbit(rounded)) return kWrong;
  long double mag = std::fabs(ref);
  int exp = mag < 0x1p-126L ? -126 : std::ilogb(mag);
  long double ulp = std::ldexp(1.0L, exp - 23);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

inline float FloatFromBits(uint32_t b) { return std::bit_cast<float>(b); }

// lgamma on the negative axis where |lgamma(x)| < 1 (around its zeros, where
// no bound on the relative error is claimed): the absolute error in units of
// 2^-23, the ulp of 1 (math_f32.h).
inline bool LgammaNearZero(Fn fn, float x, long double ref) {
  return fn == Fn::kLgamma && x < 0.0f && std::fabs(ref) < 1.0L;
}

// UlpError, or for an exact function 0 when `got` is the reference's bits
// (any NaN for a NaN) and infinity otherwise.
inline double ErrorOf(Fn fn, float x, float got, long double ref) {
  if (LgammaNearZero(fn, x, ref) && std::isfinite(got)) {
    return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / 0x1p-23L);
  }
  if (!TraitsOf(fn).exact) return UlpError(got, ref);
  const float want = static_cast<float>(ref);
  if (std::isnan(want) || std::isnan(got)) {
    return std::isnan(want) && std::isnan(got) ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want)
             ? 0.0
             : std::numeric_limits<double>::infinity();
}

}  // namespace alea::vm::kernels::testing

#endif  // ALEA_TESTS_VM_KERNELS_MATH_F32_REFERENCE_H_
