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

constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kRoundMagic = 0x1.8p+23f;

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
  // biased = c * kLog2e + kRoundMagic; kf = biased - kRoundMagic
  Vec biased = e.NewVec();
  e.Mul(biased, c, e.ConstF(kLog2e));
  e.Add(biased, biased, e.ConstF(kRoundMagic));
  Vec kf = e.NewVec();
  e.Sub(kf, biased, e.ConstF(kRoundMagic));
  // r = fma(kf, -kLn2Hi, c); r = fma(kf, -kLn2Lo, r)
  Vec r = e.NewVec();
  e.Fma(r, kf, e.ConstF(-kLn2Hi), c);
  e.Fma(r, kf, e.ConstF(-kLn2Lo), r);
  // q = 1/8!; q = fma(q, r, c) down to 1/2; u = fma(r * r, q, r)
  Vec q = e.ConstReg(Bits(0x1.a01a02p-16f));
  for (float coef : {0x1.a01a02p-13f, 0x1.6c16c2p-10f, 0x1.111112p-7f, 0x1.555556p-5f,
                     0x1.555556p-3f, 0x1.0p-1f}) {
    e.Fma(q, q, r, e.ConstF(coef));
  }
  Vec u = e.NewVec();
  e.Mul(u, r, r);
  e.Fma(u, u, q, r);
  // k = Bits(biased) - Bits(kRoundMagic); huge = kf > 64; k2 = huge ? 64 : 0;
  // k1 = k - k2
  Vec k1 = e.NewVec();
  e.SubI32(k1, biased, e.Const(Bits(kRoundMagic)));
  const Mask huge = e.Compare(Cmp::kGT_OQ, kf, e.ConstF(64.0f));
  Vec k2 = e.ConstReg(0);
  e.Select(k2, huge, e.Const(64), k2);
  e.SubI32(k1, k1, k2);
  // s1 = (k1 + 127) << 23; s2 = (k2 + 127) << 23
  e.AddI32(k1, k1, e.Const(127));
  e.ShiftLeftI32(k1, k1, 23);
  e.AddI32(k2, k2, e.Const(127));
  e.ShiftLeftI32(k2, k2, 23);
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
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
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
  CopySign(e, y, x);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitCoshF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); z = a * a; p = Horner(z); small = fma(z, p, 1)
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
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
