// Alea's own f32 math functions: exp, log, log1p, tanh, sigmoid, erfinv.
//
// Tensor math must give the same bits in the portable reference kernels and in
// the JIT's AVX2+FMA / AVX-512 kernels, so these functions never call libm.
// Each is range reduction + a fixed polynomial + selects for special cases,
// written only with +, -, *, /, std::fma, std::sqrt, comparisons, selects and
// integer operations on the float bits, in a fixed order that a SIMD version
// reproduces one instruction per operation (math_f32.cc documents the order).
// FMA is used, always through std::fma (the build uses -ffp-contract=off).
//
// Accuracy: at most 2 ulp from the correctly rounded result for every f32
// input (checked exhaustively by tests/vm/slow/math_f32_exhaustive_test.cc).
// NaN in gives NaN out; infinities, zeros, subnormals, overflow to inf and
// underflow to 0 behave as the correctly rounded function does.
#ifndef ALEA_VM_KERNELS_MATH_F32_H_
#define ALEA_VM_KERNELS_MATH_F32_H_

#include <cstddef>

namespace alea::vm::kernels {

// e^x. Overflows to inf above 88.72283, underflows to 0 below -103.97208.
float ExpF32(float x);
// Natural log; log(0) = -inf, log(x < 0) = NaN.
float LogF32(float x);
// log(1 + x), accurate for tiny x; log1p(-1) = -inf, x < -1 gives NaN.
float Log1pF32(float x);
// Hyperbolic tangent.
float TanhF32(float x);
// 1 / (1 + e^-x), without overflow for large |x|.
float SigmoidF32(float x);
// Inverse error function on (-1, 1); +-1 give +-inf, |x| > 1 gives NaN.
float ErfinvF32(float x);

// Batch forms for the reference kernels: out[i] = F(in[i]) for i < n. `in`
// and `out` may be the same array.
void ExpF32(const float* in, float* out, size_t n);
void LogF32(const float* in, float* out, size_t n);
void Log1pF32(const float* in, float* out, size_t n);
void TanhF32(const float* in, float* out, size_t n);
void SigmoidF32(const float* in, float* out, size_t n);
void ErfinvF32(const float* in, float* out, size_t n);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_MATH_F32_H_
