// Alea's f32 erf: see math_f32.h. The rules of math_f32.cc apply
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

// e^(x + lo) = (1 + p) * s1 * s2 (s1 = 2^k1, s2 = 2^k2) for x in [-104, 0]
// and |lo| <= 2^-17, by ExpCore's reduction and polynomial but with lo folded
// into r and the final "+ 1" left to the caller (which multiplies it in with
// one fma instead of rounding 1 + p):
//   kf = round(x log2e); r = fma(kf, -kLn2Hi, x) (exact);
//   r = r + fma(kf, -kLn2Lo, lo) (one rounding, as ExpCore's r)
//   p = Horner as ExpCore's down to its first "+ 1"; p = r * p
float ExpParts(float x, float lo, float* s1, float* s2) {
  float biased = x * kLog2e + kRoundMagic;
  float kf = biased - kRoundMagic;
  float r = std::fma(kf, -kLn2Hi, x);
  r = r + std::fma(kf, -kLn2Lo, lo);
  float p = 0x1.a01a02p-13f;
  p = std::fma(p, r, 0x1.6c16c2p-10f);
  p = std::fma(p, r, 0x1.111112p-7f);
  p = std::fma(p, r, 0x1.555556p-5f);
  p = std::fma(p, r, 0x1.555556p-3f);
  p = std::fma(p, r, 0x1.0p-1f);
  p = std::fma(p, r, 1.0f);
  p = r * p;
  int32_t k = static_cast<int32_t>(Bits(biased) - Bits(kRoundMagic));
  int32_t k1 = k >> 1;
  int32_t k2 = k - k1;
  *s1 = FromBits(static_cast<uint32_t>(k1 + 127) << 23);
  *s2 = FromBits(static_cast<uint32_t>(k2 + 127) << 23);
  return p;
}

// erfc(a) for a >= 1 (0 from 10.06 on) as e^(-a^2) g(a), g = erfc e^(a^2)
// (fitted from 0.47 on; erf uses it from 1 on, where erfc <= 0.16 and its
// error of up to 2.6 ulp (measured) shrinks fourfold in 1 - erfc):
//   c = min(a, 10.1); zh = c * c, zl = fma(c, c, -zh) (c^2 = zh + zl exactly);
//   p = ExpParts(-zh, -zl, &s1, &s2)
//   c < 2.5: g = Horner(u) of degree 9 in two pieces, fitted to g: c < 1.25
//            around 0.9051, else around 1.9199 (centres where g is within
//            0.002 ulp of an f32, so the rounded constant term costs nothing;
//            u = c - centre is exact, Sterbenz)
//   c >= 2.5: i = 1 / c, t = i * i, g = h(t) / c with h of degree 7 fitted to
//             c g(c) on t in [1/10.1^2, 1/2.5^2]
//   y = (fma(g, p, g) * s1) * s2: the fma is the one rounding of a normal
//   result (* s1 is exact), * s2 the one rounding into a subnormal.
float ErfcTail(float a) {
  float c = a < 10.1f ? a : 10.1f;
  float zh = c * c;
  float zl = std::fma(c, c, -zh);
  float s1, s2;
  float p = ExpParts(-zh, -zl, &s1, &s2);
  bool near = c < 1.25f;
  float u = c - (near ? 0x1.cf6c8cp-1f : 0x1.eb7ceep+0f);
  float ga = near ? -0x1.6e6132p-11f : -0x1.821ea4p-16f;
  ga = std::fma(ga, u, near ? 0x1.837996p-10f : 0x1.3a44eep-14f);
  ga = std::fma(ga, u, near ? -0x1.dfea84p-9f : -0x1.d539fep-13f);
  ga = std::fma(ga, u, near ? 0x1.2a419ap-7f : 0x1.718562p-11f);
  ga = std::fma(ga, u, near ? -0x1.5b87ecp-6f : -0x1.18e5f8p-9f);
  ga = std::fma(ga, u, near ? 0x1.7cfaf2p-5f : 0x1.98a452p-8f);
  ga = std::fma(ga, u, near ? -0x1.8594d8p-4f : -0x1.1be88ap-6f);
  ga = std::fma(ga, u, near ? 0x1.6ecd02p-3f : 0x1.76b086p-5f);
  ga = std::fma(ga, u, near ? -0x1.3817f4p-2f : -0x1.d224e2p-4f);
  ga = std::fma(ga, u, near ? 0x1.d1e254p-2f : 0x1.0e9220p-2f);
  float i = 1.0f / c;
  float t = i * i;
  float h = -0x1.92754ep+4f;
  h = std::fma(h, t, 0x1.69def2p+4f);
  h = std::fma(h, t, -0x1.40aeecp+3f);
  h = std::fma(h, t, 0x1.a0abdep+1f);
  h = std::fma(h, t, -0x1.09de8ap+0f);
  h = std::fma(h, t, 0x1.b0cc5ep-2f);
  h = std::fma(h, t, -0x1.20dbd0p-2f);
  h = std::fma(h, t, 0x1.20dd74p-1f);
  float gb = h / c;
  float g = c < 2.5f ? ga : gb;
  return (std::fma(g, p, g) * s1) * s2;
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
  y = WithSign(y, x);
  return IsNaN(x) ? x : y;
}

void ErfF32(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ErfF32(in[i]);
}

}  // namespace alea::vm::kernels
