// Internal to the f32 math files (math_f32*.cc): the helpers and cores they
// share (bit access, the exact hi + lo steps, exp's and log's reductions, the
// coefficient tables of the two-piece polynomials). The JIT mirrors each
// helper in vm/jit/math_f32_internal.h, operation for operation, and reads
// the constants and tables from here.
#ifndef ALEA_VM_KERNELS_MATH_F32_INTERNAL_H_
#define ALEA_VM_KERNELS_MATH_F32_INTERNAL_H_

#include <bit>
#include <cmath>
#include <cstddef>
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

// The result of an odd function computed on |x|: y with x's sign, or x
// itself for NaN x.
inline float OddResult(float x, float y) {
  y = WithSign(y, x);
  return IsNaN(x) ? x : y;
}
// OddResult for a y whose sign bit is clear: x's sign is or-ed in.
inline float OddResultOfNonNegative(float x, float y) {
  y = FromBits(Bits(y) | (Bits(x) & 0x80000000u));
  return IsNaN(x) ? x : y;
}

// a + b = s + err exactly for |a| >= |b| (Fast2Sum): err = b - (s - a).
inline void Fast2Sum(float a, float b, float* s, float* err) {
  *s = a + b;
  *err = b - (*s - a);
}

// a * b = hi + lo exactly (lo = fma(a, b, -hi), barring underflow).
inline void TwoProduct(float a, float b, float* hi, float* lo) {
  *hi = a * b;
  *lo = std::fma(a, b, -*hi);
}

// a (bh + bl) as hi + lo: a bh exactly (TwoProduct), and a bl added to the
// low part with one rounding.
inline void MulHiLo(float a, float bh, float bl, float* hi, float* lo) {
  TwoProduct(a, bh, hi, lo);
  *lo = *lo + a * bl;
}

// a + b = s + err exactly (TwoSum, any order of magnitudes):
// v = s - a; err = (a - (s - v)) + (b - v).
inline void TwoSum(float a, float b, float* s, float* err) {
  *s = a + b;
  float v = *s - a;
  *err = (a - (*s - v)) + (b - v);
}

// a - b = d + err exactly (TwoSum of a and -b, written with the subtraction):
// v = d - a; err = (a - (d - v)) - (b + v).
inline void TwoDiff(float a, float b, float* d, float* err) {
  *d = a - b;
  float v = *d - a;
  *err = (a - (*d - v)) - (b + v);
}

// sqrt(hi + lo) = s + corr to about 2^-46 relative, for hi > 0 and |lo| well
// below hi: s = sqrt(hi) and corr = (fma(-s, s, hi) + lo) / (s + s), the
// first-order correction from the exact remainder hi - s^2.
inline float SqrtWithCorrection(float hi, float lo, float* corr) {
  float s = std::sqrt(hi);
  *corr = (std::fma(-s, s, hi) + lo) / (s + s);
  return s;
}

// A polynomial in two pieces picked per value: Horner with fma on the
// coefficients of `if_first` (highest first) where `first`, else of
// `otherwise`; the selects are what a SIMD version blends.
template <size_t N>
inline float HornerSelect(bool first, float u, const float (&if_first)[N],
                          const float (&otherwise)[N]) {
  float p = first ? if_first[0] : otherwise[0];
  for (size_t i = 1; i < N; ++i) p = std::fma(p, u, first ? if_first[i] : otherwise[i]);
  return p;
}

// The coefficient tables of the HornerSelect polynomials, highest degree
// first, read by the reference functions and by their JIT versions alike.
// erfinv's tail g(u) (math_f32.cc): s < 2 (centre 1.5) and s >= 2 (centre 3).
inline constexpr float kErfinvTailNear[10] = {
    0x1.c55c14p-17f, -0x1.7855acp-14f, -0x1.ff34fep-16f, 0x1.337a84p-11f, 0x1.bbe846p-12f,
    -0x1.ecdf34p-9f, -0x1.78e71ep-10f, 0x1.f84ef2p-6f,   -0x1.bcfb00p-5f, -0x1.1b9360p-3f};
inline constexpr float kErfinvTailFar[10] = {
    -0x1.46b368p-19f, -0x1.00ae66p-16f, 0x1.007520p-14f, -0x1.76133ap-15f, -0x1.d567d2p-13f,
    0x1.2c4602p-10f,  -0x1.c3799ap-9f,  0x1.c07afep-8f,  0x1.5cf59cp-9f,   -0x1.566be8p-3f};
// erfc's G(u) on c < 2.5 (math_f32_special.cc): c < 1.25 and c >= 1.25.
inline constexpr float kErfcMidNear[9] = {-0x1.6e6132p-11f, 0x1.837996p-10f, -0x1.dfea84p-9f,
                                          0x1.2a419ap-7f,   -0x1.5b87ecp-6f, 0x1.7cfaf2p-5f,
                                          -0x1.8594d8p-4f,  0x1.6ecd02p-3f,  -0x1.3817f4p-2f};
inline constexpr float kErfcMidFar[9] = {-0x1.821ea4p-16f, 0x1.3a44eep-14f, -0x1.d539fep-13f,
                                         0x1.718562p-11f,  -0x1.18e5f8p-9f, 0x1.98a452p-8f,
                                         -0x1.1be88ap-6f,  0x1.76b086p-5f,  -0x1.d224e2p-4f};
// lgamma's r1(a - 1) on [0.5, 1.5) and r2(a - 2) on [1.5, 3]
// (math_f32_lgamma.cc).
inline constexpr float kLgammaR1[12] = {0x1.80d77ap-4f,  -0x1.62c214p-4f, 0x1.1a3aa2p-6f,
                                        -0x1.f69f5ep-6f, 0x1.dccd8ep-5f,  -0x1.f7af2cp-5f,
                                        0x1.0ebc6ap-4f,  -0x1.3bdbecp-4f, 0x1.79f58cp-4f,
                                        -0x1.d7aaa6p-4f, 0x1.3e53d8p-3f,  -0x1.f64652p-3f};
inline constexpr float kLgammaR2[12] = {0x1.7c9958p-15f,  -0x1.0d40b6p-13f, 0x1.8fbe22p-14f,
                                        -0x1.793018p-20f, 0x1.c692c8p-14f,  -0x1.bd15d4p-12f,
                                        0x1.eec752p-11f,  -0x1.142eacp-9f,  0x1.47486ep-8f,
                                        -0x1.95cd6ap-7f,  0x1.0e0d4ep-5f,   -0x1.9ae652p-4f};

// 2^k as a float, for k in [-126, 127].
inline float Pow2(int32_t k) { return FromBits(static_cast<uint32_t>(k + 127) << 23); }

// The reduction ExpCore, ExpSplit and Expm1F32 share: kf = round(x * log2e)
// (x * kLog2e rounded, then the kRoundMagic trick) and rh = fma(kf, -kLn2Hi, x),
// exact: a multiple of 2^-24 below 0.5 in magnitude. `biased` keeps k in its
// low mantissa bits (two's complement), read by KFromBiased, which also keeps a
// NaN lane free of float-to-int conversion.
struct ExpReduction {
  float biased, kf, rh;
};
inline ExpReduction ReduceExp(float x) {
  float biased = x * kLog2e + kRoundMagic;
  float kf = biased - kRoundMagic;
  return {biased, kf, std::fma(kf, -kLn2Hi, x)};
}
inline int32_t KFromBiased(float biased) {
  return static_cast<int32_t>(Bits(biased) - Bits(kRoundMagic));
}

// 2^k = s1 * s2 with s1 = 2^k1, k1 = k >> 1 (arithmetic), s2 = 2^(k - k1),
// both normal for k in [-252, 254]: for v near 1 and k in [-150, 128] the
// product v * s1 is exact, so (v * s1) * s2 has its one rounding into a
// subnormal or to inf in the second product.
inline void SplitPow2(int32_t k, float* s1, float* s2) {
  int32_t k1 = k >> 1;
  *s1 = Pow2(k1);
  *s2 = Pow2(k - k1);
}

// (e^r - 1 - r) / r^2 by its Taylor series from 1/8! down to 1/2, Horner with
// fma (truncation |r|^7 / 9!): the part of e^r that Expm1F32 and ExpSplit add
// to 1 + r.
inline float Expm1Remainder(float r) {
  float q = 0x1.a01a02p-16f;            // 1/8!
  q = std::fma(q, r, 0x1.a01a02p-13f);  // 1/7!
  q = std::fma(q, r, 0x1.6c16c2p-10f);  // 1/6!
  q = std::fma(q, r, 0x1.111112p-7f);   // 1/5!
  q = std::fma(q, r, 0x1.555556p-5f);   // 1/4!
  q = std::fma(q, r, 0x1.555556p-3f);   // 1/3!
  return std::fma(q, r, 0x1.0p-1f);     // 1/2
}

// e^x for x in [-104, 89] (callers clamp). Steps:
//   kf, rh = ReduceExp(x); r = fma(kf, -kLn2Lo, rh)   |r| <= 0.3466 + tiny
//   p  = Taylor series of e^r to degree 7 by Horner with fma, from the top:
//        p = 1/5040; p = fma(p, r, 1/720); ... 1/2; p = fma(p, r, 1); p = fma(p, r, 1)
//        (truncation r^8/8! < 0.1 ulp)
//   e^x = (p * s1) * s2 by SplitPow2(k).
// `k_offset` is added to k: ExpCore(x, -1) is e^x / 2 with the same rounding
// (sinh and cosh, whose results stay finite a little past e^x's overflow).
inline float ExpOfReduced(const ExpReduction& d) {
  float r = std::fma(d.kf, -kLn2Lo, d.rh);
  float p = 0x1.a01a02p-13f;            // 1/5040
  p = std::fma(p, r, 0x1.6c16c2p-10f);  // 1/720
  p = std::fma(p, r, 0x1.111112p-7f);   // 1/120
  p = std::fma(p, r, 0x1.555556p-5f);   // 1/24
  p = std::fma(p, r, 0x1.555556p-3f);   // 1/6
  p = std::fma(p, r, 0x1.0p-1f);        // 1/2
  p = std::fma(p, r, 1.0f);
  return std::fma(p, r, 1.0f);
}
inline float ExpCore(float x, int32_t k_offset = 0) {
  ExpReduction d = ReduceExp(x);
  float s1, s2;
  SplitPow2(KFromBiased(d.biased) + k_offset, &s1, &s2);
  return (ExpOfReduced(d) * s1) * s2;
}

// ExpCore(x) for x in [0, 40] (tanh's 2|x|): k is in [0, 58], so 2^k is one
// normal scale and p * 2^k is exact, the same bits as ExpCore's two products
// in three fewer vector operations.
inline float ExpCoreSmallK(float x) {
  ExpReduction d = ReduceExp(x);
  return ExpOfReduced(d) * Pow2(KFromBiased(d.biased));
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

// SplitLog for any positive x, subnormals included (scaled by 2^23 first,
// exactly, and k lowered by 23), giving f = m - 1 (exact, Sterbenz) for m.
inline void SplitLogWithSubnormals(float x, float* kf, float* f) {
  bool subnormal = x < 0x1p-126f;
  float xs = subnormal ? x * 0x1p23f : x;
  float m;
  SplitLog(xs, kf, &m);
  *kf = subnormal ? *kf - 23.0f : *kf;
  *f = m - 1.0f;
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
//   kf, rh = ReduceExp(x);
//   rl = fma(kf, -kLn2Lo, lo) (e^(x + lo) = 2^k e^(rh + rl), |rl| < 2^-16)
//   q = Expm1Remainder(rh)
//   c1 = fma(rh * rh, q, rl) = e^rh - 1 - rh + rl
//   corr = fma(rl, rh + c1, c1) = e^(rh + rl) - 1 - rh (the rl e^rh term)
//   eh = 1 + rh; el = ((1 - eh) + rh) + corr (Fast2Sum: |rh| < 1)
//   s1, s2 = SplitPow2(k)
inline void ExpSplit(float x, float lo, float* eh, float* el, float* s1, float* s2) {
  ExpReduction d = ReduceExp(x);
  float rh = d.rh;
  float rl = std::fma(d.kf, -kLn2Lo, lo);
  float q = Expm1Remainder(rh);
  float c1 = std::fma(rh * rh, q, rl);
  float corr = std::fma(rl, rh + c1, c1);
  float h = 1.0f + rh;
  *eh = h;
  *el = ((1.0f - h) + rh) + corr;
  SplitPow2(KFromBiased(d.biased), s1, s2);
}

inline constexpr float kTwoThirdsHi = 0x1.555556p-1f;
inline constexpr float kTwoThirdsLo = -0x1.555556p-26f;  // f32(2/3 - kTwoThirdsHi)

// log(ax) = gh + gl for positive finite ax, to about 2^-40 relative:
//   ax = 2^k (1 + f) (SplitLogWithSubnormals);
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
  float kf, f;
  SplitLogWithSubnormals(ax, &kf, &f);
  float dh = 2.0f + f;
  float dl = (2.0f - dh) + f;
  float sh = f / dh;
  float sl = std::fma(-sh, dl, std::fma(-sh, dh, f)) / dh;
  float zh, zl;
  TwoProduct(sh, sh, &zh, &zl);
  float q = 0x1.3b13b2p-3f;             // 2/13
  q = std::fma(q, zh, 0x1.745d18p-3f);  // 2/11
  q = std::fma(q, zh, 0x1.c71c72p-3f);  // 2/9
  q = std::fma(q, zh, 0x1.24924ap-2f);  // 2/7
  q = std::fma(q, zh, 0x1.99999ap-2f);  // 2/5
  float ph, pl, th, tl;
  TwoProduct(sh, zh, &ph, &pl);
  TwoProduct(ph, kTwoThirdsHi, &th, &tl);
  float small = std::fma(std::fma(sh, zl, pl), kTwoThirdsHi, tl);
  small = std::fma(ph, std::fma(zh, q, kTwoThirdsLo), small);
  small = std::fma(zh + zh, sl, small);
  float s2 = sh + sh;
  float lh, ll;
  Fast2Sum(s2, th, &lh, &ll);
  ll = ll + ((sl + sl) + small);
  float kh = kf * kLn2A;
  float kl = kf * kLn2B;
  float ge;
  TwoSum(kh, lh, gh, &ge);
  *gl = ge + (kl + ll);
}

}  // namespace alea::vm::kernels::math_internal

#endif  // ALEA_VM_KERNELS_MATH_F32_INTERNAL_H_
