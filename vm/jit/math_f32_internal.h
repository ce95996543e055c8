// Internal to the JIT's math files (vm/jit/math_f32*.cc): the vector forms of
// the cores in kernels/math_f32_internal.h, each bitwise equal to its scalar
// original (same operations, same order).
#ifndef ALEA_VM_JIT_MATH_F32_INTERNAL_H_
#define ALEA_VM_JIT_MATH_F32_INTERNAL_H_

#include <bit>
#include <cstdint>

#include "vm/jit/codegen.h"

namespace alea::vm::jit::codegen {

inline constexpr uint32_t kSignBit = 0x80000000u;
inline constexpr uint32_t kAbsMask = 0x7fffffffu;

inline uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }

// y = WithSign(y, x) in place.
inline void CopySign(VectorEmitter& e, const x86::Vec& y, const x86::Vec& x) {
  e.AndBits(y, y, e.Const(kAbsMask));
  x86::Vec sign = e.NewVec();
  e.AndBits(sign, x, e.Const(kSignBit));
  e.OrBits(y, y, sign);
}

// ExpCore(x, k_offset) into dst, for x already clamped to [-104, 89] (or to
// 90 with k_offset = -1). dst may alias x.
void ExpCore(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x, int32_t k_offset = 0);
// ClampExpArg(x), in a new register.
x86::Vec ClampExpArg(VectorEmitter& e, const x86::Vec& x);
// SplitLog(x, &kf, &m) into kf and m.
void SplitLog(VectorEmitter& e, const x86::Vec& x, const x86::Vec& kf, const x86::Vec& m);
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
