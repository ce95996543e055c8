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
#include <limits>

#include "vm/jit/codegen.h"
#include "vm/jit/math_f32_internal.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint32_t kNaNBits = 0x7fc00000u;  // std::numeric_limits<float>::quiet_NaN()

// The reference's constants (kernels/math_f32.cc), by the same names.
constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kRoundMagic = 0x1.8p+23f;
constexpr float kLn2A = 0x1.62e400p-1f;
constexpr float kLn2B = 0x1.7f7d1cp-20f;

}  // namespace

// ExpCore(x, k_offset) into dst, for x already clamped to [-104, 89].
void ExpCore(VectorEmitter& e, const Vec& dst, const Vec& x, int32_t k_offset) {
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
  // k = Bits(biased) - Bits(kRoundMagic) + k_offset; k1 = k >> 1; k2 = k - k1
  Vec k = e.NewVec();
  e.SubI32(k, biased, e.Const(Bits(kRoundMagic) - static_cast<uint32_t>(k_offset)));
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
  // large = 1 - fma(r, 0.5 * q, q)
  Vec large = e.NewVec();
  e.Mul(large, q, e.ConstF(0.5f));
  e.Fma(large, r, large, q);
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
  // a = Abs(x)
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
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
  // lmid = lf + llo; lmid_err = llo - (lmid - lf)
  Vec lmid = e.NewVec();
  e.Add(lmid, lf, llo);
  Vec lmid_err = e.NewVec();
  e.Sub(lmid_err, lmid, lf);
  e.Sub(lmid_err, llo, lmid_err);
  // lsum = lhi + lmid; lsum_err = (lmid - (lsum - lhi)) + lmid_err
  Vec lsum = e.NewVec();
  e.Add(lsum, lhi, lmid);
  Vec lsum_err = e.NewVec();
  e.Sub(lsum_err, lsum, lhi);
  e.Sub(lsum_err, lmid, lsum_err);
  e.Add(lsum_err, lsum_err, lmid_err);
  // wh = -lsum; wl = -lsum_err
  Vec wh = e.NewVec();
  e.XorBits(wh, lsum, e.Const(kSignBit));
  Vec wl = e.NewVec();
  e.XorBits(wl, lsum_err, e.Const(kSignBit));
  // s = sqrt(wh); slo = (fma(-s, s, wh) + wl) / (s + s)
  Vec s = e.NewVec();
  e.cc().vsqrtps(s, wh);
  Vec slo = e.NewVec();
  e.Fnma(slo, s, s, wh);
  e.Add(slo, slo, wl);
  Vec two_s = e.NewVec();
  e.Add(two_s, s, s);
  e.Div(slo, slo, two_s);
  // near = s < 2; u = s - (near ? 1.5 : 3)
  const Mask near = e.Compare(Cmp::kLT_OQ, s, e.ConstF(2.0f));
  Vec centre = e.ConstReg(Bits(3.0f));
  e.Select(centre, near, e.ConstF(1.5f), centre);
  Vec u = e.NewVec();
  e.Sub(u, s, centre);
  // g = near ? n0 : f0; g = fma(g, u, near ? n_i : f_i) ...
  constexpr float kNear[10] = {0x1.c55c14p-17f, -0x1.7855acp-14f, -0x1.ff34fep-16f, 0x1.337a84p-11f,
                               0x1.bbe846p-12f, -0x1.ecdf34p-9f,  -0x1.78e71ep-10f, 0x1.f84ef2p-6f,
                               -0x1.bcfb00p-5f, -0x1.1b9360p-3f};
  constexpr float kFar[10] = {-0x1.46b368p-19f, -0x1.00ae66p-16f, 0x1.007520p-14f, -0x1.76133ap-15f,
                              -0x1.d567d2p-13f, 0x1.2c4602p-10f,  -0x1.c3799ap-9f, 0x1.c07afep-8f,
                              0x1.5cf59cp-9f,   -0x1.566be8p-3f};
  Vec g = e.ConstReg(Bits(kFar[0]));
  e.Select(g, near, e.ConstF(kNear[0]), g);
  for (int i = 1; i < 10; ++i) {
    Vec coef = e.ConstReg(Bits(kFar[i]));
    e.Select(coef, near, e.ConstF(kNear[i]), coef);
    e.Fma(g, g, u, coef);
  }
  // tail = s + (g + slo)
  Vec tail = e.NewVec();
  e.Add(tail, g, slo);
  e.Add(tail, s, tail);

  // y = a <= 0.75 ? central : tail; a == 1 ? inf; a > 1 ? NaN; WithSign(y, x)
  Vec y = e.NewVec();
  e.Select(y, e.Compare(Cmp::kLE_OQ, a, e.ConstF(0.75f)), central, tail);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, a, e.ConstF(1.0f)), e.ConstF(kInf), y);
  e.Select(y, e.Compare(Cmp::kGT_OQ, a, e.ConstF(1.0f)), e.Const(kNaNBits), y);
  e.AndBits(y, y, e.Const(kAbsMask));
  Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.OrBits(y, y, sign);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace alea::vm::jit::codegen
