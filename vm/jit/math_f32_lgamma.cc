// lgamma as vector code (codegen.h), bitwise equal to
// kernels/math_f32_lgamma.cc on both ISA paths, by the rules of
// vm/jit/math_f32.cc: each step mirrors the reference line by line (vfmadd
// where it calls std::fma, one instruction per other operation, a compare and
// a blend per `?:`, vroundps for std::nearbyint).
#include <bit>
#include <cstdint>
#include <limits>

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

// Horner with per-lane coefficients: p = lo[0] or hi[0]; p = fma(p, u, c_i).
void HornerSelect(VectorEmitter& e, const Vec& p, const Mask& first, const Vec& u,
                  const float* if_first, const float* otherwise, int count) {
  e.Copy(p, e.ConstF(otherwise[0]));
  e.Select(p, first, e.ConstF(if_first[0]), p);
  for (int i = 1; i < count; ++i) {
    Vec c = e.ConstReg(Bits(otherwise[i]));
    e.Select(c, first, e.ConstF(if_first[i]), c);
    e.Fma(p, p, u, c);
  }
}

// (hi, err) = TwoSum(a, b) as the reference writes it: s = a + b;
// v = s - a; err = (a - (s - v)) + (b - v).
void TwoSum(VectorEmitter& e, const Vec& s, const Vec& err, const Vec& a, const Vec& b) {
  e.Add(s, a, b);
  Vec v = e.NewVec();
  e.Sub(v, s, a);
  e.Sub(err, s, v);
  e.Sub(err, a, err);
  e.Sub(v, b, v);
  e.Add(err, err, v);
}

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
  Vec ph = e.NewVec();
  e.Mul(ph, am1, am2);
  Vec pl = e.NewVec();
  e.XorBits(pl, ph, e.Const(kSignBit));
  e.Fma(pl, am1, am2, pl);
  e.Mul(am2e, am1, am2e);
  e.Add(pl, pl, am2e);
  Vec u = e.NewVec();
  e.Select(u, near_one, am1, am2);
  constexpr float kOne[12] = {0x1.80d77ap-4f, -0x1.62c214p-4f, 0x1.1a3aa2p-6f, -0x1.f69f5ep-6f,
                              0x1.dccd8ep-5f, -0x1.f7af2cp-5f, 0x1.0ebc6ap-4f, -0x1.3bdbecp-4f,
                              0x1.79f58cp-4f, -0x1.d7aaa6p-4f, 0x1.3e53d8p-3f, -0x1.f64652p-3f};
  constexpr float kTwo[12] = {0x1.7c9958p-15f, -0x1.0d40b6p-13f, 0x1.8fbe22p-14f, -0x1.793018p-20f,
                              0x1.c692c8p-14f, -0x1.bd15d4p-12f, 0x1.eec752p-11f, -0x1.142eacp-9f,
                              0x1.47486ep-8f,  -0x1.95cd6ap-7f,  0x1.0e0d4ep-5f,  -0x1.9ae652p-4f};
  Vec r = e.NewVec();
  HornerSelect(e, r, near_one, u, kOne, kTwo, 12);
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
  // qh = a * lu; ql = fma(a, lu, -qh) + a * lue
  Vec qh = e.NewVec();
  e.Mul(qh, a, lu);
  Vec ql = e.NewVec();
  e.XorBits(ql, qh, e.Const(kSignBit));
  e.Fma(ql, a, lu, ql);
  e.Mul(lue, a, lue);
  e.Add(ql, ql, lue);
  // hg = 0.5 * gh; sa = qh - hg; sv = sa - qh; se = (qh - (sa - sv)) - (hg + sv)
  Vec hg = e.NewVec();
  e.Mul(hg, gh, e.ConstF(0.5f));
  Vec sa = e.NewVec();
  e.Sub(sa, qh, hg);
  Vec sv = e.NewVec();
  e.Sub(sv, sa, qh);
  Vec se = e.NewVec();
  e.Sub(se, sa, sv);
  e.Sub(se, qh, se);
  e.Add(sv, hg, sv);
  e.Sub(se, se, sv);
  // sb = sa + C; sw = sb - sa; sbe = (sa - (sb - sw)) + (C - sw)
  Vec sb = e.NewVec();
  e.Add(sb, sa, e.ConstF(kHalfLog2PiHi));
  Vec sw = e.NewVec();
  e.Sub(sw, sb, sa);
  Vec sbe = e.NewVec();
  e.Sub(sbe, sb, sw);
  e.Sub(sbe, sa, sbe);
  Vec cw = e.ConstReg(Bits(kHalfLog2PiHi));
  e.Sub(cw, cw, sw);
  e.Add(sbe, sbe, cw);
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
  const float inf = std::numeric_limits<float>::infinity();
  e.Select(big, e.Compare(Cmp::kEQ_OQ, qh, e.ConstF(inf)), e.ConstF(inf), big);
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
  const float inf = std::numeric_limits<float>::infinity();
  Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
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
  // t = LogPi - s; tv = t - LogPi; te = (LogPi - (t - tv)) - (s + tv)
  Vec log_pi = e.ConstReg(Bits(kLogPiHi));
  Vec t = e.NewVec();
  e.Sub(t, log_pi, s);
  Vec tv = e.NewVec();
  e.Sub(tv, t, log_pi);
  Vec te = e.NewVec();
  e.Sub(te, t, tv);
  e.Sub(te, log_pi, te);
  e.Add(tv, s, tv);
  e.Sub(te, te, tv);
  // u = t - l; uv = u - t; ue = (t - (u - uv)) - (l + uv)
  Vec u = e.NewVec();
  e.Sub(u, t, l);
  Vec uv = e.NewVec();
  e.Sub(uv, u, t);
  Vec ue = e.NewVec();
  e.Sub(ue, u, uv);
  e.Sub(ue, t, ue);
  e.Add(uv, l, uv);
  e.Sub(ue, ue, uv);
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
      e.Or(e.Compare(Cmp::kEQ_OQ, a, e.ConstF(0.0f)), e.Compare(Cmp::kEQ_OQ, a, e.ConstF(inf))));
  e.Select(y, pole, e.ConstF(inf), y);
  e.Select(dst, e.IsNaN(x), x, y);
}

}  // namespace alea::vm::jit::codegen
