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

constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kRoundMagic = 0x1.8p+23f;

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
  e.Mul(zh, c, c);
  Vec zl = e.NewVec();
  e.XorBits(zl, zh, e.Const(kSignBit));
  e.Fma(zl, c, c, zl);
  // ExpSplit(-zh, -zl)
  Vec nzh = e.NewVec();
  e.XorBits(nzh, zh, e.Const(kSignBit));
  Vec nzl = e.NewVec();
  e.XorBits(nzl, zl, e.Const(kSignBit));
  Vec eh = e.NewVec();
  Vec el = e.NewVec();
  Vec s1 = e.NewVec();
  Vec s2 = e.NewVec();
  ExpSplit(e, nzh, nzl, eh, el, s1, s2);
  // near = c < 1.25; c0, u = c - centre, ga = Horner(u) with per-lane
  // coefficients
  const Mask near = e.Compare(Cmp::kLT_OQ, c, e.ConstF(1.25f));
  constexpr float kNear[11] = {0x1.d1e254p-2f,  0x1.cf6c8cp-1f, -0x1.6e6132p-11f, 0x1.837996p-10f,
                               -0x1.dfea84p-9f, 0x1.2a419ap-7f, -0x1.5b87ecp-6f,  0x1.7cfaf2p-5f,
                               -0x1.8594d8p-4f, 0x1.6ecd02p-3f, -0x1.3817f4p-2f};
  constexpr float kFar[11] = {0x1.0e9220p-2f,   0x1.eb7ceep+0f,  -0x1.821ea4p-16f, 0x1.3a44eep-14f,
                              -0x1.d539fep-13f, 0x1.718562p-11f, -0x1.18e5f8p-9f,  0x1.98a452p-8f,
                              -0x1.1be88ap-6f,  0x1.76b086p-5f,  -0x1.d224e2p-4f};
  Vec c0 = e.ConstReg(Bits(kFar[0]));
  e.Select(c0, near, e.ConstF(kNear[0]), c0);
  Vec u = e.ConstReg(Bits(kFar[1]));
  e.Select(u, near, e.ConstF(kNear[1]), u);
  e.Sub(u, c, u);
  Vec ga = e.ConstReg(Bits(kFar[2]));
  e.Select(ga, near, e.ConstF(kNear[2]), ga);
  for (int i = 3; i < 11; ++i) {
    Vec coef = e.ConstReg(Bits(kFar[i]));
    e.Select(coef, near, e.ConstF(kNear[i]), coef);
    e.Fma(ga, ga, u, coef);
  }
  // ua = ga * u; gha = c0 + ua; gla = ua - (gha - c0)
  Vec ua = e.NewVec();
  e.Mul(ua, ga, u);
  Vec gha = e.NewVec();
  e.Add(gha, c0, ua);
  Vec gla = e.NewVec();
  e.Sub(gla, gha, c0);
  e.Sub(gla, ua, gla);
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
  // hh = h0 + th; hl = th - (hh - h0)
  Vec hh = e.NewVec();
  e.Add(hh, h, e.ConstF(0x1.20dd74p-1f));
  Vec hl = e.NewVec();
  e.Sub(hl, hh, e.ConstF(0x1.20dd74p-1f));
  e.Sub(hl, h, hl);
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
  Vec biased = e.NewVec();
  e.Mul(biased, x, e.ConstF(kLog2e));
  e.Add(biased, biased, e.ConstF(kRoundMagic));
  Vec kf = e.NewVec();
  e.Sub(kf, biased, e.ConstF(kRoundMagic));
  // rh = fma(kf, -kLn2Hi, x); rl = fma(kf, -kLn2Lo, lo)
  Vec rh = e.NewVec();
  e.Fma(rh, kf, e.ConstF(-kLn2Hi), x);
  Vec rl = e.NewVec();
  e.Fma(rl, kf, e.ConstF(-kLn2Lo), lo);
  // q = Horner(rh) from 1/8! down to 1/2
  Vec q = e.ConstReg(Bits(0x1.a01a02p-16f));
  for (float c : {0x1.a01a02p-13f, 0x1.6c16c2p-10f, 0x1.111112p-7f, 0x1.555556p-5f, 0x1.555556p-3f,
                  0x1.0p-1f}) {
    e.Fma(q, q, rh, e.ConstF(c));
  }
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
  // k = Bits(biased) - Bits(kRoundMagic); k1 = k >> 1; k2 = k - k1
  Vec k = e.NewVec();
  e.SubI32(k, biased, e.Const(Bits(kRoundMagic)));
  e.ShiftRightArithmeticI32(s1, k, 1);
  e.SubI32(s2, k, s1);
  e.AddI32(s1, s1, e.Const(127));
  e.ShiftLeftI32(s1, s1, 23);
  e.AddI32(s2, s2, e.Const(127));
  e.ShiftLeftI32(s2, s2, 23);
}

void EmitErfF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); small = ErfSmall(a); large = 1 - ErfcTail(a)
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
  Vec small = e.NewVec();
  ErfSmall(e, small, a);
  Vec large = e.NewVec();
  ErfcTail(e, large, a);
  Vec one = e.ConstReg(Bits(1.0f));
  e.Sub(large, one, large);
  // y = a < 1 ? small : large; WithSign(y, x)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, a, e.ConstF(1.0f)), small, large);
  e.AndBits(y, y, e.Const(kAbsMask));
  Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.OrBits(y, y, sign);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitErfcF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); small = ErfSmall(a); tail = ErfcTail(a)
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
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
