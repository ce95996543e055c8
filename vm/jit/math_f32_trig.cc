// sin, cos, tan, atan, asin, acos, atan2 and hypot as vector code (codegen.h), bitwise equal to
// kernels/math_f32_trig.cc on both ISA paths, by the rules of
// vm/jit/math_f32.cc: each step mirrors the reference line by line (vfmadd
// where it calls std::fma, one instruction per other operation, a compare and
// a blend per `?:`; the quadrant's integer tests are done on the bits).
#include <bit>
#include <cstdint>
#include <initializer_list>

#include "vm/jit/codegen.h"
#include "vm/jit/math_f32_internal.h"

namespace alea::vm::jit::codegen {
namespace {

using Vec = x86::Vec;
using Cmp = x86::VCmpImm;

constexpr float kTrigLimit = 0x1p22f;
constexpr float kTwoOverPi = 0x1.45f306p-1f;
constexpr float kPio2A = 0x1.921fb6p+0f;
constexpr float kPio2B = -0x1.777a5cp-25f;
constexpr float kPio2C = -0x1.ee59dap-50f;
constexpr float kPio2Hi = 0x1.921fb6p+0f;
constexpr float kPio2Lo = -0x1.777a5cp-25f;
constexpr float kPiHi = 0x1.921fb6p+1f;
constexpr float kPiLo = -0x1.777a5cp-24f;

// What the three functions share: a = |x|, Reduce(a) into hi, lo and the
// quadrant bits k, r = hi + lo, z = r * r.
struct Reduced {
  Vec a, hi, lo, k, r, z;
};

Reduced Reduce(VectorEmitter& e, const Vec& x) {
  Reduced d{Abs(e, x), e.NewVec(), e.NewVec(), e.NewVec(), e.NewVec(), e.NewVec()};
  // biased = fma(a, kTwoOverPi, kRoundMagic); kf = biased - kRoundMagic
  Vec biased = e.NewVec();
  e.Fma(biased, d.a, e.ConstF(kTwoOverPi), e.ConstF(kRoundMagic));
  Vec kf = e.NewVec();
  e.Sub(kf, biased, e.ConstF(kRoundMagic));
  // r1 = fma(-kf, A, a); ph, pl = TwoProduct(kf, B)
  Vec r1 = e.NewVec();
  e.Fnma(r1, kf, e.ConstF(kPio2A), d.a);
  Vec ph = e.NewVec();
  Vec pl = e.NewVec();
  TwoProduct(e, ph, pl, kf, e.ConstF(kPio2B));
  // hi, l = TwoDiff(r1, ph)
  Vec t = e.NewVec();
  TwoDiff(e, d.hi, t, r1, ph);
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
  // zh, zl = TwoProduct(hi, hi); zl = fma(hi + hi, lo, zl)
  Vec zh = e.NewVec();
  Vec zl = e.NewVec();
  TwoProduct(e, zh, zl, d.hi, d.hi);
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

// SinOfQuadrant(x, offset, sign) into dst, with sign = Bits(x) where
// x_sign, else 0 (whose xor is left out).
void SinOfQuadrant(VectorEmitter& e, const Vec& dst, const Vec& x, int32_t offset, bool x_sign) {
  Reduced d = Reduce(e, x);
  Vec s = e.NewVec();
  SinPoly(e, s, d);
  Vec c = e.NewVec();
  CosPoly(e, c, d);
  // q = k + offset; y = odd(q) ? c : s; y ^= ((q << 30) ^ sign) & sign bit
  Vec q = d.k;
  if (offset != 0) {
    q = e.NewVec();
    e.AddI32(q, d.k, e.Const(static_cast<uint32_t>(offset)));
  }
  Vec y = e.NewVec();
  e.Select(y, OddQuadrant(e, q), c, s);
  Vec flip = e.NewVec();
  e.ShiftLeftI32(flip, q, 30);
  if (x_sign) e.XorBits(flip, flip, x);
  e.AndBits(flip, flip, e.Const(kSignBit));
  e.XorBits(y, y, flip);
  TrigSpecial(e, dst, x, d.a, y);
}

}  // namespace

void EmitSinF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  SinOfQuadrant(e, dst, x, 0, /*x_sign=*/true);
}

void EmitCosF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  SinOfQuadrant(e, dst, x, 1, /*x_sign=*/false);
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
  // th, tl = Fast2Sum(hi, corr)
  Vec th = e.NewVec();
  Vec tl = e.NewVec();
  Fast2Sum(e, th, tl, d.hi, corr);
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

namespace {

// AtanCorrection(t, tl) into dst.
void AtanCorrection(VectorEmitter& e, const Vec& dst, const Vec& t, const Vec& tl) {
  Vec z = e.NewVec();
  e.Mul(z, t, t);
  Vec p = e.ConstReg(Bits(0x1.2831e6p-10f));
  for (float c : {-0x1.e53c4ep-8f, 0x1.7485eap-6f, -0x1.702962p-5f, 0x1.14f030p-4f, -0x1.694b02p-4f,
                  0x1.c50fe4p-4f, -0x1.247612p-3f, 0x1.99981cp-3f, -0x1.555552p-2f}) {
    e.Fma(p, p, z, e.ConstF(c));
  }
  e.Mul(dst, t, z);
  e.Fma(dst, dst, p, tl);
}

// SubFromConstant(c_hi, c_lo, v, corr) into dst; c_hi and c_lo are
// registers or Const()s.
void SubFromConstant(VectorEmitter& e, const Vec& dst, const asmjit::Operand_& c_hi,
                     const asmjit::Operand_& c_lo, const Vec& v, const Vec& corr) {
  Vec hi = e.NewVec();
  e.Copy(hi, c_hi);
  // h = c_hi - v; herr = (c_hi - h) - v
  Vec h = e.NewVec();
  e.Sub(h, hi, v);
  Vec herr = e.NewVec();
  e.Sub(herr, hi, h);
  e.Sub(herr, herr, v);
  // h + ((c_lo + herr) - corr)
  e.Add(herr, herr, c_lo);
  e.Sub(herr, herr, corr);
  e.Add(dst, h, herr);
}

// AsinCore(a, &t) into corr and t.
void AsinCore(VectorEmitter& e, const Vec& corr, const Vec& t, const Vec& a) {
  const Mask small = e.Compare(Cmp::kLE_OQ, a, e.ConstF(0.5f));
  // w = (1 - a) * 0.5; s = sqrt(w); sl = fma(-s, s, w) / (s + s)
  Vec w = e.ConstReg(Bits(1.0f));
  e.Sub(w, w, a);
  e.Mul(w, w, e.ConstF(0.5f));
  Vec s = e.NewVec();
  e.cc().vsqrtps(s, w);
  Vec sl = e.NewVec();
  e.Fnma(sl, s, s, w);
  Vec s2 = e.NewVec();
  e.Add(s2, s, s);
  e.Div(sl, sl, s2);
  // u = small ? a * a : w; t = small ? a : s; tl = small ? 0 : sl
  Vec u = e.NewVec();
  e.Mul(u, a, a);
  e.Select(u, small, u, w);
  e.Select(t, small, a, s);
  e.Select(sl, small, e.ConstF(0.0f), sl);
  // q = Horner(u); corr = fma(t * u, q, tl)
  Vec q = e.ConstReg(Bits(0x1.2ffbdep-5f));
  for (float c : {0x1.e332d2p-7f, 0x1.03dc4ap-5f, 0x1.6cc62ep-5f, 0x1.3337d2p-4f, 0x1.55554ep-3f}) {
    e.Fma(q, q, u, e.ConstF(c));
  }
  e.Mul(corr, t, u);
  e.Fma(corr, corr, q, sl);
}

}  // namespace

void EmitAtanF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Vec a = Abs(e, x);
  const Mask big = e.Compare(Cmp::kGE_OQ, a, e.ConstF(1.0f));
  // inv = 1 / a; t = big ? inv : a; tl = big ? fma(-inv, a, 1) * inv : 0
  Vec inv = e.ConstReg(Bits(1.0f));
  e.Div(inv, inv, a);
  Vec t = e.NewVec();
  e.Select(t, big, inv, a);
  Vec tl = e.NewVec();
  e.Fnma(tl, inv, a, e.ConstF(1.0f));
  e.Mul(tl, tl, inv);
  Vec zero = e.ConstReg(0);
  e.Select(tl, big, tl, zero);
  Vec corr = e.NewVec();
  AtanCorrection(e, corr, t, tl);
  // y = big ? SubFromConstant(pi/2, t, corr) : t + corr
  Vec far = e.NewVec();
  SubFromConstant(e, far, e.ConstF(kPio2Hi), e.ConstF(kPio2Lo), t, corr);
  Vec y = e.NewVec();
  e.Add(y, t, corr);
  e.Select(y, big, far, y);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, a, e.ConstF(kInf)), e.ConstF(kPio2Hi), y);
  OddResult(e, dst, x, y);
}

void EmitAsinF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Vec a = Abs(e, x);
  Vec t = e.NewVec();
  Vec corr = e.NewVec();
  AsinCore(e, corr, t, a);
  // y = a <= 0.5 ? t + corr : SubFromConstant(pi/2, t + t, corr + corr)
  Vec t2 = e.NewVec();
  e.Add(t2, t, t);
  Vec c2 = e.NewVec();
  e.Add(c2, corr, corr);
  Vec far = e.NewVec();
  SubFromConstant(e, far, e.ConstF(kPio2Hi), e.ConstF(kPio2Lo), t2, c2);
  Vec y = e.NewVec();
  e.Add(y, t, corr);
  e.Select(y, e.Compare(Cmp::kLE_OQ, a, e.ConstF(0.5f)), y, far);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, a, e.ConstF(1.0f)), e.ConstF(kPio2Hi), y);
  e.Select(y, e.Compare(Cmp::kGT_OQ, a, e.ConstF(1.0f)), e.Const(kNaNBits), y);
  OddResult(e, dst, x, y);
}

void EmitAcosF32(VectorEmitter& e, const Vec& dst, const Vec& x) {
  Vec a = Abs(e, x);
  Vec t = e.NewVec();
  Vec corr = e.NewVec();
  AsinCore(e, corr, t, a);
  const Mask small = e.Compare(Cmp::kLE_OQ, a, e.ConstF(0.5f));
  // c_hi, c_lo = small ? pi/2 : pi; v = small ? x : t + t;
  // c = small ? WithSign(corr, x) : corr + corr
  Vec c_hi = e.ConstReg(Bits(kPiHi));
  e.Select(c_hi, small, e.ConstF(kPio2Hi), c_hi);
  Vec c_lo = e.ConstReg(Bits(kPiLo));
  e.Select(c_lo, small, e.ConstF(kPio2Lo), c_lo);
  Vec v = e.NewVec();
  e.Add(v, t, t);
  e.Select(v, small, x, v);
  Vec signed_corr = e.NewVec();
  e.Copy(signed_corr, corr);
  CopySign(e, signed_corr, x);
  Vec c = e.NewVec();
  e.Add(c, corr, corr);
  e.Select(c, small, signed_corr, c);
  Vec y = e.NewVec();
  SubFromConstant(e, y, c_hi, c_lo, v, c);
  // y = small || x < 0 ? y : (t + corr) * 2
  Vec near_one = e.NewVec();
  e.Add(near_one, t, corr);
  e.Mul(near_one, near_one, e.ConstF(2.0f));
  e.Select(y, e.Or(small, e.Compare(Cmp::kLT_OQ, x, e.ConstF(0.0f))), y, near_one);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(1.0f)), e.ConstF(0.0f), y);
  e.Select(y, e.Compare(Cmp::kEQ_OQ, x, e.ConstF(-1.0f)), e.ConstF(kPiHi), y);
  e.Select(y, e.Compare(Cmp::kGT_OQ, a, e.ConstF(1.0f)), e.Const(kNaNBits), y);
  e.Select(dst, e.IsNaN(x), x, y);
}

namespace {

// BinaryNaN(a, b) into dst: IsNaN(a) ? a : b, with the quiet bit set.
void BinaryNaN(VectorEmitter& e, const Vec& dst, const Vec& a, const Vec& b) {
  e.Select(dst, e.IsNaN(a), a, b);
  e.OrBits(dst, dst, e.Const(0x00400000u));
}

}  // namespace

void EmitAtan2F32(VectorEmitter& e, const Vec& dst, const Vec& y, const Vec& x) {
  Vec ay = Abs(e, y);
  Vec ax = Abs(e, x);
  // any_inf: infinities -> 1, finite values -> 0
  const Mask ax_inf = e.Compare(Cmp::kEQ_OQ, ax, e.ConstF(kInf));
  const Mask ay_inf = e.Compare(Cmp::kEQ_OQ, ay, e.ConstF(kInf));
  const Mask any_inf = e.Or(ax_inf, ay_inf);
  Vec one = e.ConstReg(Bits(1.0f));
  Vec zero = e.ConstReg(0);
  Vec mapped = e.NewVec();
  e.Select(mapped, ax_inf, one, zero);
  e.Select(ax, any_inf, mapped, ax);
  e.Select(mapped, ay_inf, one, zero);
  e.Select(ay, any_inf, mapped, ay);
  // two zeros: ax = 1
  e.Select(
      ax,
      e.And(e.Compare(Cmp::kEQ_OQ, ax, e.ConstF(0.0f)), e.Compare(Cmp::kEQ_OQ, ay, e.ConstF(0.0f))),
      one, ax);
  // tiny: both scaled by 2^64
  const Mask tiny = e.And(e.Compare(Cmp::kLT_OQ, ax, e.ConstF(0x1p-64f)),
                          e.Compare(Cmp::kLT_OQ, ay, e.ConstF(0x1p-64f)));
  Vec scaled = e.NewVec();
  e.Mul(scaled, ax, e.ConstF(0x1p64f));
  e.Select(ax, tiny, scaled, ax);
  e.Mul(scaled, ay, e.ConstF(0x1p64f));
  e.Select(ay, tiny, scaled, ay);
  // swap = ay >= ax; n, d; t = n / d; tl = fma(-t, d, n) / d
  const Mask swap = e.Compare(Cmp::kGE_OQ, ay, ax);
  Vec n = e.NewVec();
  e.Select(n, swap, ax, ay);
  Vec d = e.NewVec();
  e.Select(d, swap, ay, ax);
  Vec t = e.NewVec();
  e.Div(t, n, d);
  Vec tl = e.NewVec();
  e.Fnma(tl, t, d, n);
  e.Div(tl, tl, d);
  Vec corr = e.NewVec();
  AtanCorrection(e, corr, t, tl);
  // neg_x: x's sign bit, as a mask (x | 1.0 < 0)
  Vec sx = e.NewVec();
  e.AndBits(sx, x, e.Const(kSignBit));
  e.OrBits(sx, sx, e.Const(Bits(1.0f)));
  const Mask neg_x = e.Compare(Cmp::kLT_OQ, sx, e.ConstF(0.0f));
  // c = neg_x ? (swap ? pi/2 : pi) : (swap ? pi/2 : 0), hi and lo
  Vec c_hi = e.NewVec();
  Vec c_lo = e.NewVec();
  Vec alt = e.NewVec();
  e.Select(c_hi, swap, e.ConstF(kPio2Hi), zero);
  e.Select(alt, swap, e.ConstF(kPio2Hi), e.ConstReg(Bits(kPiHi)));
  e.Select(c_hi, neg_x, alt, c_hi);
  e.Select(c_lo, swap, e.ConstF(kPio2Lo), zero);
  e.Select(alt, swap, e.ConstF(kPio2Lo), e.ConstReg(Bits(kPiLo)));
  e.Select(c_lo, neg_x, alt, c_lo);
  // flip = neg_x != swap ? 0 : sign bit: sx's sign xor (swap ? sign : 0), inverted
  Vec flip = e.NewVec();
  e.Select(flip, swap, e.Const(kSignBit), zero);
  e.XorBits(flip, flip, sx);
  e.AndBits(flip, flip, e.Const(kSignBit));
  e.XorBits(flip, flip, e.Const(kSignBit));
  e.XorBits(t, t, flip);
  e.XorBits(corr, corr, flip);
  Vec r = e.NewVec();
  SubFromConstant(e, r, c_hi, c_lo, t, corr);
  CopySign(e, r, y);
  Vec nan = e.NewVec();
  BinaryNaN(e, nan, y, x);
  e.Select(dst, e.Or(e.IsNaN(y), e.IsNaN(x)), nan, r);
}

void EmitHypotF32(VectorEmitter& e, const Vec& dst, const Vec& x, const Vec& y) {
  Vec ax = Abs(e, x);
  Vec ay = Abs(e, y);
  // big = ax >= ay ? ax : ay; small = ax >= ay ? ay : ax
  const Mask x_big = e.Compare(Cmp::kGE_OQ, ax, ay);
  Vec big = e.NewVec();
  e.Select(big, x_big, ax, ay);
  Vec small = e.NewVec();
  e.Select(small, x_big, ay, ax);
  // eb = Bits(big) & exponent; s = 0x7f000000 - eb; back = eb; the clamps
  Vec back = e.NewVec();
  e.AndBits(back, big, e.Const(0x7f800000u));
  Vec s = e.ConstReg(0x7f000000u);
  e.SubI32(s, s, back);
  const Mask low = e.Compare(Cmp::kLT_OQ, big, e.ConstF(0x1p-126f));
  e.Select(s, low, e.ConstF(0x1p126f), s);
  e.Select(back, low, e.ConstF(0x1p-126f), back);
  const Mask high = e.Compare(Cmp::kGE_OQ, big, e.ConstF(0x1p127f));
  e.Select(s, high, e.ConstF(0x1p-126f), s);
  e.Select(back, high, e.ConstF(0x1p126f), back);
  // bs, ss; h, hl = TwoProduct(bs, bs); l, ll = TwoProduct(ss, ss)
  Vec bs = e.NewVec();
  e.Mul(bs, big, s);
  Vec ss = e.NewVec();
  e.Mul(ss, small, s);
  Vec h = e.NewVec();
  Vec hl = e.NewVec();
  TwoProduct(e, h, hl, bs, bs);
  Vec l = e.NewVec();
  Vec ll = e.NewVec();
  TwoProduct(e, l, ll, ss, ss);
  // sum, sum_lo = Fast2Sum(h, l); sum_lo = sum_lo + (hl + ll)
  Vec sum = e.NewVec();
  Vec sum_lo = e.NewVec();
  Fast2Sum(e, sum, sum_lo, h, l);
  e.Add(hl, hl, ll);
  e.Add(sum_lo, sum_lo, hl);
  // q + corr = SqrtWithCorrection(sum, sum_lo); r = (q + corr) * back
  Vec q = e.NewVec();
  Vec corr = e.NewVec();
  SqrtWithCorrection(e, q, corr, sum, sum_lo);
  Vec r = e.NewVec();
  e.Add(r, q, corr);
  e.Mul(r, r, back);
  e.Select(r, e.Compare(Cmp::kEQ_OQ, big, e.ConstF(0.0f)), e.ConstF(0.0f), r);
  Vec nan = e.NewVec();
  BinaryNaN(e, nan, x, y);
  e.Select(r, e.Or(e.IsNaN(x), e.IsNaN(y)), nan, r);
  e.Select(
      dst,
      e.Or(e.Compare(Cmp::kEQ_OQ, ax, e.ConstF(kInf)), e.Compare(Cmp::kEQ_OQ, ay, e.ConstF(kInf))),
      e.ConstF(kInf), r);
}

}  // namespace alea::vm::jit::codegen
