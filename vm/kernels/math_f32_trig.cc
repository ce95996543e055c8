// Alea's f32 sin, cos, tan, atan, asin, acos, atan2 and hypot: see
// math_f32.h. The rules of math_f32.cc apply
// (selects between values that are all computed, std::fma exactly where the
// JIT's vm/jit/math_f32_trig.cc issues vfmadd, a fixed operation order).
//
// Coefficients: weighted least-squares fits on 400 Chebyshev nodes of
// |r| <= 0.96 computed with mpmath (200 bits), weighted by the error each
// coefficient makes in the final result (relative), rounded to f32 one at a
// time from the constant term up with the rest refitted after each rounding.
// Fit errors including that rounding: sin 2^-31.5, cos 2^-35.4, tan 2^-29.9
// relative. atan's on [0, 1] and asin's on [0, 0.5] are fitted the same way:
// 2^-31.0 and 2^-31.5.
#include <cmath>
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

// What sin, cos and tan share: a = |x|, Reduce(a) into hi, lo and the
// quadrant bits k, r = hi + lo, z = r * r.
struct Reduced {
  float a, hi, lo;
  uint32_t k;
  float r, z;
};

// Cody-Waite reduction of a = |x| <= 2^22: a = k pi/2 + hi + lo with
// |hi + lo| <= 0.954 (k = round(a f32(2/pi)) by one fma onto kRoundMagic,
// so k can miss the nearest integer by a * 2^-25.2 at most) and hi + lo
// within 2^-52 of the exact remainder (whose smallest magnitude for f32
// inputs up to 2^22 is 2^-27.8, at 0x1.f9cbe2p+7):
//   r1 = fma(-kf, A, a)             exact: a multiple of 2^-23 below 2
//   ph = kf * B; pl = fma(kf, B, -ph)   kf * B = ph + pl exactly
//   hi, lo = TwoDiff(r1, ph)            r1 - ph = hi + lo exactly
//   lo = lo - pl; lo = fma(-kf, C, lo)  the small terms, one rounding each
// k is kept as its low bits (the quadrant), an integer.
Reduced Reduce(float x) {
  Reduced d;
  d.a = Abs(x);
  float biased = std::fma(d.a, kTwoOverPi, kRoundMagic);
  float kf = biased - kRoundMagic;
  float r1 = std::fma(-kf, kPio2A, d.a);
  float ph, pl, l;
  TwoProduct(kf, kPio2B, &ph, &pl);
  TwoDiff(r1, ph, &d.hi, &l);
  l = l - pl;
  d.lo = std::fma(-kf, kPio2C, l);
  d.k = Bits(biased) - Bits(kRoundMagic);
  d.r = d.hi + d.lo;
  d.z = d.r * d.r;
  return d;
}

// sin(hi + lo) for |hi + lo| <= 0.96: r = hi + lo, z = r * r,
// s = Horner(z) of degree 3 fitted to (sin r - r) / r^3;
// hi + fma(r * z, s, lo): the correction is at most 0.15 of the result.
float SinPoly(const Reduced& d) {
  float s = 0x1.6e95e0p-19f;
  s = std::fma(s, d.z, -0x1.a022bep-13f);
  s = std::fma(s, d.z, 0x1.111140p-7f);
  s = std::fma(s, d.z, -0x1.555556p-3f);
  return d.hi + std::fma(d.r * d.z, s, d.lo);
}

// cos(hi + lo) = 1 - (hi + lo)^2 / 2 + z^2 c(z), c of degree 3 fitted to
// (cos r - 1 + r^2 / 2) / r^4. (hi + lo)^2 = zh + zl to 2^-48 relative
// (zl = fma(hi, hi, -zh) + 2 hi lo); 1 - zh / 2 = w + werr exactly
// (Fast2Sum, 1 >= zh / 2); the result is w + fma(z * z, c, werr - zl / 2).
float CosPoly(const Reduced& d) {
  float zh, zl;
  TwoProduct(d.hi, d.hi, &zh, &zl);
  zl = std::fma(d.hi + d.hi, d.lo, zl);
  float hz = 0.5f * zh;
  float w = 1.0f - hz;
  float werr = (1.0f - w) - hz;
  float c = -0x1.27689ep-22f;
  c = std::fma(c, d.z, 0x1.a030f4p-16f);
  c = std::fma(c, d.z, -0x1.6c1718p-10f);
  c = std::fma(c, d.z, 0x1.555556p-5f);
  return w + std::fma(d.z * d.z, c, std::fma(zl, -0.5f, werr));
}

// Odd quadrant: (k & 1) set.
bool OddQuadrant(uint32_t k) { return (k & 1u) != 0; }

// The common tail: NaN beyond kTrigLimit (and for infinities), x for NaN x.
float TrigSpecial(float x, float a, float y) {
  y = a > kTrigLimit ? kNaN : y;
  return IsNaN(x) ? x : y;
}

// sin(a + offset pi/2) xor'ed with the sign bit of `sign`, for a = |x| =
// k pi/2 + r: the quadrant q = k + offset picks sin r, cos r, -sin r or
// -cos r by q & 3, and both signs are applied as one xor of the sign bit
// ((q & 2) << 30 ^ sign).
float SinOfQuadrant(float x, uint32_t offset, uint32_t sign) {
  Reduced d = Reduce(x);
  float s = SinPoly(d);
  float c = CosPoly(d);
  uint32_t q = d.k + offset;
  float y = OddQuadrant(q) ? c : s;
  y = FromBits(Bits(y) ^ (((q << 30) ^ sign) & 0x80000000u));
  return TrigSpecial(x, d.a, y);
}

}  // namespace

// sin(x) = sign(x) sin(a).
float SinF32(float x) { return SinOfQuadrant(x, 0, Bits(x)); }

// cos(x) = cos(a) = sin(a + pi/2).
float CosF32(float x) { return SinOfQuadrant(x, 1, 0); }

// tan(x) = sign(x) tan(a): tan r for even k, -1 / tan r for odd k.
// tan r = r + r^3 t(z), t of degree 8 fitted to (tan r - r) / r^3, kept as
// th + tl (Fast2Sum: the correction is below 0.31 |hi|). The cotangent
// divides once and corrects: q0 = -1 / th; e = fma(q0, th, 1) (exact, the
// division's remainder); e = fma(q0, tl, e); -1 / (th + tl) = fma(q0, e, q0)
// to O(e^2).
float TanF32(float x) {
  Reduced d = Reduce(x);
  float z = d.z;
  float t = 0x1.0eed76p-9f;
  t = std::fma(t, z, -0x1.1526c6p-8f);
  t = std::fma(t, z, 0x1.e45af4p-8f);
  t = std::fma(t, z, -0x1.11e7c0p-11f);
  t = std::fma(t, z, 0x1.59d2dcp-7f);
  t = std::fma(t, z, 0x1.5fa170p-6f);
  t = std::fma(t, z, 0x1.ba8d24p-5f);
  t = std::fma(t, z, 0x1.110f48p-3f);
  t = std::fma(t, z, 0x1.55555ap-2f);
  float corr = std::fma(d.r * z, t, d.lo);
  float th, tl;
  Fast2Sum(d.hi, corr, &th, &tl);
  float q0 = -1.0f / th;
  float e = std::fma(q0, th, 1.0f);
  e = std::fma(q0, tl, e);
  float cot = std::fma(q0, e, q0);
  float y = OddQuadrant(d.k) ? cot : th;
  y = FromBits(Bits(y) ^ (Bits(x) & 0x80000000u));
  return TrigSpecial(x, d.a, y);
}

namespace {

// pi/2 and pi as f32 hi + lo (lo = f32 of the rest).
constexpr float kPio2Hi = 0x1.921fb6p+0f;
constexpr float kPio2Lo = -0x1.777a5cp-25f;
constexpr float kPiHi = 0x1.921fb6p+1f;
constexpr float kPiLo = -0x1.777a5cp-24f;

// atan(t + tl) - t for t in [0, 1] and |tl| <= 2^-24 t: t^3 p(t^2) + tl,
// p of degree 9 fitted to (atan t - t) / t^3; the caller adds t last.
float AtanCorrection(float t, float tl) {
  float z = t * t;
  float p = 0x1.2831e6p-10f;
  p = std::fma(p, z, -0x1.e53c4ep-8f);
  p = std::fma(p, z, 0x1.7485eap-6f);
  p = std::fma(p, z, -0x1.702962p-5f);
  p = std::fma(p, z, 0x1.14f030p-4f);
  p = std::fma(p, z, -0x1.694b02p-4f);
  p = std::fma(p, z, 0x1.c50fe4p-4f);
  p = std::fma(p, z, -0x1.247612p-3f);
  p = std::fma(p, z, 0x1.99981cp-3f);
  p = std::fma(p, z, -0x1.555552p-2f);
  return std::fma(t * z, p, tl);
}

// c_hi + c_lo - (v + corr) for |v| <= c_hi, with one rounding of the big
// part: h = c_hi - v, herr = (c_hi - h) - v exactly (Fast2Sum),
// h + ((c_lo + herr) - corr).
float SubFromConstant(float c_hi, float c_lo, float v, float corr) {
  float h = c_hi - v;
  float herr = (c_hi - h) - v;
  return h + ((c_lo + herr) - corr);
}

// The asin core on a = |x| <= 1. a <= 0.5: t = a, u = a * a, tl = 0.
// a > 0.5: asin(a) = pi/2 - 2 asin(s), s = sqrt(w), w = (1 - a) * 0.5
// (exact), and u = w exactly; s's rounding is carried as
// tl = fma(-s, s, w) / (s + s) (NaN at a = 1, where callers select the
// exact answer). Returns t and corr = asin(t + tl) - t = fma(t * u, q(u), tl),
// q of degree 5 fitted to (asin t - t) / t^3 on [0, 0.5].
float AsinCore(float a, float* t) {
  bool small = a <= 0.5f;
  float w = (1.0f - a) * 0.5f;
  float s = std::sqrt(w);
  float sl = std::fma(-s, s, w) / (s + s);
  float u = small ? a * a : w;
  *t = small ? a : s;
  float tl = small ? 0.0f : sl;
  float q = 0x1.2ffbdep-5f;
  q = std::fma(q, u, 0x1.e332d2p-7f);
  q = std::fma(q, u, 0x1.03dc4ap-5f);
  q = std::fma(q, u, 0x1.6cc62ep-5f);
  q = std::fma(q, u, 0x1.3337d2p-4f);
  q = std::fma(q, u, 0x1.55554ep-3f);
  return std::fma(*t * u, q, tl);
}

}  // namespace

// On a = |x| (sign restored at the end): a < 1: t = a, tl = 0;
// a >= 1: atan(a) = pi/2 - atan(1/a), t = 1/a with tl = fma(-t, a, 1) * t
// its rounding error. y = t + corr, or pi/2 - (t + corr) by SubFromConstant.
float AtanF32(float x) {
  float a = Abs(x);
  bool big = a >= 1.0f;
  float inv = 1.0f / a;
  float t = big ? inv : a;
  float tl = big ? std::fma(-inv, a, 1.0f) * inv : 0.0f;
  float corr = AtanCorrection(t, tl);
  float y = big ? SubFromConstant(kPio2Hi, kPio2Lo, t, corr) : t + corr;
  y = a == kInf ? kPio2Hi : y;
  return OddResult(x, y);
}

// asin(x) = sign(x) asin(a): t + corr for a <= 0.5, else
// pi/2 - 2 (s + corr) by SubFromConstant (2 s and 2 corr are exact).
float AsinF32(float x) {
  float a = Abs(x);
  float t;
  float corr = AsinCore(a, &t);
  float y = a <= 0.5f ? t + corr : SubFromConstant(kPio2Hi, kPio2Lo, t + t, corr + corr);
  y = a == 1.0f ? kPio2Hi : y;
  y = a > 1.0f ? kNaN : y;
  return OddResult(x, y);
}

// acos(x) from the asin core: |x| <= 0.5: pi/2 - asin(x) (v = x, corr with
// x's sign); x > 0.5: 2 (s + corr); x < -0.5: pi - 2 (s + corr). The two
// subtractions from a constant share one SubFromConstant.
float AcosF32(float x) {
  float a = Abs(x);
  float t;
  float corr = AsinCore(a, &t);
  bool small = a <= 0.5f;
  float c_hi = small ? kPio2Hi : kPiHi;
  float c_lo = small ? kPio2Lo : kPiLo;
  float v = small ? x : t + t;
  float c = small ? WithSign(corr, x) : corr + corr;
  float y = SubFromConstant(c_hi, c_lo, v, c);
  y = small || x < 0.0f ? y : (t + corr) * 2.0f;
  y = x == 1.0f ? 0.0f : y;
  y = x == -1.0f ? kPiHi : y;
  y = a > 1.0f ? kNaN : y;
  return IsNaN(x) ? x : y;
}

namespace {

// The NaN result of a binary function: a's if a is NaN, else b's, quieted
// (the rule of `+` in elementwise_ops.def).
float BinaryNaN(float a, float b) {
  float n = IsNaN(a) ? a : b;
  return FromBits(Bits(n) | 0x00400000u);
}

}  // namespace

// atan2(y, x) on ay = |y|, ax = |x| (y's sign restored at the end), as C's
// atan2f (C99 Annex F) for zeros and infinities:
//   infinities become 1 and finite values 0 when either is infinite (both:
//   pi/4 or 3pi/4; one: pi/2, 0 or pi), and two zeros become ax = 1, ay = 0
//   (0 or pi by x's sign bit); both below 2^-64 are scaled by 2^64 (exact),
//   so the division's remainder below is exact;
//   swap = ay >= ax; t = min / max (t <= 1) with tl = fma(-t, max, min) / max
//   its rounding error; corr = AtanCorrection(t, tl);
//   the angle is c - sgn (t + corr) with (c, sgn) = (0, -1), (pi/2, +1),
//   (pi, +1), (pi/2, -1) for (x >= 0, !swap), (x >= 0, swap), (x < 0, !swap),
//   (x < 0, swap) (x < 0: its sign bit), by SubFromConstant.
// Measured max error over 16 million random and structured pairs: see
// math_f32.h.
float Atan2F32(float y, float x) {
  float ay = Abs(y);
  float ax = Abs(x);
  bool any_inf = ax == kInf || ay == kInf;
  ax = any_inf ? (ax == kInf ? 1.0f : 0.0f) : ax;
  ay = any_inf ? (ay == kInf ? 1.0f : 0.0f) : ay;
  ax = ax == 0.0f && ay == 0.0f ? 1.0f : ax;
  bool tiny = ax < 0x1p-64f && ay < 0x1p-64f;
  ax = tiny ? ax * 0x1p64f : ax;
  ay = tiny ? ay * 0x1p64f : ay;
  bool swap = ay >= ax;
  float n = swap ? ax : ay;
  float d = swap ? ay : ax;
  float t = n / d;
  float tl = std::fma(-t, d, n) / d;
  float corr = AtanCorrection(t, tl);
  bool neg_x = (Bits(x) & 0x80000000u) != 0;
  float c_hi = neg_x ? (swap ? kPio2Hi : kPiHi) : (swap ? kPio2Hi : 0.0f);
  float c_lo = neg_x ? (swap ? kPio2Lo : kPiLo) : (swap ? kPio2Lo : 0.0f);
  uint32_t flip = neg_x != swap ? 0u : 0x80000000u;
  float r = SubFromConstant(c_hi, c_lo, FromBits(Bits(t) ^ flip), FromBits(Bits(corr) ^ flip));
  r = WithSign(r, y);
  return IsNaN(y) || IsNaN(x) ? BinaryNaN(y, x) : r;
}

// hypot(x, y) = sqrt(x^2 + y^2) without overflow or underflow on the way:
// big = max(|x|, |y|), small = the other, both scaled by s = 2^-e, e =
// big's exponent clamped to [-126, 126] (exact); bs^2 + ss^2 = S + Sl to
// about 2^-46 (each square exact as a + fma error, S = h + l by Fast2Sum);
// q + corr = SqrtWithCorrection(S, Sl), then scaled
// back by 2^e (exact, or the overflow to inf). An infinity gives +inf even
// with a NaN (C99 Annex F); else a NaN gives NaN.
float HypotF32(float x, float y) {
  float ax = Abs(x);
  float ay = Abs(y);
  float big = ax >= ay ? ax : ay;
  float small = ax >= ay ? ay : ax;
  uint32_t eb = Bits(big) & 0x7f800000u;
  float s = FromBits(0x7f000000u - eb);
  float back = FromBits(eb);
  s = big < 0x1p-126f ? 0x1p126f : s;
  back = big < 0x1p-126f ? 0x1p-126f : back;
  s = big >= 0x1p127f ? 0x1p-126f : s;
  back = big >= 0x1p127f ? 0x1p126f : back;
  float bs = big * s;
  float ss = small * s;
  float h, hl, l, ll;
  TwoProduct(bs, bs, &h, &hl);
  TwoProduct(ss, ss, &l, &ll);
  float sum, sum_lo;
  Fast2Sum(h, l, &sum, &sum_lo);
  sum_lo = sum_lo + (hl + ll);
  float corr;
  float q = SqrtWithCorrection(sum, sum_lo, &corr);
  float r = (q + corr) * back;
  r = big == 0.0f ? 0.0f : r;
  r = IsNaN(x) || IsNaN(y) ? BinaryNaN(x, y) : r;
  return ax == kInf || ay == kInf ? kInf : r;
}

#define ALEA_MATH_F32_BATCH(F)                        \
  void F(const float* in, float* out, size_t n) {     \
    for (size_t i = 0; i < n; ++i) out[i] = F(in[i]); \
  }
ALEA_MATH_F32_BATCH(SinF32)
ALEA_MATH_F32_BATCH(CosF32)
ALEA_MATH_F32_BATCH(TanF32)
ALEA_MATH_F32_BATCH(AtanF32)
ALEA_MATH_F32_BATCH(AsinF32)
ALEA_MATH_F32_BATCH(AcosF32)
#undef ALEA_MATH_F32_BATCH

}  // namespace alea::vm::kernels
