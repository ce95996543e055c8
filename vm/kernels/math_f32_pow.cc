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
  float wp, wq, wh, wl;
  MulHiLo(y, gh, gl, &wp, &wq);
  Fast2Sum(wp, wq, &wh, &wl);
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
