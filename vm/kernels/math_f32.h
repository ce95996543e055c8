// Alea's own f32 math functions: exp, log, log1p, tanh, sigmoid, erfinv
// (math_f32.cc); floor, ceil, round, trunc, sign, expm1, sinh, cosh
// (math_f32_basic.cc); erf, erfc (math_f32_special.cc); sin, cos, tan, atan,
// asin, acos, atan2, hypot (math_f32_trig.cc); pow (math_f32_pow.cc);
// lgamma (math_f32_lgamma.cc).
//
// Tensor math must give the same bits in the portable reference kernels and in
// the JIT's AVX2+FMA / AVX-512 kernels, so these functions never call libm's
// approximations. Each is range reduction + a fixed polynomial + selects for
// special cases, written only with +, -, *, /, std::fma, std::sqrt, the exact
// rounding to an integral value (std::floor, ceil, trunc, nearbyint),
// comparisons, selects and integer operations on the float bits, in a fixed order that a SIMD
// version reproduces one instruction per operation (math_f32.cc documents the order). FMA is used,
// always through std::fma (the build uses -ffp-contract=off).
//
// Accuracy: at most 2 ulp from the correctly rounded result for every f32
// input (checked exhaustively by tests/vm/slow/math_f32_exhaustive_test.cc).
// NaN in gives NaN out; infinities, zeros, subnormals, overflow to inf and
// underflow to 0 behave as the correctly rounded function does.
// Measured maximum errors of the later functions, over the slow test's
// default sweep (a sixteenth of all inputs, in runs of 2^18 adjacent ones)
// and the fast test's sample (every 997th input and windows around the
// thresholds): expm1 1.34 ulp, sinh 1.60, cosh 1.29, erf 1.21, erfc 0.93
// (its exp(-x^2) g(x) tail, both factors carried as hi + lo, 0.96 on every
// input of [0.47, 10.06]); floor, ceil,
// round, trunc and sign are exact. erf is not monotone: just below 1 it has
// rare 1-ulp dips between adjacent inputs.
//
// sin, cos and tan reduce |x| <= 2^22 by Cody-Waite with a three-part pi/2
// and give NaN for |x| > 2^22: there adjacent f32 inputs are 0.5 or more
// apart, a Payne-Hanek reduction would be needed for the exact remainder,
// and a value without it would be silently wrong. Measured on every f32
// input (ALEA_EXHAUSTIVE=1 run of the slow test, 0 over 2 ulp, no step the
// wrong way between adjacent inputs): sin 0.973 ulp, cos 0.976, tan 1.598,
// atan 1.23, asin 0.620, acos 0.597, log1p 0.894. Over 4 million random and structured pairs
// (tests/vm/kernels/math_f32_binary_test.cc; 20 million in development):
// atan2 1.17 ulp, hypot 0.75, pow 0.75 (pow also over bases near 1 with
// exponents up to 256, its hardest range).
//
// lgamma: for x > 0, 0.95 ulp (every seventh input), with no loss next to
// its zeros at 1 and 2 ((x - 1)(x - 2) is a factor of the fit there); over
// every f32 input the largest error outside the band around the negative
// zeros described next is 1.871 ulp, at -0x1.5bef3ep-3. For
// x < 0 (reflection formula), measured on every input from -2^23 to 0:
// 1.87 ulp wherever |lgamma(x)| >= 1; where |lgamma(x)| < 1, that is around
// its zeros (-2.4571, -2.7476, -3.1435, -3.9552, and a pair beside each
// integer from -4 on, within 0.04 of it at -4 and 3e-6 at -9), the absolute
// error is at most 1.6e-7 (2^-22.6), so the relative error is unbounded at
// the zeros themselves (the tests measure it there in units of 2^-23). Over
// the slow test's default sweep the largest relative error outside that
// band is 1.81 ulp.
//
// The JIT (vm/jit/math_f32*.cc) gives these functions' bits for every f32
// input on both its AVX2 and AVX-512 paths: checked over all 2^32 inputs of
// each unary function by an ALEA_EXHAUSTIVE=1 run of
// tests/vm/slow/jit_math_exhaustive_test.cc.
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

// math_f32_basic.cc. Exact: floor, ceil, round (half to even, as np.round),
// trunc, and sign (+-1 by the sign bit; +-0 and NaN give themselves).
float FloorF32(float x);
float CeilF32(float x);
float RoundF32(float x);
float TruncF32(float x);
float SignF32(float x);
// e^x - 1, accurate near 0; -1 below -17.4, inf above 88.72283.
float Expm1F32(float x);
// Hyperbolic sine and cosine; overflow to inf above 89.41599.
float SinhF32(float x);
float CoshF32(float x);
// math_f32_special.cc. Error function and its complement 1 - erf(x),
// accurate for large x (underflows to 0 from 10.06 on).
float ErfF32(float x);
float ErfcF32(float x);
// math_f32_trig.cc. Sine, cosine and tangent (radians): within 2 ulp for
// |x| <= 2^22; NaN beyond (see the top of this file).
float SinF32(float x);
float CosF32(float x);
float TanF32(float x);
// Inverse tangent, sine and cosine; asin and acos of |x| > 1 are NaN.
float AtanF32(float x);
float AsinF32(float x);
float AcosF32(float x);
// atan2(y, x) in [-pi, pi] and hypot(x, y), as C's atan2f and hypotf for
// zeros, infinities and NaN (hypot(inf, NaN) = inf); a NaN result is the
// first NaN operand, quieted (the rule of `+`).
float Atan2F32(float y, float x);
float HypotF32(float x, float y);
// math_f32_pow.cc. x to the power y, as C's powf for every special case
// (pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN; a negative finite x with
// a finite non-integer y is NaN; an odd integer y keeps x's sign).
float PowF32(float x, float y);
// math_f32_lgamma.cc. log|gamma(x)|: +inf at 0, the negative integers and
// +-inf.
float LgammaF32(float x);

// Batch forms for the reference kernels: out[i] = F(in[i]) for i < n. `in`
// and `out` may be the same array.
void ExpF32(const float* in, float* out, size_t n);
void LogF32(const float* in, float* out, size_t n);
void Log1pF32(const float* in, float* out, size_t n);
void TanhF32(const float* in, float* out, size_t n);
void SigmoidF32(const float* in, float* out, size_t n);
void ErfinvF32(const float* in, float* out, size_t n);
void FloorF32(const float* in, float* out, size_t n);
void CeilF32(const float* in, float* out, size_t n);
void RoundF32(const float* in, float* out, size_t n);
void TruncF32(const float* in, float* out, size_t n);
void SignF32(const float* in, float* out, size_t n);
void Expm1F32(const float* in, float* out, size_t n);
void SinhF32(const float* in, float* out, size_t n);
void CoshF32(const float* in, float* out, size_t n);
void ErfF32(const float* in, float* out, size_t n);
void ErfcF32(const float* in, float* out, size_t n);
void SinF32(const float* in, float* out, size_t n);
void CosF32(const float* in, float* out, size_t n);
void TanF32(const float* in, float* out, size_t n);
void AtanF32(const float* in, float* out, size_t n);
void AsinF32(const float* in, float* out, size_t n);
void AcosF32(const float* in, float* out, size_t n);
void LgammaF32(const float* in, float* out, size_t n);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_MATH_F32_H_
