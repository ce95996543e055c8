// exp, log, log1p, tanh, sigmoid and erfinv as vector code (codegen.h), bitwise equal to
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
// tests/vm/slow/jit_math_exhaustive_test.cc check every bit of the results
// (log1p and erfinv, used only by the random kernels, through
// tests/vm/jit/random_jit_test.cc and tests/vm/slow/random_jit_exhaustive_test.cc).
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

// ReduceExp(x): biased = x * kLog2e + kRoundMagic; kf = biased - kRoundMagic;
// rh = fma(kf, -kLn2Hi, x).
ExpReduction ReduceExp(VectorEmitter& e, const Vec& x) {
  ExpReduction d{e.NewVec(), e.NewVec(), e.NewVec()};
  e.Mul(d.biased, x, e.ConstF(kLog2e));
  e.Add(d.biased, d.biased, e.ConstF(kRoundMagic));
  e.Sub(d.kf, d.biased, e.ConstF(kRoundMagic));
  e.Fma(d.rh, d.kf, e.ConstF(-kLn2Hi), x);
  return d;
}

// Expm1Remainder(r): q = 1/8!; q = fma(q, r, c) down to 1/2.
Vec Expm1Remainder(VectorEmitter& e, const Vec& r) {
  Vec q = e.ConstReg(Bits(0x1.a01a02p-16f));
  for (float c : {0x1.a01a02p-13f, 0x1.6c16c2p-10f, 0x1.111112p-7f, 0x1.555556p-5f, 0x1.555556p-3f,
                  0x1.0p-1f}) {
    e.Fma(q, q, r, e.ConstF(c));
  }
  return q;
}

// ExpOfReduced(d): r = fma(kf, -kLn2Lo, rh); p = 1/5040; p = fma(p, r, c)
// down to the two 1s.
Vec ExpOfReduced(VectorEmitter& e, const ExpReduction& d) {
  Vec r = e.NewVec();
  e.Fma(r, d.kf, e.ConstF(-kLn2Lo), d.rh);
  // p = 1/5040; p = fma(p, r, c) down to the two 1s.
  Vec p = e.ConstReg(Bits(0x1.a01a02p-13f));
  for (float c :
       {0x1.6c16c2p-10f, 0x1.111112p-7f, 0x1.555556p-5f, 0x1.555556p-3f, 0x1.0p-1f, 1.0f, 1.0f}) {
    e.Fma(p, p, r, e.ConstF(c));
  }
  return p;
}

// ExpCore(x, k_offset) into dst, for x already clamped to [-104, 89].
void ExpCore(VectorEmitter& e, const Vec& dst, const Vec& x, int32_t k_offset) {
  ExpReduction d = ReduceExp(e, x);
  Vec p = ExpOfReduced(e, d);
  // s1, s2 = SplitPow2(KFromBiased(biased) + k_offset); (p * s1) * s2
  Vec k = e.NewVec();
  KFromBiased(e, k, d.biased, k_offset);
  Vec s1 = e.NewVec();
  Vec s2 = e.NewVec();
  SplitPow2(e, k, s1, s2);
  e.Mul(dst, p, s1);
  e.Mul(dst, dst, s2);
}

// ExpCoreSmallK(x): p * Pow2(KFromBiased(biased)), the + 127 of Pow2 folded
// into KFromBiased's constant (the same integer).
void ExpCoreSmallK(VectorEmitter& e, const Vec& dst, const Vec& x) {
  ExpReduction d = ReduceExp(e, x);
  Vec p = ExpOfReduced(e, d);
  Vec scale = e.NewVec();
  KFromBiased(e, scale, d.biased, 127);
  e.ShiftLeftI32(scale, scale, 23);
  e.Mul(dst, p, scale);
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

// SplitLogWithSubnormals(x, &kf, &f).
void SplitLogWithSubnormals(VectorEmitter& e, const Vec& x, const Vec& kf, const Vec& f) {
  // subnormal = x < 2^-126; xs = subnormal ? x * 2^23 : x
  const Mask subnormal = e.Compare(Cmp::kLT_OQ, x, e.ConstF(0x1p-126f));
  Vec xs = e.NewVec();
  e.Mul(xs, x, e.ConstF(0x1p23f));
  e.Select(xs, subnormal, xs, x);
  Vec m = e.NewVec();
  SplitLog(e, xs, kf, m);
  // kf = subnormal ? kf - 23 : kf; f = m - 1
  Vec lowered = e.NewVec();
  e.Sub(lowered, kf, e.ConstF(23.0f));
  e.Select(kf, subnormal, lowered, kf);
  e.Sub(f, m, e.ConstF(1.0f));
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

void EmitExpF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // y = ExpCore(ClampExpArg(x)); IsNaN(x) ? x : y
  Vec y = e.NewVec();
  ExpCore(e, y, ClampExpArg(e, x));
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitLogF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // SplitLogWithSubnormals(x, &kf, &f); LogCore(f, kf, 0); y = hi + (f + lo)
  Vec kf = e.NewVec();
  Vec f = e.NewVec();
  SplitLogWithSubnormals(e, x, kf, f);
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
  Vec a = Abs(e, x);
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

  // a2 = a + a; E = ExpCoreSmallK(a2 < 40 ? a2 : 40)
  Vec a2 = e.NewVec();
  e.Add(a2, a, a);
  Vec forty = e.ConstReg(Bits(40.0f));
  e.Select(a2, e.Compare(Cmp::kLT_OQ, a2, e.ConstF(40.0f)), a2, forty);
  Vec big_e = e.NewVec();
  ExpCoreSmallK(e, big_e, a2);
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
  // large = 1 - fma(r, 0.5 * q, q)
  Vec large = e.NewVec();
  e.Mul(large, q, e.ConstF(0.5f));
  e.Fma(large, r, large, q);
  e.Sub(large, one, large);

  // y = a < 0.75 ? small : large; OddResultOfNonNegative(x, y)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLT_OQ, a, e.ConstF(0.75f)), small, large);
  OddResultOfNonNegative(e, dst, x, y);
}

void EmitSigmoidF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // E = ExpCore(ClampExpArg(-Abs(x)))
  Vec neg_abs = Negated(e, Abs(e, x));
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

void EmitLog1pF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  // u = 1 + x
  Vec u = e.NewVec();
  e.Add(u, x, e.ConstF(1.0f));
  // c = x >= 1 ? 1 - (u - x) : x - (u - 1)
  Vec one = e.ConstReg(Bits(1.0f));
  Vec c_big = e.NewVec();
  e.Sub(c_big, u, x);
  e.Sub(c_big, one, c_big);
  Vec c = e.NewVec();
  e.Sub(c, u, e.ConstF(1.0f));
  e.Sub(c, x, c);
  e.Select(c, e.Compare(Cmp::kGE_OQ, x, e.ConstF(1.0f)), c_big, c);
  // SplitLog(u, &kf, &m)
  Vec kf = e.NewVec();
  Vec m = e.NewVec();
  SplitLog(e, u, kf, m);
  // direct = x >= sqrt(1/2) - 1 && x < sqrt(2) - 1
  const Mask direct = e.And(e.Compare(Cmp::kGE_OQ, x, e.ConstF(-0x1.2bec34p-2f)),
                            e.Compare(Cmp::kLT_OQ, x, e.ConstF(0x1.a8279ap-2f)));
  // f = direct ? x : m - 1; kf = direct ? 0 : kf; extra = direct ? 0 : c / u
  Vec f = e.NewVec();
  e.Sub(f, m, e.ConstF(1.0f));
  e.Select(f, direct, x, f);
  e.Select(kf, direct, e.ConstF(0.0f), kf);
  Vec extra = e.NewVec();
  e.Div(extra, c, u);
  e.Select(extra, direct, e.ConstF(0.0f), extra);
  // LogCore(f, kf, extra); y = hi + (f + lo)
  Vec hi = e.NewVec();
  Vec lo = e.NewVec();
  LogCore(e, f, kf, extra, hi, lo);
  Vec y = e.NewVec();
  e.Add(y, f, lo);
  e.Add(y, hi, y);
  // The special cases, in the reference's order.
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(0.0f)), x, y);  // keeps -0
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(kInf)), e.ConstF(kInf), y);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(-1.0f)), e.ConstF(-kInf), y);
  e.Select(y, e.Compare(Cmp::kLT_OQ, x, e.ConstF(-1.0f)), e.Const(kNaNBits), y);
  e.Select(dst, e.IsNaN(x), x, y);
}

void EmitErfinvF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Vec a = Abs(e, x);
  // Region a <= 0.75: t = a * a; rp = Horner(t); central = fma(a, kC0, a * rp)
  Vec t = e.NewVec();
  e.Mul(t, a, a);
  Vec rp = e.ConstReg(Bits(0x1.47e358p+0f));
  for (float c : {-0x1.7bfe30p+1f, 0x1.a22a8ep+1f, -0x1.ffb9a6p+0f, 0x1.ad91cap-1f, -0x1.4da2b0p-3f,
                  0x1.5f8494p-4f, 0x1.f73184p-5f, 0x1.636520p-4f, 0x1.0538aep-3f, 0x1.db2a06p-3f,
                  -0x1.cc0b0cp-26f}) {
    e.Fma(rp, rp, t, e.ConstF(c));
  }
  Vec central = e.NewVec();
  e.Mul(central, a, rp);
  e.Fma(central, a, e.ConstF(0x1.c5bf8ap-1f), central);

  // Region 0.75 < a < 1. alo = -fma(a, a, -t); ahi = 1 - t
  Vec alo = e.NewVec();
  e.XorBits(alo, t, e.Const(kSignBit));
  e.Fma(alo, a, a, alo);
  e.XorBits(alo, alo, e.Const(kSignBit));
  Vec ahi = e.ConstReg(Bits(1.0f));
  e.Sub(ahi, ahi, t);
  // SplitLog(ahi, &kf, &m); lf = m - 1; LogCore(lf, kf, alo / ahi)
  Vec kf = e.NewVec();
  Vec m = e.NewVec();
  SplitLog(e, ahi, kf, m);
  Vec lf = e.NewVec();
  e.Sub(lf, m, e.ConstF(1.0f));
  Vec extra = e.NewVec();
  e.Div(extra, alo, ahi);
  Vec lhi = e.NewVec();
  Vec llo = e.NewVec();
  LogCore(e, lf, kf, extra, lhi, llo);
  // lmid, lmid_err = Fast2Sum(lf, llo); lsum, lsum_err = Fast2Sum(lhi, lmid);
  // lsum_err = lsum_err + lmid_err
  Vec lmid = e.NewVec();
  Vec lmid_err = e.NewVec();
  Fast2Sum(e, lmid, lmid_err, lf, llo);
  Vec lsum = e.NewVec();
  Vec lsum_err = e.NewVec();
  Fast2Sum(e, lsum, lsum_err, lhi, lmid);
  e.Add(lsum_err, lsum_err, lmid_err);
  // wh = -lsum; wl = -lsum_err
  Vec wh = e.NewVec();
  e.XorBits(wh, lsum, e.Const(kSignBit));
  Vec wl = e.NewVec();
  e.XorBits(wl, lsum_err, e.Const(kSignBit));
  // s + slo = SqrtWithCorrection(wh, wl)
  Vec s = e.NewVec();
  Vec slo = e.NewVec();
  SqrtWithCorrection(e, s, slo, wh, wl);
  // near = s < 2; u = s - (near ? 1.5 : 3)
  const Mask near = e.Compare(Cmp::kLT_OQ, s, e.ConstF(2.0f));
  Vec centre = e.ConstReg(Bits(3.0f));
  e.Select(centre, near, e.ConstF(1.5f), centre);
  Vec u = e.NewVec();
  e.Sub(u, s, centre);
  // g = HornerSelect(near, u, kErfinvTailNear, kErfinvTailFar)
  Vec g = e.NewVec();
  HornerSelect(e, g, near, u, kErfinvTailNear, kErfinvTailFar);
  // tail = s + (g + slo)
  Vec tail = e.NewVec();
  e.Add(tail, g, slo);
  e.Add(tail, s, tail);

  // y = a <= 0.75 ? central : tail; a == 1 ? inf; a > 1 ? NaN; WithSign(y, x)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLE_OQ, a, e.ConstF(0.75f)), central, tail);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, a, e.ConstF(1.0f)), e.ConstF(kInf), y);
  e.Select(y, e.Compare(Cmp::kGT_OQ, a, e.ConstF(1.0f)), e.Const(kNaNBits), y);
  OddResult(e, dst, x, y);
}

}  // namespace alea::vm::jit::codegen
