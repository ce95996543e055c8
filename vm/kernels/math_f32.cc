// Alea's f32 math: see math_f32.h. Every function is branch-free apart from
// selects (written as ?: on values that are all computed), so a SIMD version
// computes every path for every lane and blends. Operation order is fixed; a
// JIT version must perform exactly the same operations, FMA where std::fma
// appears and nowhere else.
//
// Polynomial coefficients: exp and log use Taylor / atanh series (truncation
// error < 0.1 ulp on the reduced ranges); tanh and erfinv use weighted
// least-squares fits on Chebyshev nodes computed with mpmath (40 digits),
// relative error weight, coefficients rounded to f32 one at a time from the
// constant term up with the rest refitted after each rounding. Hex float
// literals are the exact f32 values.
#include "vm/kernels/math_f32.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::kernels {
using namespace math_internal;

float ExpF32(float x) {
  float y = ExpCore(ClampExpArg(x));
  return IsNaN(x) ? x : y;
}

// x = 2^k (1 + f) by SplitLogWithSubnormals; then log x = hi + (f + lo) from
// LogCore(f, k, 0).
float LogF32(float x) {
  float kf, f;
  SplitLogWithSubnormals(x, &kf, &f);
  float hi, lo;
  LogCore(f, kf, 0.0f, &hi, &lo);
  float y = hi + (f + lo);
  y = x == kInf ? kInf : y;
  y = x == 0.0f ? -kInf : y;
  y = x < 0.0f ? kNaN : y;
  return IsNaN(x) ? x : y;
}

// For x in [sqrt(1/2) - 1, sqrt(2) - 1) LogCore runs on f = x itself (k = 0),
// so nothing is lost to rounding 1 + x. Elsewhere u = 1 + x is rounded and
// split as 2^k * m; c = (1 + x) - u exactly (Fast2Sum, ordered by magnitude:
// c = 1 - (u - x) when x >= 1, else x - (u - 1)), and log(1 + x) =
// k ln2 + log(m) + c / u to well under an ulp.
float Log1pF32(float x) {
  float u = 1.0f + x;
  float c = x >= 1.0f ? 1.0f - (u - x) : x - (u - 1.0f);
  float kf, m;
  SplitLog(u, &kf, &m);
  bool direct = x >= -0x1.2bec34p-2f && x < 0x1.a8279ap-2f;  // sqrt(1/2)-1, sqrt(2)-1
  float f = direct ? x : m - 1.0f;
  kf = direct ? 0.0f : kf;
  float extra = direct ? 0.0f : c / u;
  float hi, lo;
  LogCore(f, kf, extra, &hi, &lo);
  float y = hi + (f + lo);
  y = x == 0.0f ? x : y;  // keeps the sign of -0
  y = x == kInf ? kInf : y;
  y = x == -1.0f ? -kInf : y;
  y = x < -1.0f ? kNaN : y;
  return IsNaN(x) ? x : y;
}

// On a = |x| (sign restored at the end, so tanh is exactly odd):
//   a < 0.75: a + a^3 P(a^2), P of degree 7 fitted to (tanh(a) - a) / a^3;
//             z = a * a; p = Horner(z) with fma from the top;
//             y = fma(a * z, p, a)
//   a >= 0.75: 1 - 2 / (E + 1), E = ExpCoreSmallK(min(2a, 40)); the division is
//             corrected for the rounding of d = E + 1 (derr = 1 - (d - E),
//             exact) and for its own rounding:
//             q = 2 / d; r = fma(-q, d, 2); r = fma(-q, derr, r);
//             y = 1 - fma(r, q / 2, q) (r / d as r q / 2: the correction
//             is below an ulp of q, so its own relative error of 2^-23 is
//             lost, and the one division left halves the kernel's cost)
float TanhF32(float x) {
  float a = Abs(x);
  float z = a * a;
  float p = 0x1.59ddd4p-12f;
  p = std::fma(p, z, -0x1.69db6ep-10f);
  p = std::fma(p, z, 0x1.df8d1ep-9f);
  p = std::fma(p, z, -0x1.248a16p-7f);
  p = std::fma(p, z, 0x1.66af94p-6f);
  p = std::fma(p, z, -0x1.ba2416p-5f);
  p = std::fma(p, z, 0x1.11113ep-3f);
  p = std::fma(p, z, -0x1.555556p-2f);
  float small = std::fma(a * z, p, a);

  float a2 = a + a;
  float e = ExpCoreSmallK(a2 < 40.0f ? a2 : 40.0f);
  float d = e + 1.0f;
  float derr = 1.0f - (d - e);
  float q = 2.0f / d;
  float r = std::fma(-q, d, 2.0f);
  r = std::fma(-q, derr, r);
  float large = 1.0f - std::fma(r, 0.5f * q, q);

  // Both are >= +0 (small is +0 at a = 0, large at most rounds to +0).
  float y = a < 0.75f ? small : large;
  return OddResultOfNonNegative(x, y);
}

// e = ExpCore(-|x|) in [0, 1]; sigmoid = n / (1 + e) with n = 1 for x >= 0
// and n = e for x < 0, so nothing overflows. The division is corrected for
// the rounding of d = 1 + e (derr = e - (d - 1), exact) and its own rounding:
//   q = n / d; r = fma(-q, d, n); r = fma(-q, derr, r); y = q + r / d
float SigmoidF32(float x) {
  float e = ExpCore(ClampExpArg(-Abs(x)));
  float d = 1.0f + e;
  float derr = e - (d - 1.0f);
  float n = x >= 0.0f ? 1.0f : e;
  float q = n / d;
  float r = std::fma(-q, d, n);
  r = std::fma(-q, derr, r);
  float y = q + r / d;
  return IsNaN(x) ? x : y;
}

// On a = |x| (sign restored at the end, so erfinv is exactly odd):
//   a <= 0.75: t = a * a; R = Horner(t) of degree 11 with fma from the top,
//     fitted to erfinv(a)/a - kC0 (kC0 = f32(sqrt(pi)/2)); y = fma(a, kC0, a * R)
//     so the leading term has a single rounding.
//   0.75 < a < 1: w = -log(1 - a^2), s = sqrt(w), y = s + g(s) with g fitted to
//     erfinv - s (|g| <= 0.17 s, so its errors shrink), in two pieces
//     (s < 2: centre 1.5; s >= 2: centre 3; u = s - centre is exact), degree 9.
//     1 - a^2 is carried as ahi + alo: p = a * a, alo = -fma(a, a, -p),
//     ahi = 1 - p (exact, Sterbenz); LogCore(f = m - 1, k, alo / ahi) gives
//     log(ahi + alo) = lhi + (f + llo), summed as wh + wl by two Fast2Sums
//     (|f| >= |llo|, |lhi| >= |f + llo| as k <= -1 here);
//     s + slo = SqrtWithCorrection(wh, wl);
//     y = s + (g(u) + slo) (dy/ds is within 0.1 of 1 there).
float ErfinvF32(float x) {
  float a = Abs(x);
  // Region a <= 0.75.
  float t = a * a;
  float rp = 0x1.47e358p+0f;
  rp = std::fma(rp, t, -0x1.7bfe30p+1f);
  rp = std::fma(rp, t, 0x1.a22a8ep+1f);
  rp = std::fma(rp, t, -0x1.ffb9a6p+0f);
  rp = std::fma(rp, t, 0x1.ad91cap-1f);
  rp = std::fma(rp, t, -0x1.4da2b0p-3f);
  rp = std::fma(rp, t, 0x1.5f8494p-4f);
  rp = std::fma(rp, t, 0x1.f73184p-5f);
  rp = std::fma(rp, t, 0x1.636520p-4f);
  rp = std::fma(rp, t, 0x1.0538aep-3f);
  rp = std::fma(rp, t, 0x1.db2a06p-3f);
  rp = std::fma(rp, t, -0x1.cc0b0cp-26f);
  float central = std::fma(a, 0x1.c5bf8ap-1f, a * rp);

  // Region 0.75 < a < 1.
  float alo = -std::fma(a, a, -t);
  float ahi = 1.0f - t;
  float kf, m;
  SplitLog(ahi, &kf, &m);
  float lf = m - 1.0f;
  float lhi, llo;
  LogCore(lf, kf, alo / ahi, &lhi, &llo);
  float lmid, lmid_err, lsum, lsum_err;
  Fast2Sum(lf, llo, &lmid, &lmid_err);
  Fast2Sum(lhi, lmid, &lsum, &lsum_err);
  lsum_err = lsum_err + lmid_err;
  float wh = -lsum;
  float wl = -lsum_err;
  float slo;
  float s = SqrtWithCorrection(wh, wl, &slo);
  bool near = s < 2.0f;
  float u = s - (near ? 1.5f : 3.0f);
  float g = HornerSelect(near, u, kErfinvTailNear, kErfinvTailFar);
  float tail = s + (g + slo);

  float y = a <= 0.75f ? central : tail;
  y = a == 1.0f ? kInf : y;
  y = a > 1.0f ? kNaN : y;
  return OddResult(x, y);
}

void ExpF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ExpF32(in[i]);
}
void LogF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = LogF32(in[i]);
}
void Log1pF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = Log1pF32(in[i]);
}
void TanhF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = TanhF32(in[i]);
}
void SigmoidF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = SigmoidF32(in[i]);
}
void ErfinvF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ErfinvF32(in[i]);
}

}  // namespace alea::vm::kernels
