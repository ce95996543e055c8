// Alea's f32 lgamma: see math_f32.h. The rules of math_f32.cc apply
// (selects between values that are all computed, std::fma exactly where the
// JIT's vm/jit/math_f32_lgamma.cc issues vfmadd, a fixed operation order).
//
// Coefficients: weighted least-squares fits on 400 Chebyshev nodes computed
// with mpmath (200 bits), rounded to f32 one at a time from the constant
// term up with the rest refitted after each rounding (as math_f32.cc's).
// Fit errors including that rounding: s 2^-36.3 (relative to lgamma), r1 and
// r2 2^-27 (absolute, on values near 0.6 and 0.4), the Stirling remainder
// 2^-37 (relative to lgamma), sinpi 2^-25.1 (relative; its constant term is
// f32(pi)).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::kernels {
using namespace math_internal;

namespace {

constexpr float kHalfLog2PiHi = 0x1.d67f1cp-1f;  // log(2 pi) / 2 = hi + lo
constexpr float kHalfLog2PiLo = 0x1.0c97d6p-26f;
constexpr float kLogPiHi = 0x1.250d04p+0f;  // log(pi) = hi + lo
constexpr float kLogPiLo = 0x1.1cf438p-25f;

// lgamma(a) for a > 0 finite (a = 0 and inf are the caller's):
//   a < 0.5: lgamma(a) = -log a + lgamma(1 + a) = -(gh + gl) + a s(a), s of
//            degree 9 fitted to lgamma(1 + a) / a on [0, 0.5];
//            y = fma(a, s, -gl) - gh with gh + gl = LogParts(a).
//   0.5 <= a < 3: lgamma(a) = (a - 1)(a - 2) r(u), r in two pieces of degree
//            12: r1(a - 1) on [0.5, 1.5), r2(a - 2) on [1.5, 3] (both zeros
//            exact, so the relative error stays small next to 1 and 2);
//            (a - 1)(a - 2) = ph + pl exactly (fma; a - 1 is exact, and so
//            is a - 2 from 1 on); y = fma(ph, r, pl * r).
//   a >= 3:  Stirling, lgamma(a) = a (log a - 1) - log(a) / 2 + log(2 pi) / 2
//            + t f(t^2), t = 1 / a, f of degree 5 fitted to the remainder;
//            with log a = gh + gl, gh - 1 = u + ue (Fast2Sum), a (u + ue) =
//            ph + pl (fma), then ph - gh / 2 and + log(2 pi) / 2 by TwoSums,
//            the low parts summed last; *lo = the rounding error of the sum
//            (Fast2Sum), 0 below 3. An overflowing a (log a - 1) gives inf.
float LgammaPositive(float a, float* lo) {
  float gh, gl;
  LogParts(a, &gh, &gl);
  // a < 0.5
  float s = 0x1.c696dap-7f;
  s = std::fma(s, a, -0x1.a71de8p-5f);
  s = std::fma(s, a, 0x1.91a01ap-4f);
  s = std::fma(s, a, -0x1.170408p-3f);
  s = std::fma(s, a, 0x1.58e3c0p-3f);
  s = std::fma(s, a, -0x1.a8b794p-3f);
  s = std::fma(s, a, 0x1.151a9cp-2f);
  s = std::fma(s, a, -0x1.9a4e88p-2f);
  s = std::fma(s, a, 0x1.a51a70p-1f);
  s = std::fma(s, a, -0x1.2788d0p-1f);
  float tiny = std::fma(a, s, -gl) - gh;
  // 0.5 <= a < 3
  bool near_one = a < 1.5f;
  float am1 = a - 1.0f;
  float am2 = am1 - 1.0f;
  float am2e = am1 - (am2 + 1.0f);
  float ph, pl;
  MulHiLo(am1, am2, am2e, &ph, &pl);
  float u = near_one ? am1 : am2;
  float r = HornerSelect(near_one, u, kLgammaR1, kLgammaR2);
  float w = r * u;
  float c0 = near_one ? 0x1.2788d0p-1f : 0x1.b0ee60p-2f;
  float mid = std::fma(ph, c0, std::fma(ph, w, pl * (c0 + w)));
  // a >= 3
  float lu = gh - 1.0f;
  float lue = ((gh - lu) - 1.0f) + gl;
  float qh, ql;
  MulHiLo(a, lu, lue, &qh, &ql);
  float hg = 0.5f * gh;
  float sa, se, sb, sbe;
  TwoDiff(qh, hg, &sa, &se);
  TwoSum(sa, kHalfLog2PiHi, &sb, &sbe);
  float t = 1.0f / a;
  float z = t * t;
  float f = -0x1.6f44c2p-9f;
  f = std::fma(f, z, 0x1.80cd16p-10f);
  f = std::fma(f, z, -0x1.6bc01ap-11f);
  f = std::fma(f, z, 0x1.a3b258p-11f);
  f = std::fma(f, z, -0x1.6c1e0ep-9f);
  f = std::fma(f, z, 0x1.555556p-4f);
  float low = ((se + sbe) + std::fma(gl, -0.5f, ql)) + std::fma(t, f, kHalfLog2PiLo);
  float big = sb + low;
  *lo = a < 3.0f ? 0.0f : low - (big - sb);
  big = qh == kInf ? kInf : big;
  float y = a < 3.0f ? mid : big;
  return a < 0.5f ? tiny : y;
}

// |sin(pi a)| for a >= 0 finite: r = a - nearbyint(a) (exact, |r| <= 0.5),
// sin(pi r) = r p(r^2), p of degree 6 fitted to sin(pi r) / r.
float AbsSinPi(float a) {
  float r = a - std::nearbyint(a);
  float z = r * r;
  float p = 0x1.efd7d4p-4f;
  p = std::fma(p, z, -0x1.b15a0cp-4f);
  p = std::fma(p, z, 0x1.cef5bcp-4f);
  p = std::fma(p, z, -0x1.353358p-1f);
  p = std::fma(p, z, 0x1.4676d8p+1f);
  p = std::fma(p, z, -0x1.4abbfap+2f);
  p = std::fma(p, z, 0x1.921fb6p+1f);
  return Abs(r * p);
}

}  // namespace

// lgamma(x) = log|gamma(x)|. On a = |x|: L = LgammaPositive(a); for x < 0
// the reflection gamma(x) gamma(1 - x) = pi / sin(pi x) gives
// lgamma(x) = log pi - log a - log|sin(pi a)| - L, the logs as hi + lo
// (LogParts) and L (with its low part) summed by three TwoSums, the low
// parts added last (L's own error then counts as much as the result is
// smaller than it:
// without bound next to the zeros of lgamma on the negative axis, see
// math_f32.h); for a < 2^-30 it is -log a (LogF32: the next term, -0.58 x,
// is below 2^-35 of it, and sin(pi a) would be subnormal).
// +inf at 0, at the negative integers (all x <= -2^23 are) and at +-inf;
// NaN gives NaN.
float LgammaF32(float x) {
  float a = Abs(x);
  float l_lo;
  float l = LgammaPositive(a, &l_lo);
  float sp = AbsSinPi(a);
  float ah, al, sh, sl;
  LogParts(a, &ah, &al);
  LogParts(sp, &sh, &sl);
  float s, se, t, te, u, ue;
  TwoSum(ah, sh, &s, &se);
  TwoDiff(kLogPiHi, s, &t, &te);
  TwoDiff(t, l, &u, &ue);
  float neg = u + ((ue + (te + kLogPiLo)) - ((se + (al + sl)) + l_lo));
  neg = a < 0x1p-30f ? -LogF32(a) : neg;
  float y = x < 0.0f ? neg : l;
  y = (x < 0.0f && sp == 0.0f) || a == 0.0f || a == kInf ? kInf : y;
  return IsNaN(x) ? x : y;
}

void LgammaF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = LgammaF32(in[i]);
}

}  // namespace alea::vm::kernels
