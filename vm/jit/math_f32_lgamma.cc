// lgamma as vector code (codegen.h), bitwise equal to
// kernels/math_f32_lgamma.cc on both ISA paths, by the rules of
// vm/jit/math_f32.cc: each step mirrors the reference line by line (vfmadd
// where it calls std::fma, one instruction per other operation, a compare and
// a blend per `?:`, vroundps for std::nearbyint).
#include <bit>
#include <cstdint>

#include "vm/jit/codegen.h"
#include "vm/jit/math_f32_internal.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

constexpr float kHalfLog2PiHi = 0x1.d67f1cp-1f;
constexpr float kHalfLog2PiLo = 0x1.0c97d6p-26f;
constexpr float kLogPiHi = 0x1.250d04p+0f;
constexpr float kLogPiLo = 0x1.1cf438p-25f;

// LgammaPositive(a, &lo) into dst and lo.
void LgammaPositive(VectorEmitter& e, const Vec& dst, const Vec& lo, const Vec& a) {
  Vec gh = e.NewVec();
  Vec gl = e.NewVec();
  LogParts(e, a, gh, gl);
  // a < 0.5: tiny = fma(a, s, -gl) - gh
  Vec s = e.ConstReg(Bits(0x1.c696dap-7f));
  for (float c : {-0x1.a71de8p-5f, 0x1.91a01ap-4f, -0x1.170408p-3f, 0x1.58e3c0p-3f, -0x1.a8b794p-3f,
                  0x1.151a9cp-2f, -0x1.9a4e88p-2f, 0x1.a51a70p-1f, -0x1.2788d0p-1f}) {
    e.Fma(s, s, a, e.ConstF(c));
  }
  Vec tiny = e.NewVec();
  e.XorBits(tiny, gl, e.Const(kSignBit));
  e.Fma(tiny, a, s, tiny);
  e.Sub(tiny, tiny, gh);
  // 0.5 <= a < 3
  const Mask near_one = e.Compare(Cmp::kLT_OQ, a, e.ConstF(1.5f));
  Vec am1 = e.NewVec();
  e.Sub(am1, a, e.ConstF(1.0f));
  Vec am2 = e.NewVec();
  e.Sub(am2, am1, e.ConstF(1.0f));
  Vec am2e = e.NewVec();
  e.Add(am2e, am2, e.ConstF(1.0f));
  e.Sub(am2e, am1, am2e);
  // ph, pl = MulHiLo(am1, am2, am2e)
  Vec ph = e.NewVec();
  Vec pl = e.NewVec();
  MulHiLo(e, ph, pl, am1, am2, am2e);
  Vec u = e.NewVec();
  e.Select(u, near_one, am1, am2);
  Vec r = e.NewVec();
  HornerSelect(e, r, near_one, u, kLgammaR1, kLgammaR2);
  // w = r * u; c0; mid = fma(ph, c0, fma(ph, w, pl * (c0 + w)))
  Vec w = e.NewVec();
  e.Mul(w, r, u);
  Vec c0 = e.ConstReg(Bits(0x1.b0ee60p-2f));
  e.Select(c0, near_one, e.ConstF(0x1.2788d0p-1f), c0);
  Vec mid = e.NewVec();
  e.Add(mid, c0, w);
  e.Mul(mid, pl, mid);
  e.Fma(mid, ph, w, mid);
  e.Fma(mid, ph, c0, mid);
  // a >= 3: lu = gh - 1; lue = ((gh - lu) - 1) + gl
  Vec lu = e.NewVec();
  e.Sub(lu, gh, e.ConstF(1.0f));
  Vec lue = e.NewVec();
  e.Sub(lue, gh, lu);
  e.Sub(lue, lue, e.ConstF(1.0f));
  e.Add(lue, lue, gl);
  // qh, ql = MulHiLo(a, lu, lue)
  Vec qh = e.NewVec();
  Vec ql = e.NewVec();
  MulHiLo(e, qh, ql, a, lu, lue);
  // hg = 0.5 * gh; sa, se = TwoDiff(qh, hg); sb, sbe = TwoSum(sa, C)
  Vec hg = e.NewVec();
  e.Mul(hg, gh, e.ConstF(0.5f));
  Vec sa = e.NewVec();
  Vec se = e.NewVec();
  TwoDiff(e, sa, se, qh, hg);
  Vec sb = e.NewVec();
  Vec sbe = e.NewVec();
  TwoSum(e, sb, sbe, sa, e.ConstReg(Bits(kHalfLog2PiHi)));
  // t = 1 / a; z = t * t; f = Horner(z)
  Vec t = e.ConstReg(Bits(1.0f));
  e.Div(t, t, a);
  Vec z = e.NewVec();
  e.Mul(z, t, t);
  Vec f = e.ConstReg(Bits(-0x1.6f44c2p-9f));
  for (float c :
       {0x1.80cd16p-10f, -0x1.6bc01ap-11f, 0x1.a3b258p-11f, -0x1.6c1e0ep-9f, 0x1.555556p-4f}) {
    e.Fma(f, f, z, e.ConstF(c));
  }
  // low = ((se + sbe) + fma(gl, -0.5, ql)) + fma(t, f, C_lo)
  Vec low = e.NewVec();
  e.Add(low, se, sbe);
  e.Fma(gl, gl, e.ConstF(-0.5f), ql);
  e.Add(low, low, gl);
  e.Fma(f, t, f, e.ConstF(kHalfLog2PiLo));
  e.Add(low, low, f);
  // big = sb + low; lo = a < 3 ? 0 : low - (big - sb)
  Vec big = e.NewVec();
  e.Add(big, sb, low);
  const Mask below3 = e.Compare(Cmp::kLT_OQ, a, e.ConstF(3.0f));
  Vec blo = e.NewVec();
  e.Sub(blo, big, sb);
  e.Sub(blo, low, blo);
  e.Select(lo, below3, e.ConstF(0.0f), blo);
  e.Select(big, e.Compare(Cmp::kEQ_OQ, qh, e.ConstF(kInf)), e.ConstF(kInf), big);
  // y = a < 3 ? mid : big; a < 0.5 ? tiny : y
  e.Select(dst, below3, mid, big);
  e.Select(dst, e.Compare(Cmp::kLT_OQ, a, e.ConstF(0.5f)), tiny, dst);
}

// AbsSinPi(a) into dst.
void AbsSinPi(VectorEmitter& e, const Vec& dst, const Vec& a) {
  Vec r = e.NewVec();
  e.RoundToIntegral(r, a, RoundMode::kNearestEven);
  e.Sub(r, a, r);
  Vec z = e.NewVec();
  e.Mul(z, r, r);
  Vec p = e.ConstReg(Bits(0x1.efd7d4p-4f));
  for (float c : {-0x1.b15a0cp-4f, 0x1.cef5bcp-4f, -0x1.353358p-1f, 0x1.4676d8p+1f, -0x1.4abbfap+2f,
                  0x1.921fb6p+1f}) {
    e.Fma(p, p, z, e.ConstF(c));
  }
  e.Mul(dst, r, p);
  e.AndBits(dst, dst, e.Const(kAbsMask));
}

}  // namespace

void EmitLgammaF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Vec a = Abs(e, x);
  Vec l = e.NewVec();
  Vec l_lo = e.NewVec();
  LgammaPositive(e, l, l_lo, a);
  Vec sp = e.NewVec();
  AbsSinPi(e, sp, a);
  Vec ah = e.NewVec();
  Vec al = e.NewVec();
  LogParts(e, a, ah, al);
  Vec sh = e.NewVec();
  Vec sl = e.NewVec();
  LogParts(e, sp, sh, sl);
  // s, se = TwoSum(ah, sh)
  Vec s = e.NewVec();
  Vec se = e.NewVec();
  TwoSum(e, s, se, ah, sh);
  // t, te = TwoDiff(LogPi, s); u, ue = TwoDiff(t, l)
  Vec t = e.NewVec();
  Vec te = e.NewVec();
  TwoDiff(e, t, te, e.ConstReg(Bits(kLogPiHi)), s);
  Vec u = e.NewVec();
  Vec ue = e.NewVec();
  TwoDiff(e, u, ue, t, l);
  // neg = u + ((ue + (te + LogPiLo)) - ((se + (al + sl)) + l_lo))
  e.Add(te, te, e.ConstF(kLogPiLo));
  e.Add(ue, ue, te);
  e.Add(al, al, sl);
  e.Add(se, se, al);
  e.Add(se, se, l_lo);
  e.Sub(ue, ue, se);
  Vec neg = e.NewVec();
  e.Add(neg, u, ue);
  // a < 2^-30: -LogF32(a)
  Vec la = e.NewVec();
  EmitLogF32(e, la, a);
  e.XorBits(la, la, e.Const(kSignBit));
  e.Select(neg, e.Compare(Cmp::kLT_OQ, a, e.ConstF(0x1p-30f)), la, neg);
  // y = x < 0 ? neg : l; the infinities; NaN
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, x, e.ConstF(0.0f)), neg, l);
  const Mask pole = e.Or(
      e.And(e.Compare(Cmp::kLT_OQ, x, e.ConstF(0.0f)), e.Compare(Cmp::kEQ_OQ, sp, e.ConstF(0.0f))),
      e.Or(e.Compare(Cmp::kEQ_OQ, a, e.ConstF(0.0f)), e.Compare(Cmp::kEQ_OQ, a, e.ConstF(kInf))));
  e.Select(y, pole, e.ConstF(kInf), y);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace alea::vm::jit::codegen
