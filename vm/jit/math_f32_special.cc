// erf and erfc as vector code (codegen.h), bitwise equal to
// kernels/math_f32_special.cc
// on both ISA paths, by the rules of vm/jit/math_f32.cc: each step mirrors
// the reference line by line (vfmadd where it calls std::fma, one
// instruction per other operation, a compare and a blend per `?:`).
#include <bit>
#include <cstdint>
#include <initializer_list>

#include "vm/jit/codegen.h"
#include "vm/jit/math_f32_internal.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

// ErfSmall(a) into dst.
void ErfSmall(VectorEmitter& e, const Vec& dst, const Vec& a) {
  Vec z = e.NewVec();
  e.Mul(z, a, a);
  Vec r = e.ConstReg(Bits(0x1.498d64p-14f));
  for (float c : {-0x1.a4052ap-11f, 0x1.5407d8p-8f, -0x1.b7f95ap-6f, 0x1.ce2cfcp-4f,
                  -0x1.81273ep-2f, -0x1.01e068p-24f}) {
    e.Fma(r, r, z, e.ConstF(c));
  }
  e.Mul(r, a, r);
  e.Fma(dst, a, e.ConstF(0x1.20dd76p+0f), r);
}

// ErfcTail(a) into dst.
void ErfcTail(VectorEmitter& e, const Vec& dst, const Vec& a) {
  // c = a < 10.1 ? a : 10.1; zh = c * c; zl = fma(c, c, -zh)
  Vec c = e.ConstReg(Bits(10.1f));
  e.Select(c, e.Compare(Cmp::kLT_OQ, a, e.ConstF(10.1f)), a, c);
  Vec zh = e.NewVec();
  Vec zl = e.NewVec();
  TwoProduct(e, zh, zl, c, c);
  // ExpSplit(-zh, -zl)
  Vec eh = e.NewVec();
  Vec el = e.NewVec();
  Vec s1 = e.NewVec();
  Vec s2 = e.NewVec();
  Vec nzh = Negated(e, zh);
  Vec nzl = Negated(e, zl);
  ExpSplit(e, nzh, nzl, eh, el, s1, s2);
  // near = c < 1.25 picks c0 and the centre; u = c - centre;
  // ga = HornerSelect(near, u, kErfcMidNear, kErfcMidFar)
  const Mask near = e.Compare(Cmp::kLT_OQ, c, e.ConstF(1.25f));
  Vec c0 = e.ConstReg(Bits(0x1.0e9220p-2f));
  e.Select(c0, near, e.ConstF(0x1.d1e254p-2f), c0);
  Vec u = e.ConstReg(Bits(0x1.eb7ceep+0f));
  e.Select(u, near, e.ConstF(0x1.cf6c8cp-1f), u);
  e.Sub(u, c, u);
  Vec ga = e.NewVec();
  HornerSelect(e, ga, near, u, kErfcMidNear, kErfcMidFar);
  // ua = ga * u; gha, gla = Fast2Sum(c0, ua)
  Vec ua = e.NewVec();
  e.Mul(ua, ga, u);
  Vec gha = e.NewVec();
  Vec gla = e.NewVec();
  Fast2Sum(e, gha, gla, c0, ua);
  // i = 1 / c; t = i * i; h = Horner(t); th = h * t
  Vec inv = e.ConstReg(Bits(1.0f));
  e.Div(inv, inv, c);
  Vec t = e.NewVec();
  e.Mul(t, inv, inv);
  Vec h = e.ConstReg(Bits(-0x1.92754ep+4f));
  for (float coef : {0x1.69def2p+4f, -0x1.40aeecp+3f, 0x1.a0abdep+1f, -0x1.09de8ap+0f,
                     0x1.b0cc5ep-2f, -0x1.20dbd0p-2f}) {
    e.Fma(h, h, t, e.ConstF(coef));
  }
  e.Mul(h, h, t);
  // hh, hl = Fast2Sum(h0, th)
  Vec hh = e.NewVec();
  Vec hl = e.NewVec();
  Fast2Sum(e, hh, hl, e.ConstReg(Bits(0x1.20dd74p-1f)), h);
  // ghb = hh / c; glb = (fma(-ghb, c, hh) + hl) * i
  Vec ghb = e.NewVec();
  e.Div(ghb, hh, c);
  Vec glb = e.NewVec();
  e.Fnma(glb, ghb, c, hh);
  e.Add(glb, glb, hl);
  e.Mul(glb, glb, inv);
  // gh, gl = c < 2.5 ? (gha, gla) : (ghb, glb)
  const Mask mid = e.Compare(Cmp::kLT_OQ, c, e.ConstF(2.5f));
  e.Select(gha, mid, gha, ghb);
  e.Select(gla, mid, gla, glb);
  // y = fma(gh, eh, fma(gh, el, gl * eh)); (y * s1) * s2
  e.Mul(gla, gla, eh);
  e.Fma(gla, gha, el, gla);
  e.Fma(dst, gha, eh, gla);
  e.Mul(dst, dst, s1);
  e.Mul(dst, dst, s2);
}

}  // namespace

void ExpSplit(VectorEmitter& e, const Vec& x, const Vec& lo, const Vec& eh, const Vec& el,
              const Vec& s1, const Vec& s2) {
  // kf, rh = ReduceExp(x); rl = fma(kf, -kLn2Lo, lo); q = Expm1Remainder(rh)
  ExpReduction d = ReduceExp(e, x);
  const Vec& rh = d.rh;
  Vec rl = e.NewVec();
  e.Fma(rl, d.kf, e.ConstF(-kLn2Lo), lo);
  Vec q = Expm1Remainder(e, rh);
  // c1 = fma(rh * rh, q, rl); corr = fma(rl, rh + c1, c1)
  Vec c1 = e.NewVec();
  e.Mul(c1, rh, rh);
  e.Fma(c1, c1, q, rl);
  Vec corr = e.NewVec();
  e.Add(corr, rh, c1);
  e.Fma(corr, rl, corr, c1);
  // eh = 1 + rh; el = ((1 - eh) + rh) + corr
  e.Add(eh, rh, e.ConstF(1.0f));
  Vec one = e.ConstReg(Bits(1.0f));
  e.Sub(el, one, eh);
  e.Add(el, el, rh);
  e.Add(el, el, corr);
  // s1, s2 = SplitPow2(KFromBiased(biased))
  Vec k = e.NewVec();
  KFromBiased(e, k, d.biased);
  SplitPow2(e, k, s1, s2);
}

void EmitErfF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); small = ErfSmall(a); large = 1 - ErfcTail(a)
  Vec a = Abs(e, x);
  Vec small = e.NewVec();
  ErfSmall(e, small, a);
  Vec large = e.NewVec();
  ErfcTail(e, large, a);
  Vec one = e.ConstReg(Bits(1.0f));
  e.Sub(large, one, large);
  // y = a < 1 ? small : large; WithSign(y, x)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, a, e.ConstF(1.0f)), small, large);
  OddResult(e, dst, x, y);
}

void EmitErfcF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); small = ErfSmall(a); tail = ErfcTail(a)
  Vec a = Abs(e, x);
  Vec small = e.NewVec();
  ErfSmall(e, small, a);
  Vec tail = e.NewVec();
  ErfcTail(e, tail, a);
  // pos = near ? 1 - small : tail; neg = near ? 1 + small : 2 - tail
  const Mask near = e.Compare(Cmp::kLT_OQ, a, e.ConstF(0.47f));
  Vec one = e.ConstReg(Bits(1.0f));
  Vec pos = e.NewVec();
  e.Sub(pos, one, small);
  e.Select(pos, near, pos, tail);
  Vec neg = e.NewVec();
  e.Add(neg, small, e.ConstF(1.0f));
  Vec two = e.ConstReg(Bits(2.0f));
  e.Sub(two, two, tail);
  e.Select(neg, near, neg, two);
  // y = x < 0 ? neg : pos
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, x, e.ConstF(0.0f)), neg, pos);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace alea::vm::jit::codegen
