// Alea's f32 erf and erfc: see math_f32.h. The rules of math_f32.cc apply
// (selects between values that are all computed, std::fma exactly where the
// JIT's vm/jit/math_f32_special.cc issues vfmadd, a fixed operation order).
//
// Coefficients: weighted least-squares fits on 400 Chebyshev nodes computed
// with mpmath (40 digits), relative error weight, rounded to f32 one at a time
// from the constant term up with the rest refitted after each rounding (as
// tanh's and erfinv's in math_f32.cc). The fit error of each polynomial is
// under 0.05 ulp on its range.
#include <cstddef>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::kernels {
using namespace math_internal;

namespace {

// erf(a) for 0 <= a <= 1: z = a * a; R = Horner(z) of degree 6, fitted to
// erf(a)/a - kC0 (kC0 = f32(2/sqrt(pi))); fma(a, kC0, a * R) so the leading
// term has one rounding.
float ErfSmall(float a) {
  float z = a * a;
  float r = 0x1.498d64p-14f;
  r = std::fma(r, z, -0x1.a4052ap-11f);
  r = std::fma(r, z, 0x1.5407d8p-8f);
  r = std::fma(r, z, -0x1.b7f95ap-6f);
  r = std::fma(r, z, 0x1.ce2cfcp-4f);
  r = std::fma(r, z, -0x1.81273ep-2f);
  r = std::fma(r, z, -0x1.01e068p-24f);
  return std::fma(a, 0x1.20dd76p+0f, a * r);
}

// erfc(a) for a >= 0.47 (0 from 10.06 on) as e^(-a^2) g(a), g = erfc e^(a^2),
// with both factors carried as hi + lo so that the product has one rounding
// (with them rounded to f32 first the error reached 2.6 ulp):
//   c = min(a, 10.1); zh = c * c, zl = fma(c, c, -zh) (c^2 = zh + zl exactly);
//   ExpSplit(-zh, -zl) = e^(-c^2) as (eh + el) * s1 * s2
//   c < 2.5: g = c0 + u G(u), G of degree 8 and c0 fitted together to g
//            in two pieces: c < 1.25 around 0.9051, else around 1.9199
//            (u = c - centre is exact, Sterbenz); gh + gl = c0 + u G
//            exactly (Fast2Sum: |u G| < c0)
//   c >= 2.5: i = 1 / c, t = i * i, g = (h0 + t H(t)) / c, fitted to c g(c)
//             on t in [1/10.1^2, 1/2.5^2] (H of degree 6);
//             hh + hl = h0 + t H exactly (Fast2Sum); gh = hh / c and
//             gl = (fma(-gh, c, hh) + hl) * i (the division's exact remainder)
//   y = fma(gh, eh, fma(gh, el, gl * eh)): one rounding of a normal result;
//   (y * s1) * s2: * s1 is exact, * s2 the one rounding into a subnormal.
// Measured max error as erfc on every input of [0.47, 10.06]: 0.96 ulp.
float ErfcTail(float a) {
  float c = a < 10.1f ? a : 10.1f;
  float zh, zl;
  TwoProduct(c, c, &zh, &zl);
  float eh, el, s1, s2;
  ExpSplit(-zh, -zl, &eh, &el, &s1, &s2);
  bool near = c < 1.25f;
  float c0 = near ? 0x1.d1e254p-2f : 0x1.0e9220p-2f;
  float u = c - (near ? 0x1.cf6c8cp-1f : 0x1.eb7ceep+0f);
  float ga = HornerSelect(near, u, kErfcMidNear, kErfcMidFar);
  float ua = ga * u;
  float gha, gla;
  Fast2Sum(c0, ua, &gha, &gla);
  float i = 1.0f / c;
  float t = i * i;
  float h = -0x1.92754ep+4f;
  h = std::fma(h, t, 0x1.69def2p+4f);
  h = std::fma(h, t, -0x1.40aeecp+3f);
  h = std::fma(h, t, 0x1.a0abdep+1f);
  h = std::fma(h, t, -0x1.09de8ap+0f);
  h = std::fma(h, t, 0x1.b0cc5ep-2f);
  h = std::fma(h, t, -0x1.20dbd0p-2f);
  float th = h * t;
  float hh, hl;
  Fast2Sum(0x1.20dd74p-1f, th, &hh, &hl);
  float ghb = hh / c;
  float glb = (std::fma(-ghb, c, hh) + hl) * i;
  bool mid = c < 2.5f;
  float gh = mid ? gha : ghb;
  float gl = mid ? gla : glb;
  float y = std::fma(gh, eh, std::fma(gh, el, gl * eh));
  return (y * s1) * s2;
}

}  // namespace

// On a = |x| (sign restored at the end, so erf is exactly odd): ErfSmall(a)
// for a < 1, else 1 - ErfcTail(a) (erfc(a) <= 0.16 there, so its error
// shrinks by 4 or more; 1 from a = 3.92 on).
float ErfF32(float x) {
  float a = Abs(x);
  float small = ErfSmall(a);
  float large = 1.0f - ErfcTail(a);
  float y = a < 1.0f ? small : large;
  return OddResult(x, y);
}

// erfc(x): on a = |x|, erfc(a) = 1 - ErfSmall(a) for a < 0.47 (erfc > 0.5
// there, so erf's error shrinks), else ErfcTail(a); erfc(-a) = 2 - erfc(a)
// as 1 + ErfSmall(a) or 2 - ErfcTail(a) (results in [1, 2]).
float ErfcF32(float x) {
  float a = Abs(x);
  float small = ErfSmall(a);
  float tail = ErfcTail(a);
  bool near = a < 0.47f;
  float pos = near ? 1.0f - small : tail;
  float neg = near ? 1.0f + small : 2.0f - tail;
  float y = x < 0.0f ? neg : pos;
  return IsNaN(x) ? x : y;
}

void ErfF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ErfF32(in[i]);
}
void ErfcF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ErfcF32(in[i]);
}

}  // namespace alea::vm::kernels
