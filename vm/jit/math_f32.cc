// exp, log, tanh and sigmoid as vector code (codegen.h), bitwise equal to
// kernels/math_f32.cc for every f32 input on both ISA paths. Each function
// below mirrors its reference line by line, so the two are read side by side:
// - std::fma(a, b, c) is Fma (one vfmadd, one rounding); std::fma(-a, b, c)
//   is Fnma (vfnmadd), equal bit for bit since negating a is exact;
// - every other + - * / is one instruction, in the reference's association;
//   constants sit on either side of + and * as the encoding needs, which
//   changes nothing: with one operand a non-NaN constant these commute
//   exactly, and no NaN computed inside a function reaches its result
//   (a NaN input is returned as itself by the final select; the other
//   special cases are selected constants);
// - exponent handling is integer lane arithmetic on the bits (vpsubd, vpsrad,
//   vpslld), and float -> int rounding is the reference's magic-number add,
//   never vcvtps2dq, so no conversion mode is involved;
// - each `?:` is a compare and a blend of two values computed in every lane.
// The constants must stay equal to the reference's; the property test and
// tests/vm/slow/jit_math_exhaustive_test.cc check every bit of the results.
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "vm/jit/codegen.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint32_t kNaNBits = 0x7fc00000u;  // std::numeric_limits<float>::quiet_NaN()
constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kAbsMask = 0x7fffffffu;

// The reference's constants (kernels/math_f32.cc), by the same names.
constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kRoundMagic = 0x1.8p+23f;
constexpr float kLn2A = 0x1.62e400p-1f;
constexpr float kLn2B = 0x1.7f7d1cp-20f;

uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

// ExpCore(x) into dst, for x already clamped to [-104, 89].
void ExpCore(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // biased = x * kLog2e + kRoundMagic; kf = biased - kRoundMagic
  Vec biased = e.NewVec();
  e.Mul(biased, x, e.ConstF(kLog2e));
  e.Add(biased, biased, e.ConstF(kRoundMagic));
  Vec kf = e.NewVec();
  e.Sub(kf, biased, e.ConstF(kRoundMagic));
  // r = fma(kf, -kLn2Hi, x); r = fma(kf, -kLn2Lo, r)
  Vec r = e.NewVec();
  e.Fma(r, kf, e.ConstF(-kLn2Hi), x);
  e.Fma(r, kf, e.ConstF(-kLn2Lo), r);
  // p = 1/5040; p = fma(p, r, c) down to the two 1s.
  Vec p = e.ConstReg(Bits(0x1.a01a02p-13f));
  for (float c :
       {0x1.6c16c2p-10f, 0x1.111112p-7f, 0x1.555556p-5f, 0x1.555556p-3f, 0x1.0p-1f, 1.0f, 1.0f}) {
    e.Fma(p, p, r, e.ConstF(c));
  }
  // k = Bits(biased) - Bits(kRoundMagic); k1 = k >> 1; k2 = k - k1
  Vec k = e.NewVec();
  e.SubI32(k, biased, e.Const(Bits(kRoundMagic)));
  Vec k1 = e.NewVec();
  e.ShiftRightArithmeticI32(k1, k, 1);
  Vec k2 = e.NewVec();
  e.SubI32(k2, k, k1);
  // s1 = (k1 + 127) << 23; s2 = (k2 + 127) << 23
  Vec s1 = e.NewVec();
  e.AddI32(s1, k1, e.Const(127));
  e.ShiftLeftI32(s1, s1, 23);
  Vec s2 = e.NewVec();
  e.AddI32(s2, k2, e.Const(127));
  e.ShiftLeftI32(s2, s2, 23);
  // (p * s1) * s2
  e.Mul(dst, p, s1);
  e.Mul(dst, dst, s2);
}

// ClampExpArg(x): c = x < -104 ? -104 : x; c > 89 ? 89 : c.
Vec ClampExpArg(VectorEmitter& e, const Vec& x) {
  Vec c = e.NewVec();
  e.Select(c, e.Compare(Cmp::kLT_OQ, x, e.ConstF(-104.0f)), e.ConstF(-104.0f), x);
  e.Select(c, e.Compare(Cmp::kGT_OQ, c, e.ConstF(89.0f)), e.ConstF(89.0f), c);
  return c;
}

// SplitLog(x, &kf, &m).
void SplitLog(VectorEmitter& e, const Vec& x, const Vec& kf, const Vec& m) {
  // t = Bits(x) - 0x3f3504f3; k = t >> 23
  Vec k = e.NewVec();
  e.SubI32(k, x, e.Const(0x3f3504f3u));
  e.ShiftRightArithmeticI32(k, k, 23);
  // m = Bits(x) - (k << 23); kf = float(k) (exact: |k| < 2^8)
  Vec shifted = e.NewVec();
  e.ShiftLeftI32(shifted, k, 23);
  e.SubI32(m, x, shifted);
  e.ConvertFromI32(kf, k);
}

// LogCore(f, kf, extra, &hi, &lo).
void LogCore(VectorEmitter& e, const Vec& f, const Vec& kf, const asmjit::Operand_& extra,
             const Vec& hi, const Vec& lo) {
  // s = f / (2 + f); z = s * s
  Vec s = e.NewVec();
  e.Add(s, f, e.ConstF(2.0f));
  e.Div(s, f, s);
  Vec z = e.NewVec();
  e.Mul(z, s, s);
  // q = fma(z, 2/9, 2/7); q = fma(z, q, 2/5); q = fma(z, q, 2/3); R = z * q
  Vec q = e.NewVec();
  e.Fma(q, z, e.ConstF(0x1.c71c72p-3f), e.ConstF(0x1.24924ap-2f));
  e.Fma(q, z, q, e.ConstF(0x1.99999ap-2f));
  e.Fma(q, z, q, e.ConstF(0x1.555556p-1f));
  Vec t = e.NewVec();
  e.Mul(t, z, q);
  // t = f - R
  e.Sub(t, f, t);
  // hi = kf * kLn2A; lo = fma(-s, t, fma(kf, kLn2B, extra))
  e.Mul(hi, kf, e.ConstF(kLn2A));
  Vec inner = e.NewVec();
  e.Fma(inner, kf, e.ConstF(kLn2B), extra);
  e.Fnma(lo, s, t, inner);
}

}  // namespace

void EmitExpF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // y = ExpCore(ClampExpArg(x)); IsNaN(x) ? x : y
  Vec y = e.NewVec();
  ExpCore(e, y, ClampExpArg(e, x));
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitLogF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // subnormal = x < 2^-126; xs = subnormal ? x * 2^23 : x
  const Mask subnormal = e.Compare(Cmp::kLT_OQ, x, e.ConstF(0x1p-126f));
  Vec xs = e.NewVec();
  e.Mul(xs, x, e.ConstF(0x1p23f));
  e.Select(xs, subnormal, xs, x);
  Vec kf = e.NewVec();
  Vec m = e.NewVec();
  SplitLog(e, xs, kf, m);
  // kf = subnormal ? kf - 23 : kf
  Vec lowered = e.NewVec();
  e.Sub(lowered, kf, e.ConstF(23.0f));
  e.Select(kf, subnormal, lowered, kf);
  // f = m - 1; LogCore(f, kf, 0); y = hi + (f + lo)
  Vec f = e.NewVec();
  e.Sub(f, m, e.ConstF(1.0f));
  Vec hi = e.NewVec();
  Vec lo = e.NewVec();
  LogCore(e, f, kf, e.ConstF(0.0f), hi, lo);
  Vec y = e.NewVec();
  e.Add(y, f, lo);
  e.Add(y, hi, y);
  // The special cases, in the reference's order.
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(kInf)), e.ConstF(kInf), y);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(0.0f)), e.ConstF(-kInf), y);
  e.Select(y, e.Compare(Cmp::kLT_OQ, x, e.ConstF(0.0f)), e.Const(kNaNBits), y);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitTanhF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // a = Abs(x); z = a * a
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
  Vec z = e.NewVec();
  e.Mul(z, a, a);
  // p = c0; p = fma(p, z, c) ...; small = fma(a * z, p, a)
  Vec p = e.ConstReg(Bits(0x1.59ddd4p-12f));
  for (float c : {-0x1.69db6ep-10f, 0x1.df8d1ep-9f, -0x1.248a16p-7f, 0x1.66af94p-6f,
                  -0x1.ba2416p-5f, 0x1.11113ep-3f, -0x1.555556p-2f}) {
    e.Fma(p, p, z, e.ConstF(c));
  }
  Vec small = e.NewVec();
  e.Mul(small, a, z);
  e.Fma(small, small, p, a);

  // a2 = a + a; E = ExpCore(a2 < 40 ? a2 : 40)
  Vec a2 = e.NewVec();
  e.Add(a2, a, a);
  Vec forty = e.ConstReg(Bits(40.0f));
  e.Select(a2, e.Compare(Cmp::kLT_OQ, a2, e.ConstF(40.0f)), a2, forty);
  Vec big_e = e.NewVec();
  ExpCore(e, big_e, a2);
  // d = E + 1; derr = 1 - (d - E)
  Vec d = e.NewVec();
  e.Add(d, big_e, e.ConstF(1.0f));
  Vec derr = e.NewVec();
  e.Sub(derr, d, big_e);
  Vec one = e.ConstReg(Bits(1.0f));
  e.Sub(derr, one, derr);
  // q = 2 / d; r = fma(-q, d, 2); r = fma(-q, derr, r)
  Vec q = e.ConstReg(Bits(2.0f));
  e.Div(q, q, d);
  Vec r = e.NewVec();
  e.Fnma(r, q, d, e.ConstF(2.0f));
  e.Fnma(r, q, derr, r);
  // large = 1 - (q + r / d)
  Vec large = e.NewVec();
  e.Div(large, r, d);
  e.Add(large, q, large);
  e.Sub(large, one, large);

  // y = a < 0.75 ? small : large; y = WithSign(y, x)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, a, e.ConstF(0.75f)), small, large);
  e.AndBits(y, y, e.Const(kAbsMask));
  Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.OrBits(y, y, sign);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitSigmoidF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // E = ExpCore(ClampExpArg(-Abs(x)))
  Vec neg_abs = e.NewVec();
  e.AndBits(neg_abs, x, e.Const(kAbsMask));
  e.XorBits(neg_abs, neg_abs, e.Const(kSignBit));
  Vec big_e = e.NewVec();
  ExpCore(e, big_e, ClampExpArg(e, neg_abs));
  // d = 1 + E; derr = E - (d - 1)
  Vec d = e.NewVec();
  e.Add(d, big_e, e.ConstF(1.0f));
  Vec derr = e.NewVec();
  e.Sub(derr, d, e.ConstF(1.0f));
  e.Sub(derr, big_e, derr);
  // n = x >= 0 ? 1 : E
  Vec n = e.NewVec();
  e.Select(n, e.Compare(Cmp::kGE_OQ, x, e.ConstF(0.0f)), e.ConstF(1.0f), big_e);
  // q = n / d; r = fma(-q, d, n); r = fma(-q, derr, r); y = q + r / d
  Vec q = e.NewVec();
  e.Div(q, n, d);
  Vec r = e.NewVec();
  e.Fnma(r, q, d, n);
  e.Fnma(r, q, derr, r);
  Vec y = e.NewVec();
  e.Div(y, r, d);
  e.Add(y, q, y);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace alea::vm::jit::codegen
