// Alea's f32 pow: see math_f32.h. The rules of math_f32.cc apply (selects
// between values that are all computed, std::fma exactly where the JIT's
// vm/jit/math_f32_pow.cc issues vfmadd, a fixed operation order).
//
// |x|^y = e^(y log|x|) with log|x| carried as hi + lo to about 2^-40 and
// y log|x| as an exact product plus its low part, so that the one f32
// rounding is ExpSplit's: a 2^-32 relative error in the log would already be
// 2^-25 in e^w at |w| = 128, where results overflow. The series are Taylor's
// (coefficients 2 / (2n + 1) rounded to f32), no fitting.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::kernels {
using namespace math_internal;

namespace {

constexpr float kTwoThirdsHi = 0x1.555556p-1f;
constexpr float kTwoThirdsLo = -0x1.555556p-26f;  // f32(2/3 - kTwoThirdsHi)

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
void LogParts(float ax, float* gh, float* gl) {
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

}  // namespace

// pow(x, y) as C's powf (C99 Annex F): on ax = |x|, w = y log(ax) = wp + wq
// (wp = y gh, wq = fma(y, gh, -wp) + y gl; gl holds the series' tail, up to
// 2^-13 gh), renormalised as wh + wl (Fast2Sum, |wl| <= ulp(wh) / 2); wh
// outside [-104, 89] (or NaN, when the product overflowed) is replaced by 89
// or -104 by wp's sign and wl by 0 (inf or 0 after); |x|^y = ExpSplit(wh, wl)
// rounded once (then scaled: exact, or the one rounding into a subnormal or
// to inf). Then, in order:
// zeros, infinities and |y| = inf give 0 or inf ((ax > 1) == (y > 0) gives
// inf); |x| = 1 gives 1; the sign is x's for an odd integer y (x's sign bit,
// so -0 counts); x < 0 finite with a finite non-integer y is NaN; NaN operands
// give the first NaN quieted, except that pow(x, +-0) = 1 and pow(1, y) = 1
// for any x and y.
float PowF32(float x, float y) {
  float ax = Abs(x);
  float gh, gl;
  LogParts(ax, &gh, &gl);
  float wp = y * gh;
  float wq = std::fma(y, gh, -wp) + y * gl;
  float wh = wp + wq;
  float wl = wq - (wh - wp);
  bool out = !(wh >= -104.0f && wh <= 89.0f);
  wh = out ? (wp > 0.0f ? 89.0f : -104.0f) : wh;
  wl = out ? 0.0f : wl;
  float eh, el, s1, s2;
  ExpSplit(wh, wl, &eh, &el, &s1, &s2);
  float mag = ((eh + el) * s1) * s2;
  float ay = Abs(y);
  bool edge = ax == 0.0f || ax == kInf || ay == kInf;
  mag = edge ? ((ax > 1.0f) == (y > 0.0f) ? kInf : 0.0f) : mag;
  mag = ax == 1.0f ? 1.0f : mag;
  float half = y * 0.5f;
  bool integer = std::trunc(y) == y;
  bool odd = integer && std::trunc(half) != half;
  uint32_t sign = odd ? Bits(x) & 0x80000000u : 0u;
  float r = FromBits(Bits(mag) | sign);
  r = x < 0.0f && x > -kInf && ay < kInf && !integer ? kNaN : r;
  float nan = FromBits(Bits(IsNaN(x) ? x : y) | 0x00400000u);
  r = IsNaN(x) || IsNaN(y) ? nan : r;
  r = y == 0.0f || x == 1.0f ? 1.0f : r;
  return r;
}

}  // namespace alea::vm::kernels
