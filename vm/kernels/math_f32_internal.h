// Internal to the f32 math files (math_f32*.cc): the helpers and cores they
// share (exp's and log's reductions, bit access). The JIT mirrors each core in
// vm/jit/math_f32_internal.h, operation for operation.
#ifndef ALEA_VM_KERNELS_MATH_F32_INTERNAL_H_
#define ALEA_VM_KERNELS_MATH_F32_INTERNAL_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace alea::vm::kernels::math_internal {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ln 2 split for reduction: kLn2Hi = f32(ln 2) (its low 3 bits are zero),
// kLn2Lo = f32(ln 2 - kLn2Hi).
constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
constexpr float kLog2e = 0x1.715476p+0f;
// Adding then subtracting 1.5 * 2^23 rounds a float of magnitude < 2^22 to the
// nearest integer (ties to even), the same as a SIMD round-to-nearest.
constexpr float kRoundMagic = 0x1.8p+23f;

inline uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }
inline float FromBits(uint32_t b) { return std::bit_cast<float>(b); }
inline float Abs(float x) { return FromBits(Bits(x) & 0x7fffffffu); }
// |magnitude| with the sign bit of `sign`.
inline float WithSign(float magnitude, float sign) {
  return FromBits((Bits(magnitude) & 0x7fffffffu) | (Bits(sign) & 0x80000000u));
}
inline bool IsNaN(float x) { return x != x; }

// e^x for x in [-104, 89] (callers clamp). Steps:
//   kf = round(x * log2e)           (x * kLog2e rounded, then kRoundMagic trick)
//   r  = fma(kf, -kLn2Hi, x)        exact: the result is a multiple of 2^-24
//                                   below 0.5 in magnitude
//   r  = fma(kf, -kLn2Lo, r)        |r| <= 0.3466 + tiny
//   p  = Taylor series of e^r to degree 7 by Horner with fma, from the top:
//        p = 1/5040; p = fma(p, r, 1/720); ... 1/2; p = fma(p, r, 1); p = fma(p, r, 1)
//        (truncation r^8/8! < 0.1 ulp)
//   e^x = (p * 2^k1) * 2^k2 with k1 = k >> 1 (arithmetic), k2 = k - k1: the
//   first product is exact, so the one rounding into a subnormal or to inf
//   happens in the second.
// `k_offset` is added to k: ExpCore(x, -1) is e^x / 2 with the same rounding
// (sinh and cosh, whose results stay finite a little past e^x's overflow).
inline float ExpCore(float x, int32_t k_offset = 0) {
  float biased = x * kLog2e + kRoundMagic;
  float kf = biased - kRoundMagic;
  float r = std::fma(kf, -kLn2Hi, x);
  r = std::fma(kf, -kLn2Lo, r);
  float p = 0x1.a01a02p-13f;            // 1/5040
  p = std::fma(p, r, 0x1.6c16c2p-10f);  // 1/720
  p = std::fma(p, r, 0x1.111112p-7f);   // 1/120
  p = std::fma(p, r, 0x1.555556p-5f);   // 1/24
  p = std::fma(p, r, 0x1.555556p-3f);   // 1/6
  p = std::fma(p, r, 0x1.0p-1f);        // 1/2
  p = std::fma(p, r, 1.0f);
  p = std::fma(p, r, 1.0f);
  // k read from the bits of `biased` (its low mantissa bits hold k in two's
  // complement), which also keeps a NaN lane free of float-to-int conversion.
  int32_t k = static_cast<int32_t>(Bits(biased) - Bits(kRoundMagic)) + k_offset;
  int32_t k1 = k >> 1;
  int32_t k2 = k - k1;
  float s1 = FromBits(static_cast<uint32_t>(k1 + 127) << 23);
  float s2 = FromBits(static_cast<uint32_t>(k2 + 127) << 23);
  return (p * s1) * s2;
}

// Clamps to [-104, 89]: e^-104 rounds to 0 and e^89 overflows, and the clamp
// keeps k within [-150, 128] so both scale factors stay normal. NaN passes
// through the clamp (comparisons are false) and is restored by callers.
inline float ClampExpArg(float x) {
  float c = x < -104.0f ? -104.0f : x;
  return c > 89.0f ? 89.0f : c;
}

// Splits positive normal x as 2^k * m with m in [sqrt(1/2), sqrt(2)):
// subtracting the bits of f32(sqrt(1/2)) makes the exponent field floor(log2 x)
// rounded at sqrt(2) boundaries.
inline void SplitLog(float x, float* kf, float* m) {
  int32_t t = static_cast<int32_t>(Bits(x) - 0x3f3504f3u);
  int32_t k = t >> 23;
  *m = FromBits(Bits(x) - (static_cast<uint32_t>(k) << 23));
  *kf = static_cast<float>(k);
}

// log(1 + f) + kf * ln2 + extra = hi + (f + lo), for f in
// [sqrt(1/2) - 1, sqrt(2) - 1] and |extra| tiny. With s = f / (2 + f),
// log(1 + f) = 2 atanh(s) = f - s * (f - R), R = 2s^2/3 + 2s^4/5 + 2s^6/7 +
// 2s^8/9 (|s| <= 0.1716, truncation < 0.01 ulp). ln 2 = kLn2A + kLn2B with
// kLn2A of 15 significant bits, so hi = kf * kLn2A is exact for |k| <= 255 and
// the only rounding of the big part is the caller's final hi + (f + lo).
// Order:
//   s = f / (2 + f); z = s * s
//   q = fma(z, 2/9, 2/7); q = fma(z, q, 2/5); q = fma(z, q, 2/3); R = z * q
//   t = f - R
//   hi = kf * kLn2A
//   lo = fma(-s, t, fma(kf, kLn2B, extra))
constexpr float kLn2A = 0x1.62e400p-1f;
constexpr float kLn2B = 0x1.7f7d1cp-20f;  // f32(ln 2 - kLn2A)

inline void LogCore(float f, float kf, float extra, float* hi, float* lo) {
  float s = f / (2.0f + f);
  float z = s * s;
  float q = std::fma(z, 0x1.c71c72p-3f, 0x1.24924ap-2f);
  q = std::fma(z, q, 0x1.99999ap-2f);
  q = std::fma(z, q, 0x1.555556p-1f);
  float big_r = z * q;
  float t = f - big_r;
  *hi = kf * kLn2A;
  *lo = std::fma(-s, t, std::fma(kf, kLn2B, extra));
}

// e^(x + lo) = (eh + el) * s1 * s2 (s1 = 2^k1, s2 = 2^k2) for x in
// [-104, 89] and |lo| <= 2^-17, to about 2^-29 relative: ExpCore's reduction
// without rounding r, and e^r - 1 - rh carried beside 1 + rh:
//   kf = round(x log2e); rh = fma(kf, -kLn2Hi, x) (exact);
//   rl = fma(kf, -kLn2Lo, lo) (e^(x + lo) = 2^k e^(rh + rl), |rl| < 2^-16)
//   q = Taylor of (e^r - 1 - r) / r^2 from 1/8! down to 1/2 (Horner, fma;
//       truncation |r|^7 / 9! < 2^-30)
//   c1 = fma(rh * rh, q, rl) = e^rh - 1 - rh + rl
//   corr = fma(rl, rh + c1, c1) = e^(rh + rl) - 1 - rh (the rl e^rh term)
//   eh = 1 + rh; el = ((1 - eh) + rh) + corr (Fast2Sum: |rh| < 1)
inline void ExpSplit(float x, float lo, float* eh, float* el, float* s1, float* s2) {
  float biased = x * kLog2e + kRoundMagic;
  float kf = biased - kRoundMagic;
  float rh = std::fma(kf, -kLn2Hi, x);
  float rl = std::fma(kf, -kLn2Lo, lo);
  float q = 0x1.a01a02p-16f;             // 1/8!
  q = std::fma(q, rh, 0x1.a01a02p-13f);  // 1/7!
  q = std::fma(q, rh, 0x1.6c16c2p-10f);  // 1/6!
  q = std::fma(q, rh, 0x1.111112p-7f);   // 1/5!
  q = std::fma(q, rh, 0x1.555556p-5f);   // 1/4!
  q = std::fma(q, rh, 0x1.555556p-3f);   // 1/3!
  q = std::fma(q, rh, 0x1.0p-1f);        // 1/2
  float c1 = std::fma(rh * rh, q, rl);
  float corr = std::fma(rl, rh + c1, c1);
  float h = 1.0f + rh;
  *eh = h;
  *el = ((1.0f - h) + rh) + corr;
  int32_t k = static_cast<int32_t>(Bits(biased) - Bits(kRoundMagic));
  int32_t k1 = k >> 1;
  int32_t k2 = k - k1;
  *s1 = FromBits(static_cast<uint32_t>(k1 + 127) << 23);
  *s2 = FromBits(static_cast<uint32_t>(k2 + 127) << 23);
}

inline constexpr float kTwoThirdsHi = 0x1.555556p-1f;
inline constexpr float kTwoThirdsLo = -0x1.555556p-26f;  // f32(2/3 - kTwoThirdsHi)

// log(ax) = gh + gl for positive finite ax, to about 2^-40 relative:
//   ax = 2^k m (SplitLog, subnormals scaled by 2^23 first), f = m - 1 exact;
//   log m = 2 atanh s = 2 s + s z Q(z), s = f / (2 + f) in [-0.172, 0.172],
//   z = s^2, Q = 2/3 + z q(z), q = Taylor 2/5 + 2z/7 + ... + 2z^4/13
//   (truncation z^6 / 15 relative, 2^-39);
//   2 + f = dh + dl (Fast2Sum); s = sh + sl with sh = f / dh and
//   sl = fma(-sh, dl, fma(-sh, dh, f)) / dh (the division's exact remainder);
//   sh^2 = zh + zl, sh zh = ph + pl and ph 2/3 = th + tl exactly (fma);
//   s z Q = th + small, small = tl + (pl + sh zl) 2/3 + ph (c23lo + zh q)
//   + 2 zh sl (the first order of sl in s^3 Q);
//   log m = lh + ll: lh = 2 sh + th (Fast2Sum), ll = its error + (2 sl + small);
//   k ln 2 = kh + kl (kh = k kLn2A exact); gh + gl = kh + lh by TwoSum, plus
//   kl + ll.
inline void LogParts(float ax, float* gh, float* gl) {
  bool subnormal = ax < 0x1p-126f;
  float xs = subnormal ? ax * 0x1p23f : ax;
  float kf, m;
  SplitLog(xs, &kf, &m);
  kf = subnormal ? kf - 23.0f : kf;
  float f = m - 1.0f;
  float dh = 2.0f + f;
  float dl = (2.0f - dh) + f;
  float sh = f / dh;
  float sl = std::fma(-sh, dl, std::fma(-sh, dh, f)) / dh;
  float zh = sh * sh;
  float zl = std::fma(sh, sh, -zh);
  float q = 0x1.3b13b2p-3f;             // 2/13
  q = std::fma(q, zh, 0x1.745d18p-3f);  // 2/11
  q = std::fma(q, zh, 0x1.c71c72p-3f);  // 2/9
  q = std::fma(q, zh, 0x1.24924ap-2f);  // 2/7
  q = std::fma(q, zh, 0x1.99999ap-2f);  // 2/5
  float ph = sh * zh;
  float pl = std::fma(sh, zh, -ph);
  float th = ph * kTwoThirdsHi;
  float tl = std::fma(ph, kTwoThirdsHi, -th);
  float small = std::fma(std::fma(sh, zl, pl), kTwoThirdsHi, tl);
  small = std::fma(ph, std::fma(zh, q, kTwoThirdsLo), small);
  small = std::fma(zh + zh, sl, small);
  float s2 = sh + sh;
  float lh = s2 + th;
  float ll = (th - (lh - s2)) + ((sl + sl) + small);
  float kh = kf * kLn2A;
  float kl = kf * kLn2B;
  float g = kh + lh;
  float v = g - kh;
  float ge = (kh - (g - v)) + (lh - v);
  *gh = g;
  *gl = ge + (kl + ll);
}

}  // namespace alea::vm::kernels::math_internal

#endif  // ALEA_VM_KERNELS_MATH_F32_INTERNAL_H_
