// Alea's f32 sin, cos and tan: see math_f32.h. The rules of math_f32.cc apply
// (selects between values that are all computed, std::fma exactly where the
// JIT's vm/jit/math_f32_trig.cc issues vfmadd, a fixed operation order).
//
// Coefficients: weighted least-squares fits on 400 Chebyshev nodes of
// |r| <= 0.96 computed with mpmath (200 bits), weighted by the error each
// coefficient makes in the final result (relative), rounded to f32 one at a
// time from the constant term up with the rest refitted after each rounding.
// Fit errors including that rounding: sin 2^-31.5, cos 2^-35.4, tan 2^-29.9
// relative.
#include <cstddef>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::kernels {
using namespace math_internal;

namespace {

// The largest |x| reduced (see Reduce); beyond it the functions give NaN.
constexpr float kTrigLimit = 0x1p22f;
constexpr float kTwoOverPi = 0x1.45f306p-1f;  // f32(2/pi)
// pi/2 = kPio2A + kPio2B + kPio2C + O(2^-76), each the f32 nearest what is left.
constexpr float kPio2A = 0x1.921fb6p+0f;
constexpr float kPio2B = -0x1.777a5cp-25f;
constexpr float kPio2C = -0x1.ee59dap-50f;

// Cody-Waite reduction of a = |x| <= 2^22: a = k pi/2 + hi + lo with
// |hi + lo| <= 0.954 (k = round(a f32(2/pi)) by one fma onto kRoundMagic,
// so k can miss the nearest integer by a * 2^-25.2 at most) and hi + lo
// within 2^-52 of the exact remainder (whose smallest magnitude for f32
// inputs up to 2^22 is 2^-27.8, at 0x1.f9cbe2p+7):
//   r1 = fma(-kf, A, a)             exact: a multiple of 2^-23 below 2
//   ph = kf * B; pl = fma(kf, B, -ph)   kf * B = ph + pl exactly
//   hi = r1 - ph; lo = TwoSum error     r1 - ph = hi + lo exactly
//   lo = lo - pl; lo = fma(-kf, C, lo)  the small terms, one rounding each
// Returns k's low bits (the quadrant) as an integer.
uint32_t Reduce(float a, float* hi, float* lo) {
  float biased = std::fma(a, kTwoOverPi, kRoundMagic);
  float kf = biased - kRoundMagic;
  float r1 = std::fma(-kf, kPio2A, a);
  float ph = kf * kPio2B;
  float pl = std::fma(kf, kPio2B, -ph);
  float h = r1 - ph;
  float v = h - r1;
  float l = (r1 - (h - v)) - (ph + v);
  l = l - pl;
  *lo = std::fma(-kf, kPio2C, l);
  *hi = h;
  return Bits(biased) - Bits(kRoundMagic);
}

// sin(hi + lo) for |hi + lo| <= 0.96: r = hi + lo, z = r * r,
// s = Horner(z) of degree 3 fitted to (sin r - r) / r^3;
// hi + fma(r * z, s, lo): the correction is at most 0.15 of the result.
float SinPoly(float hi, float lo, float r, float z) {
  float s = 0x1.6e95e0p-19f;
  s = std::fma(s, z, -0x1.a022bep-13f);
  s = std::fma(s, z, 0x1.111140p-7f);
  s = std::fma(s, z, -0x1.555556p-3f);
  return hi + std::fma(r * z, s, lo);
}

// cos(hi + lo) = 1 - (hi + lo)^2 / 2 + z^2 c(z), c of degree 3 fitted to
// (cos r - 1 + r^2 / 2) / r^4. (hi + lo)^2 = zh + zl to 2^-48 relative
// (zl = fma(hi, hi, -zh) + 2 hi lo); 1 - zh / 2 = w + werr exactly
// (Fast2Sum, 1 >= zh / 2); the result is w + fma(z * z, c, werr - zl / 2).
float CosPoly(float hi, float lo, float z) {
  float zh = hi * hi;
  float zl = std::fma(hi, hi, -zh);
  zl = std::fma(hi + hi, lo, zl);
  float hz = 0.5f * zh;
  float w = 1.0f - hz;
  float werr = (1.0f - w) - hz;
  float c = -0x1.27689ep-22f;
  c = std::fma(c, z, 0x1.a030f4p-16f);
  c = std::fma(c, z, -0x1.6c1718p-10f);
  c = std::fma(c, z, 0x1.555556p-5f);
  return w + std::fma(z * z, c, std::fma(zl, -0.5f, werr));
}

// Odd quadrant: (k & 1) set.
bool OddQuadrant(uint32_t k) { return (k & 1u) != 0; }

// The common tail: NaN beyond kTrigLimit (and for infinities), x for NaN x.
float TrigSpecial(float x, float a, float y) {
  y = a > kTrigLimit ? kNaN : y;
  return IsNaN(x) ? x : y;
}

}  // namespace

// sin(x) = sign(x) sin(a), a = |x| = k pi/2 + r: the quadrant k & 3 picks
// sin r, cos r, -sin r or -cos r; both signs are applied as one xor of the
// sign bit ((k & 2) << 30 ^ the sign of x).
float SinF32(float x) {
  float a = Abs(x);
  float hi, lo;
  uint32_t k = Reduce(a, &hi, &lo);
  float r = hi + lo;
  float z = r * r;
  float s = SinPoly(hi, lo, r, z);
  float c = CosPoly(hi, lo, z);
  float y = OddQuadrant(k) ? c : s;
  y = FromBits(Bits(y) ^ (((k << 30) ^ Bits(x)) & 0x80000000u));
  return TrigSpecial(x, a, y);
}

// cos(x) = cos(a): quadrant k & 3 picks cos r, -sin r, -cos r or sin r (the
// sign is ((k + 1) & 2) << 30).
float CosF32(float x) {
  float a = Abs(x);
  float hi, lo;
  uint32_t k = Reduce(a, &hi, &lo);
  float r = hi + lo;
  float z = r * r;
  float s = SinPoly(hi, lo, r, z);
  float c = CosPoly(hi, lo, z);
  float y = OddQuadrant(k) ? s : c;
  y = FromBits(Bits(y) ^ (((k + 1u) << 30) & 0x80000000u));
  return TrigSpecial(x, a, y);
}

// tan(x) = sign(x) tan(a): tan r for even k, -1 / tan r for odd k.
// tan r = r + r^3 t(z), t of degree 8 fitted to (tan r - r) / r^3, kept as
// th + tl (Fast2Sum: the correction is below 0.31 |hi|). The cotangent
// divides once and corrects: q0 = -1 / th; e = fma(q0, th, 1) (exact, the
// division's remainder); e = fma(q0, tl, e); -1 / (th + tl) = fma(q0, e, q0)
// to O(e^2).
float TanF32(float x) {
  float a = Abs(x);
  float hi, lo;
  uint32_t k = Reduce(a, &hi, &lo);
  float r = hi + lo;
  float z = r * r;
  float t = 0x1.0eed76p-9f;
  t = std::fma(t, z, -0x1.1526c6p-8f);
  t = std::fma(t, z, 0x1.e45af4p-8f);
  t = std::fma(t, z, -0x1.11e7c0p-11f);
  t = std::fma(t, z, 0x1.59d2dcp-7f);
  t = std::fma(t, z, 0x1.5fa170p-6f);
  t = std::fma(t, z, 0x1.ba8d24p-5f);
  t = std::fma(t, z, 0x1.110f48p-3f);
  t = std::fma(t, z, 0x1.55555ap-2f);
  float corr = std::fma(r * z, t, lo);
  float th = hi + corr;
  float tl = corr - (th - hi);
  float q0 = -1.0f / th;
  float e = std::fma(q0, th, 1.0f);
  e = std::fma(q0, tl, e);
  float cot = std::fma(q0, e, q0);
  float y = OddQuadrant(k) ? cot : th;
  y = FromBits(Bits(y) ^ (Bits(x) & 0x80000000u));
  return TrigSpecial(x, a, y);
}

#define ALEA_MATH_F32_BATCH(F)                        \
  void F(const float* in, float* out, size_t n) {     \
    for (size_t i = 0; i < n; ++i) out[i] = F(in[i]); \
  }
ALEA_MATH_F32_BATCH(SinF32)
ALEA_MATH_F32_BATCH(CosF32)
ALEA_MATH_F32_BATCH(TanF32)
#undef ALEA_MATH_F32_BATCH

}  // namespace alea::vm::kernels
