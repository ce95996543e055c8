// sin, cos and tan as vector code (codegen.h), bitwise equal to
// kernels/math_f32_trig.cc on both ISA paths, by the rules of
// vm/jit/math_f32.cc: each step mirrors the reference line by line (vfmadd
// where it calls std::fma, one instruction per other operation, a compare and
// a blend per `?:`; the quadrant's integer tests are done on the bits).
#include <bit>
#include <cstdint>
#include <initializer_list>

#include "vm/jit/codegen.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kAbsMask = 0x7fffffffu;
constexpr uint32_t kNaNBits = 0x7fc00000u;
constexpr float kRoundMagic = 0x1.8p+23f;
constexpr float kTrigLimit = 0x1p22f;
constexpr float kTwoOverPi = 0x1.45f306p-1f;
constexpr float kPio2A = 0x1.921fb6p+0f;
constexpr float kPio2B = -0x1.777a5cp-25f;
constexpr float kPio2C = -0x1.ee59dap-50f;

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

// What the three functions share: a = |x|, Reduce(a) into hi, lo and the
// quadrant bits k, r = hi + lo, z = r * r.
struct Reduced {
  Vec a, hi, lo, k, r, z;
};

Reduced Reduce(VectorEmitter& e, const Vec& x) {
  Reduced d{e.NewVec(), e.NewVec(), e.NewVec(), e.NewVec(), e.NewVec(), e.NewVec()};
  e.AndBits(d.a, x, e.Const(kAbsMask));
  // biased = fma(a, kTwoOverPi, kRoundMagic); kf = biased - kRoundMagic
  Vec biased = e.NewVec();
  e.Fma(biased, d.a, e.ConstF(kTwoOverPi), e.ConstF(kRoundMagic));
  Vec kf = e.NewVec();
  e.Sub(kf, biased, e.ConstF(kRoundMagic));
  // r1 = fma(-kf, A, a); ph = kf * B; pl = fma(kf, B, -ph)
  Vec r1 = e.NewVec();
  e.Fnma(r1, kf, e.ConstF(kPio2A), d.a);
  Vec ph = e.NewVec();
  e.Mul(ph, kf, e.ConstF(kPio2B));
  Vec pl = e.NewVec();
  e.XorBits(pl, ph, e.Const(kSignBit));
  e.Fma(pl, kf, e.ConstF(kPio2B), pl);
  // h = r1 - ph; v = h - r1; l = (r1 - (h - v)) - (ph + v)
  e.Sub(d.hi, r1, ph);
  Vec v = e.NewVec();
  e.Sub(v, d.hi, r1);
  Vec t = e.NewVec();
  e.Sub(t, d.hi, v);
  e.Sub(t, r1, t);
  e.Add(v, ph, v);
  e.Sub(t, t, v);
  // l = l - pl; lo = fma(-kf, C, l)
  e.Sub(t, t, pl);
  e.Fnma(d.lo, kf, e.ConstF(kPio2C), t);
  // k = Bits(biased) - Bits(kRoundMagic)
  e.SubI32(d.k, biased, e.Const(Bits(kRoundMagic)));
  // r = hi + lo; z = r * r
  e.Add(d.r, d.hi, d.lo);
  e.Mul(d.z, d.r, d.r);
  return d;
}

// SinPoly(hi, lo, r, z) into dst.
void SinPoly(VectorEmitter& e, const Vec& dst, const Reduced& d) {
  Vec s = e.ConstReg(Bits(0x1.6e95e0p-19f));
  for (float c : {-0x1.a022bep-13f, 0x1.111140p-7f, -0x1.555556p-3f}) {
    e.Fma(s, s, d.z, e.ConstF(c));
  }
  Vec rz = e.NewVec();
  e.Mul(rz, d.r, d.z);
  e.Fma(rz, rz, s, d.lo);
  e.Add(dst, d.hi, rz);
}

// CosPoly(hi, lo, z) into dst.
void CosPoly(VectorEmitter& e, const Vec& dst, const Reduced& d) {
  // zh = hi * hi; zl = fma(hi, hi, -zh); zl = fma(hi + hi, lo, zl)
  Vec zh = e.NewVec();
  e.Mul(zh, d.hi, d.hi);
  Vec zl = e.NewVec();
  e.XorBits(zl, zh, e.Const(kSignBit));
  e.Fma(zl, d.hi, d.hi, zl);
  Vec hi2 = e.NewVec();
  e.Add(hi2, d.hi, d.hi);
  e.Fma(zl, hi2, d.lo, zl);
  // hz = 0.5 * zh; w = 1 - hz; werr = (1 - w) - hz
  Vec hz = e.NewVec();
  e.Mul(hz, zh, e.ConstF(0.5f));
  Vec one = e.ConstReg(Bits(1.0f));
  Vec w = e.NewVec();
  e.Sub(w, one, hz);
  Vec werr = e.NewVec();
  e.Sub(werr, one, w);
  e.Sub(werr, werr, hz);
  // c = Horner(z)
  Vec c = e.ConstReg(Bits(-0x1.27689ep-22f));
  for (float coef : {0x1.a030f4p-16f, -0x1.6c1718p-10f, 0x1.555556p-5f}) {
    e.Fma(c, c, d.z, e.ConstF(coef));
  }
  // w + fma(z * z, c, fma(zl, -0.5, werr))
  e.Fma(werr, zl, e.ConstF(-0.5f), werr);
  Vec z2 = e.NewVec();
  e.Mul(z2, d.z, d.z);
  e.Fma(z2, z2, c, werr);
  e.Add(dst, w, z2);
}

// The mask of lanes whose k is odd: (k << 31) | 1.0f is -1.0f there.
Mask OddQuadrant(VectorEmitter& e, const Vec& k) {
  Vec t = e.NewVec();
  e.ShiftLeftI32(t, k, 31);
  e.OrBits(t, t, e.Const(Bits(1.0f)));
  return e.Compare(Cmp::kLT_OQ, t, e.ConstF(0.0f));
}

// TrigSpecial(x, a, y) into dst.
void TrigSpecial(VectorEmitter& e, const Vec& dst, const Vec& x, const Vec& a, const Vec& y) {
  e.Select(y, e.Compare(Cmp::kGT_OQ, a, e.ConstF(kTrigLimit)), e.Const(kNaNBits), y);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace

void EmitSinF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Reduced d = Reduce(e, x);
  Vec s = e.NewVec();
  SinPoly(e, s, d);
  Vec c = e.NewVec();
  CosPoly(e, c, d);
  // y = odd ? c : s; y ^= ((k << 30) ^ Bits(x)) & sign
  Vec y = e.NewVec();
  e.Select(y, OddQuadrant(e, d.k), c, s);
  Vec flip = e.NewVec();
  e.ShiftLeftI32(flip, d.k, 30);
  e.XorBits(flip, flip, x);
  e.AndBits(flip, flip, e.Const(kSignBit));
  e.XorBits(y, y, flip);
  TrigSpecial(e, dst, x, d.a, y);
}

void EmitCosF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Reduced d = Reduce(e, x);
  Vec s = e.NewVec();
  SinPoly(e, s, d);
  Vec c = e.NewVec();
  CosPoly(e, c, d);
  // y = odd ? s : c; y ^= ((k + 1) << 30) & sign
  Vec y = e.NewVec();
  e.Select(y, OddQuadrant(e, d.k), s, c);
  Vec flip = e.NewVec();
  e.AddI32(flip, d.k, e.Const(1));
  e.ShiftLeftI32(flip, flip, 30);
  e.AndBits(flip, flip, e.Const(kSignBit));
  e.XorBits(y, y, flip);
  TrigSpecial(e, dst, x, d.a, y);
}

void EmitTanF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Reduced d = Reduce(e, x);
  // t = Horner(z); corr = fma(r * z, t, lo)
  Vec t = e.ConstReg(Bits(0x1.0eed76p-9f));
  for (float c : {-0x1.1526c6p-8f, 0x1.e45af4p-8f, -0x1.11e7c0p-11f, 0x1.59d2dcp-7f, 0x1.5fa170p-6f,
                  0x1.ba8d24p-5f, 0x1.110f48p-3f, 0x1.55555ap-2f}) {
    e.Fma(t, t, d.z, e.ConstF(c));
  }
  Vec corr = e.NewVec();
  e.Mul(corr, d.r, d.z);
  e.Fma(corr, corr, t, d.lo);
  // th = hi + corr; tl = corr - (th - hi)
  Vec th = e.NewVec();
  e.Add(th, d.hi, corr);
  Vec tl = e.NewVec();
  e.Sub(tl, th, d.hi);
  e.Sub(tl, corr, tl);
  // q0 = -1 / th; e = fma(q0, th, 1); e = fma(q0, tl, e); cot = fma(q0, e, q0)
  Vec q0 = e.ConstReg(Bits(-1.0f));
  e.Div(q0, q0, th);
  Vec err = e.NewVec();
  e.Fma(err, q0, th, e.ConstF(1.0f));
  e.Fma(err, q0, tl, err);
  Vec cot = e.NewVec();
  e.Fma(cot, q0, err, q0);
  // y = odd ? cot : th; y ^= Bits(x) & sign
  Vec y = e.NewVec();
  e.Select(y, OddQuadrant(e, d.k), cot, th);
  Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.XorBits(y, y, sign);
  TrigSpecial(e, dst, x, d.a, y);
}

}  // namespace alea::vm::jit::codegen
