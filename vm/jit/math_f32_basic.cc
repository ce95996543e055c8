// floor, ceil, round, trunc, sign, expm1, sinh and cosh as vector code
// (codegen.h), bitwise equal to kernels/math_f32_basic.cc on both ISA paths,
// by the rules of vm/jit/math_f32.cc: each function mirrors its reference
// line by line (vfmadd where it calls std::fma, one instruction per other
// operation, a compare and a blend per `?:`).
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

void EmitRoundToIntegralF32(VectorEmitter& e, RoundMode mode, const Vec& dst, const Vec& x) {
  Vec y = e.NewVec();
  e.RoundToIntegral(y, x, mode);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitSignF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // y = WithSign(1, x); y = x == 0 ? x : y
  Vec y = e.ConstReg(Bits(1.0f));
  CopySign(e, y, x);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(0.0f)), x, y);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitExpm1F32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // c = x < -30 ? -30 : x; c = c > 89 ? 89 : c
  Vec c = e.NewVec();
  e.Select(c, e.Compare(Cmp::kLT_OQ, x, e.ConstF(-30.0f)), e.ConstF(-30.0f), x);
  e.Select(c, e.Compare(Cmp::kGT_OQ, c, e.ConstF(89.0f)), e.ConstF(89.0f), c);
  // kf, rh = ReduceExp(c); r = fma(kf, -kLn2Lo, rh); u = fma(r * r, Expm1Remainder(r), r)
  ExpReduction d = ReduceExp(e, c);
  Vec r = e.NewVec();
  e.Fma(r, d.kf, e.ConstF(-kLn2Lo), d.rh);
  Vec q = Expm1Remainder(e, r);
  Vec u = e.NewVec();
  e.Mul(u, r, r);
  e.Fma(u, u, q, r);
  // k = KFromBiased(biased); huge = kf > 64; k2 = huge ? 64 : 0;
  // s1 = Pow2(k - k2); s2 = Pow2(k2)
  Vec k1 = e.NewVec();
  KFromBiased(e, k1, d.biased);
  const Mask huge = e.Compare(Cmp::kGT_OQ, d.kf, e.ConstF(64.0f));
  Vec k2 = e.ConstReg(0);
  e.Select(k2, huge, e.Const(64), k2);
  e.SubI32(k1, k1, k2);
  Pow2(e, k1, k1);
  Pow2(e, k2, k2);
  // y = fma(s1, u, s1 - (huge ? 0 : 1)) * s2
  Vec y = e.ConstReg(Bits(1.0f));
  e.Select(y, huge, e.ConstF(0.0f), y);
  e.Sub(y, k1, y);
  e.Fma(y, k1, u, y);
  e.Mul(y, y, k2);
  // y = x == 0 ? x : y
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(0.0f)), x, y);
  e.Select(dst, e.IsNaN(x), x, y);
}

namespace {

// h = ExpCore(a < 90 ? a : 90, -1), the large-|x| half of sinh and cosh.
Vec HalfExp(VectorEmitter& e, const Vec& a) {
  Vec c = e.ConstReg(Bits(90.0f));
  e.Select(c, e.Compare(Cmp::kLT_OQ, a, e.ConstF(90.0f)), a, c);
  Vec h = e.NewVec();
  ExpCore(e, h, c, -1);
  return h;
}

}  // namespace

void EmitSinhF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); z = a * a; p = Horner(z); small = fma(a * z, p, a)
  Vec a = Abs(e, x);
  Vec z = e.NewVec();
  e.Mul(z, a, a);
  Vec p = e.ConstReg(Bits(0x1.612462p-33f));
  for (float coef :
       {0x1.ae6456p-26f, 0x1.71de3ap-19f, 0x1.a01a02p-13f, 0x1.111112p-7f, 0x1.555556p-3f}) {
    e.Fma(p, p, z, e.ConstF(coef));
  }
  Vec small = e.NewVec();
  e.Mul(small, a, z);
  e.Fma(small, small, p, a);
  // large = h - 0.25 / h
  Vec h = HalfExp(e, a);
  Vec large = e.ConstReg(Bits(0.25f));
  e.Div(large, large, h);
  e.Sub(large, h, large);
  // y = a < 1 ? small : large; WithSign(y, x)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, a, e.ConstF(1.0f)), small, large);
  OddResult(e, dst, x, y);
}

void EmitCoshF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); z = a * a; p = Horner(z); small = fma(z, p, 1)
  Vec a = Abs(e, x);
  Vec z = e.NewVec();
  e.Mul(z, a, a);
  Vec p = e.ConstReg(Bits(0x1.1eed8ep-29f));
  for (float coef :
       {0x1.27e4fcp-22f, 0x1.a01a02p-16f, 0x1.6c16c2p-10f, 0x1.555556p-5f, 0x1.0p-1f}) {
    e.Fma(p, p, z, e.ConstF(coef));
  }
  Vec small = e.NewVec();
  e.Fma(small, z, p, e.ConstF(1.0f));
  // large = h + 0.25 / h
  Vec h = HalfExp(e, a);
  Vec large = e.ConstReg(Bits(0.25f));
  e.Div(large, large, h);
  e.Add(large, h, large);
  // y = a < 1 ? small : large
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, a, e.ConstF(1.0f)), small, large);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace alea::vm::jit::codegen
