// pow as vector code (codegen.h), bitwise equal to kernels/math_f32_pow.cc
// on both ISA paths, by the rules of vm/jit/math_f32.cc: each step mirrors
// the reference line by line (vfmadd where it calls std::fma, one
// instruction per other operation, a compare and a blend per `?:`, vroundps
// for std::trunc).
#include <bit>
#include <cstdint>
#include <initializer_list>

#include "vm/jit/codegen.h"
#include "vm/jit/math_f32_internal.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

}  // namespace

void LogParts(VectorEmitter& e, const Vec& ax, const Vec& gh, const Vec& gl) {
  // SplitLogWithSubnormals(ax, &kf, &f)
  Vec kf = e.NewVec();
  Vec f = e.NewVec();
  SplitLogWithSubnormals(e, ax, kf, f);
  // dh = 2 + f; dl = (2 - dh) + f; sh = f / dh
  Vec dh = e.NewVec();
  e.Add(dh, f, e.ConstF(2.0f));
  Vec dl = e.ConstReg(Bits(2.0f));
  e.Sub(dl, dl, dh);
  e.Add(dl, dl, f);
  Vec sh = e.NewVec();
  e.Div(sh, f, dh);
  // sl = fma(-sh, dl, fma(-sh, dh, f)) / dh
  Vec sl = e.NewVec();
  e.Fnma(sl, sh, dh, f);
  e.Fnma(sl, sh, dl, sl);
  e.Div(sl, sl, dh);
  // zh, zl = TwoProduct(sh, sh)
  Vec zh = e.NewVec();
  Vec zl = e.NewVec();
  TwoProduct(e, zh, zl, sh, sh);
  // q = Horner(zh)
  Vec q = e.ConstReg(Bits(0x1.3b13b2p-3f));
  for (float c : {0x1.745d18p-3f, 0x1.c71c72p-3f, 0x1.24924ap-2f, 0x1.99999ap-2f}) {
    e.Fma(q, q, zh, e.ConstF(c));
  }
  // ph, pl = TwoProduct(sh, zh); th, tl = TwoProduct(ph, c23)
  Vec ph = e.NewVec();
  Vec pl = e.NewVec();
  TwoProduct(e, ph, pl, sh, zh);
  Vec th = e.NewVec();
  Vec tl = e.NewVec();
  TwoProduct(e, th, tl, ph, e.ConstF(kTwoThirdsHi));
  // small = fma(fma(sh, zl, pl), c23, tl)
  Vec small = e.NewVec();
  e.Fma(small, sh, zl, pl);
  e.Fma(small, small, e.ConstF(kTwoThirdsHi), tl);
  // small = fma(ph, fma(zh, q, c23lo), small)
  e.Fma(q, zh, q, e.ConstF(kTwoThirdsLo));
  e.Fma(small, ph, q, small);
  // small = fma(zh + zh, sl, small)
  Vec z2 = e.NewVec();
  e.Add(z2, zh, zh);
  e.Fma(small, z2, sl, small);
  // s2 = sh + sh; lh, ll = Fast2Sum(s2, th); ll = ll + ((sl + sl) + small)
  Vec s2 = e.NewVec();
  e.Add(s2, sh, sh);
  Vec lh = e.NewVec();
  Vec ll = e.NewVec();
  Fast2Sum(e, lh, ll, s2, th);
  Vec sl2 = e.NewVec();
  e.Add(sl2, sl, sl);
  e.Add(sl2, sl2, small);
  e.Add(ll, ll, sl2);
  // kh = kf * kLn2A; kl = kf * kLn2B
  Vec kh = e.NewVec();
  e.Mul(kh, kf, e.ConstF(kLn2A));
  Vec kl = e.NewVec();
  e.Mul(kl, kf, e.ConstF(kLn2B));
  // gh, ge = TwoSum(kh, lh)
  Vec ge = e.NewVec();
  TwoSum(e, gh, ge, kh, lh);
  // gl = ge + (kl + ll)
  e.Add(kl, kl, ll);
  e.Add(gl, ge, kl);
}

void EmitPowF32(VectorEmitter& e, const Vec& dst, const Vec& x, const Vec& y) {
  Vec ax = Abs(e, x);
  Vec gh = e.NewVec();
  Vec gl = e.NewVec();
  LogParts(e, ax, gh, gl);
  // wp, wq = MulHiLo(y, gh, gl)
  Vec wp = e.NewVec();
  Vec wq = e.NewVec();
  MulHiLo(e, wp, wq, y, gh, gl);
  // wh, wl = Fast2Sum(wp, wq)
  Vec wh = e.NewVec();
  Vec wl = e.NewVec();
  Fast2Sum(e, wh, wl, wp, wq);
  // out = !(wh >= -104 && wh <= 89); wh = out ? (wp > 0 ? 89 : -104) : wh;
  // wl = out ? 0 : wl
  const Mask in_range = e.And(e.Compare(Cmp::kGE_OQ, wh, e.ConstF(-104.0f)),
                              e.Compare(Cmp::kLE_OQ, wh, e.ConstF(89.0f)));
  Vec limit = e.ConstReg(Bits(-104.0f));
  e.Select(limit, e.Compare(Cmp::kGT_OQ, wp, e.ConstF(0.0f)), e.ConstF(89.0f), limit);
  e.Select(wh, in_range, wh, limit);
  Vec zero = e.ConstReg(0);
  e.Select(wl, in_range, wl, zero);
  // mag = ((eh + el) * s1) * s2
  Vec eh = e.NewVec();
  Vec el = e.NewVec();
  Vec s1 = e.NewVec();
  Vec s2 = e.NewVec();
  ExpSplit(e, wh, wl, eh, el, s1, s2);
  Vec mag = e.NewVec();
  e.Add(mag, eh, el);
  e.Mul(mag, mag, s1);
  e.Mul(mag, mag, s2);
  // edge = ax == 0 || ax == inf || ay == inf: (ax > 1) == (y > 0) ? inf : 0
  Vec ay = Abs(e, y);
  const Mask edge = e.Or(
      e.Or(e.Compare(Cmp::kEQ_OQ, ax, e.ConstF(0.0f)), e.Compare(Cmp::kEQ_OQ, ax, e.ConstF(kInf))),
      e.Compare(Cmp::kEQ_OQ, ay, e.ConstF(kInf)));
  // (ax > 1) == (y > 0) as a mask: the two comparisons' all-ones/zero lanes
  // (or k bits) compared by xor, on a vector of 1.0f and -1.0f.
  Vec big = e.ConstReg(Bits(-1.0f));
  e.Select(big, e.Compare(Cmp::kGT_OQ, ax, e.ConstF(1.0f)), e.ConstF(1.0f), big);
  Vec up = e.ConstReg(Bits(-1.0f));
  e.Select(up, e.Compare(Cmp::kGT_OQ, y, e.ConstF(0.0f)), e.ConstF(1.0f), up);
  Vec limit_mag = e.NewVec();
  e.Select(limit_mag, e.Compare(Cmp::kEQ_OQ, big, up), e.ConstF(kInf), zero);
  e.Select(mag, edge, limit_mag, mag);
  e.Select(mag, e.Compare(Cmp::kEQ_OQ, ax, e.ConstF(1.0f)), e.ConstF(1.0f), mag);
  // half = y * 0.5; integer = trunc(y) == y; odd = integer && trunc(half) != half
  Vec half = e.NewVec();
  e.Mul(half, y, e.ConstF(0.5f));
  Vec ty = e.NewVec();
  e.RoundToIntegral(ty, y, RoundMode::kTrunc);
  const Mask integer = e.Compare(Cmp::kEQ_OQ, ty, y);
  Vec th = e.NewVec();
  e.RoundToIntegral(th, half, RoundMode::kTrunc);
  const Mask odd = e.And(integer, e.Compare(Cmp::kNEQ_UQ, th, half));
  // sign = odd ? Bits(x) & sign : 0; r = mag | sign
  Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.Select(sign, odd, sign, zero);
  Vec r = e.NewVec();
  e.OrBits(r, mag, sign);
  // x < 0 && x > -inf && ay < inf && !integer: NaN
  const Mask negative_finite =
      e.And(e.Compare(Cmp::kLT_OQ, x, e.ConstF(0.0f)), e.Compare(Cmp::kGT_OQ, x, e.ConstF(-kInf)));
  const Mask finite_y = e.Compare(Cmp::kLT_OQ, ay, e.ConstF(kInf));
  Vec nan_r = e.ConstReg(kNaNBits);
  e.Select(nan_r, integer, r, nan_r);
  e.Select(r, e.And(negative_finite, finite_y), nan_r, r);
  // NaN operands: the first quieted
  Vec nan = e.NewVec();
  e.Select(nan, e.IsNaN(x), x, y);
  e.OrBits(nan, nan, e.Const(0x00400000u));
  e.Select(r, e.Or(e.IsNaN(x), e.IsNaN(y)), nan, r);
  // y == 0 || x == 1: 1
  e.Select(
      dst,
      e.Or(e.Compare(Cmp::kEQ_OQ, y, e.ConstF(0.0f)), e.Compare(Cmp::kEQ_OQ, x, e.ConstF(1.0f))),
      e.ConstF(1.0f), r);
}

}  // namespace alea::vm::jit::codegen
