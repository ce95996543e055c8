// Internal to the JIT's math files (vm/jit/math_f32*.cc): the vector forms of
// the helpers and cores in kernels/math_f32_internal.h, each bitwise equal to
// its scalar original (same operations, same order), and the reference's
// constants themselves.
#ifndef ALEA_VM_JIT_MATH_F32_INTERNAL_H_
#define ALEA_VM_JIT_MATH_F32_INTERNAL_H_

#include <bit>
#include <cstddef>
#include <cstdint>

#include "vm/jit/codegen.h"
#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::jit::codegen {

using kernels::math_internal::kErfcMidFar;
using kernels::math_internal::kErfcMidNear;
using kernels::math_internal::kErfinvTailFar;
using kernels::math_internal::kErfinvTailNear;
using kernels::math_internal::kInf;
using kernels::math_internal::kLgammaR1;
using kernels::math_internal::kLgammaR2;
using kernels::math_internal::kLn2A;
using kernels::math_internal::kLn2B;
using kernels::math_internal::kLn2Hi;
using kernels::math_internal::kLn2Lo;
using kernels::math_internal::kLog2e;
using kernels::math_internal::kRoundMagic;
using kernels::math_internal::kTwoThirdsHi;
using kernels::math_internal::kTwoThirdsLo;

inline constexpr uint32_t kSignBit = 0x80000000u;
inline constexpr uint32_t kAbsMask = 0x7fffffffu;
inline constexpr uint32_t kNaNBits = 0x7fc00000u;  // std::numeric_limits<float>::quiet_NaN()

inline uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

// Abs(x), in a new register.
inline x86::Vec Abs(VectorEmitter& e, const x86::Vec& x) {
  x86::Vec a = e.NewVec();
  e.AndBits(a, x, e.Const(kAbsMask));
  return a;
}

// -x (exact: the sign bit flipped), in a new register.
inline x86::Vec Negated(VectorEmitter& e, const x86::Vec& x) {
  x86::Vec n = e.NewVec();
  e.XorBits(n, x, e.Const(kSignBit));
  return n;
}

// y = WithSign(y, x) in place.
inline void CopySign(VectorEmitter& e, const x86::Vec& y, const x86::Vec& x) {
  e.AndBits(y, y, e.Const(kAbsMask));
  x86::Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.OrBits(y, y, sign);
}

// dst = OddResult(x, y): CopySign(y, x) (y in place), then x for NaN x.
inline void OddResult(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x, const x86::Vec& y) {
  CopySign(e, y, x);
  e.Select(dst, e.IsNaN(x), x, y);
}

// dst = OddResultOfNonNegative(x, y): y | (x & sign bit) (y in place), then x
// for NaN x.
inline void OddResultOfNonNegative(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x,
                                   const x86::Vec& y) {
  x86::Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.OrBits(y, y, sign);
  e.Select(dst, e.IsNaN(x), x, y);
}

// Fast2Sum(a, b, &s, &err): s = a + b; err = b - (s - a).
inline void Fast2Sum(VectorEmitter& e, const x86::Vec& s, const x86::Vec& err, const x86::Vec& a,
                     const x86::Vec& b) {
  e.Add(s, a, b);
  e.Sub(err, s, a);
  e.Sub(err, b, err);
}

// TwoProduct(a, b, &hi, &lo): hi = a * b; lo = fma(a, b, -hi).
inline void TwoProduct(VectorEmitter& e, const x86::Vec& hi, const x86::Vec& lo, const x86::Vec& a,
                       const asmjit::Operand_& b) {
  e.Mul(hi, a, b);
  e.XorBits(lo, hi, e.Const(kSignBit));
  e.Fma(lo, a, b, lo);
}

// MulHiLo(a, bh, bl, &hi, &lo): TwoProduct(a, bh); lo = lo + a * bl.
inline void MulHiLo(VectorEmitter& e, const x86::Vec& hi, const x86::Vec& lo, const x86::Vec& a,
                    const x86::Vec& bh, const x86::Vec& bl) {
  TwoProduct(e, hi, lo, a, bh);
  x86::Vec t = e.NewVec();
  e.Mul(t, a, bl);
  e.Add(lo, lo, t);
}

// TwoSum(a, b, &s, &err): s = a + b; v = s - a; err = (a - (s - v)) + (b - v).
inline void TwoSum(VectorEmitter& e, const x86::Vec& s, const x86::Vec& err, const x86::Vec& a,
                   const x86::Vec& b) {
  e.Add(s, a, b);
  x86::Vec v = e.NewVec();
  e.Sub(v, s, a);
  e.Sub(err, s, v);
  e.Sub(err, a, err);
  e.Sub(v, b, v);
  e.Add(err, err, v);
}

// TwoDiff(a, b, &d, &err): d = a - b; v = d - a; err = (a - (d - v)) - (b + v).
inline void TwoDiff(VectorEmitter& e, const x86::Vec& d, const x86::Vec& err, const x86::Vec& a,
                    const x86::Vec& b) {
  e.Sub(d, a, b);
  x86::Vec v = e.NewVec();
  e.Sub(v, d, a);
  e.Sub(err, d, v);
  e.Sub(err, a, err);
  e.Add(v, b, v);
  e.Sub(err, err, v);
}

// s = SqrtWithCorrection(hi, lo, &corr): s = sqrt(hi);
// corr = (fma(-s, s, hi) + lo) / (s + s).
inline void SqrtWithCorrection(VectorEmitter& e, const x86::Vec& s, const x86::Vec& corr,
                               const x86::Vec& hi, const x86::Vec& lo) {
  e.cc().vsqrtps(s, hi);
  e.Fnma(corr, s, s, hi);
  e.Add(corr, corr, lo);
  x86::Vec two_s = e.NewVec();
  e.Add(two_s, s, s);
  e.Div(corr, corr, two_s);
}

// p = HornerSelect(first, u, if_first, otherwise): p = first ? if_first[0] :
// otherwise[0]; p = fma(p, u, first ? if_first[i] : otherwise[i]) for each i.
template <size_t N>
void HornerSelect(VectorEmitter& e, const x86::Vec& p, const Mask& first, const x86::Vec& u,
                  const float (&if_first)[N], const float (&otherwise)[N]) {
  e.Copy(p, e.ConstF(otherwise[0]));
  e.Select(p, first, e.ConstF(if_first[0]), p);
  for (size_t i = 1; i < N; ++i) {
    x86::Vec c = e.ConstReg(Bits(otherwise[i]));
    e.Select(c, first, e.ConstF(if_first[i]), c);
    e.Fma(p, p, u, c);
  }
}

// dst = Pow2(k) for integer lanes k: (k + 127) << 23. dst may alias k.
inline void Pow2(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& k) {
  e.AddI32(dst, k, e.Const(127));
  e.ShiftLeftI32(dst, dst, 23);
}

// ReduceExp(x) (biased, kf and rh, each a new register).
struct ExpReduction {
  x86::Vec biased, kf, rh;
};
ExpReduction ReduceExp(VectorEmitter& e, const x86::Vec& x);

// dst = KFromBiased(biased) + k_offset, the offset folded into the constant
// subtracted (the same integer, modulo 2^32).
inline void KFromBiased(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& biased,
                        int32_t k_offset = 0) {
  e.SubI32(dst, biased, e.Const(Bits(kRoundMagic) - static_cast<uint32_t>(k_offset)));
}

// SplitPow2(k, &s1, &s2) into s1 and s2.
inline void SplitPow2(VectorEmitter& e, const x86::Vec& k, const x86::Vec& s1, const x86::Vec& s2) {
  e.ShiftRightArithmeticI32(s1, k, 1);
  e.SubI32(s2, k, s1);
  Pow2(e, s1, s1);
  Pow2(e, s2, s2);
}

// Expm1Remainder(r), in a new register.
x86::Vec Expm1Remainder(VectorEmitter& e, const x86::Vec& r);

// ExpOfReduced(d), in a new register.
x86::Vec ExpOfReduced(VectorEmitter& e, const ExpReduction& d);
// ExpCore(x, k_offset) into dst, for x already clamped to [-104, 89] (or to
// 90 with k_offset = -1). dst may alias x.
void ExpCore(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x, int32_t k_offset = 0);
// ExpCoreSmallK(x) into dst, for x in [0, 40]. dst may alias x.
void ExpCoreSmallK(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// ClampExpArg(x), in a new register.
x86::Vec ClampExpArg(VectorEmitter& e, const x86::Vec& x);
// SplitLog(x, &kf, &m) into kf and m.
void SplitLog(VectorEmitter& e, const x86::Vec& x, const x86::Vec& kf, const x86::Vec& m);
// SplitLogWithSubnormals(x, &kf, &f) into kf and f.
void SplitLogWithSubnormals(VectorEmitter& e, const x86::Vec& x, const x86::Vec& kf,
                            const x86::Vec& f);
// ExpSplit(x, lo, &eh, &el, &s1, &s2) into eh, el, s1 and s2
// (vm/jit/math_f32_special.cc).
void ExpSplit(VectorEmitter& e, const x86::Vec& x, const x86::Vec& lo, const x86::Vec& eh,
              const x86::Vec& el, const x86::Vec& s1, const x86::Vec& s2);
// LogParts(ax, &gh, &gl) into gh and gl (vm/jit/math_f32_pow.cc).
void LogParts(VectorEmitter& e, const x86::Vec& ax, const x86::Vec& gh, const x86::Vec& gl);
// LogCore(f, kf, extra, &hi, &lo) into hi and lo.
void LogCore(VectorEmitter& e, const x86::Vec& f, const x86::Vec& kf, const asmjit::Operand_& extra,
             const x86::Vec& hi, const x86::Vec& lo);

}  // namespace alea::vm::jit::codegen

#endif  // ALEA_VM_JIT_MATH_F32_INTERNAL_H_
