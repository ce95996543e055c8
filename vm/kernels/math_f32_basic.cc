// Alea's f32 rounding functions, sign, expm1, sinh and cosh: see math_f32.h.
// The same rules as math_f32.cc: branch-free apart from selects between
// values that are all computed, std::fma exactly where a JIT version issues
// vfmadd, and a fixed operation order that vm/jit/math_f32_basic.cc mirrors.
//
// Polynomials here are truncated Taylor series (coefficients 1/n! rounded to
// f32); each comment gives the truncation bound on its reduced range.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/kernels/math_f32_internal.h"

namespace alea::vm::kernels {
using namespace math_internal;

// The rounding functions are exact (one IEEE round-to-integral operation; a
// vroundps/vrndscaleps in the JIT). A NaN is returned as itself, as by every
// function here.
float FloorF32(float x) { return IsNaN(x) ? x : std::floor(x); }
float CeilF32(float x) { return IsNaN(x) ? x : std::ceil(x); }
// Ties to even, in the default rounding mode the VM never changes.
float RoundF32(float x) { return IsNaN(x) ? x : std::nearbyint(x); }
float TruncF32(float x) { return IsNaN(x) ? x : std::trunc(x); }
float SignF32(float x) {
  float y = WithSign(1.0f, x);
  y = x == 0.0f ? x : y;
  return IsNaN(x) ? x : y;
}

// e^x - 1. With c = x clamped to [-30, 89] (expm1(-30) rounds to -1),
// k = round(c log2e) and r = c - k ln2 as in ExpCore (|r| <= 0.3466; k = 0
// gives r = c exactly, so no cancellation near 0):
//   u = fma(r * r, Expm1Remainder(r), r) = e^r - 1 (truncation < 0.01 ulp)
//   e^c - 1 = 2^k u + (2^k - 1) = fma(s1, u, s1 - 1) * s2 with s1 = 2^k1,
//   s2 = 2^k2, k2 = (k > 64 ? 64 : 0), k1 = k - k2: for k <= 64 one rounding;
//   above, the -1 (below 2^-64 relative) is dropped, fma(s1, u, s1) * s2,
//   and the product by s2 only scales (or overflows, as the exact result).
// Measured max error: see math_f32.h.
float Expm1F32(float x) {
  float c = x < -30.0f ? -30.0f : x;
  c = c > 89.0f ? 89.0f : c;
  ExpReduction d = ReduceExp(c);
  float r = std::fma(d.kf, -kLn2Lo, d.rh);
  float u = std::fma(r * r, Expm1Remainder(r), r);
  int32_t k = KFromBiased(d.biased);
  bool huge = d.kf > 64.0f;
  int32_t k2 = huge ? 64 : 0;
  float s1 = Pow2(k - k2);
  float s2 = Pow2(k2);
  float y = std::fma(s1, u, s1 - (huge ? 0.0f : 1.0f)) * s2;
  y = x == 0.0f ? x : y;  // keeps the sign of -0
  return IsNaN(x) ? x : y;
}

namespace {

// e^a / 2 = ExpCore(min(a, 90), -1) for a >= 0: the large-|x| half of sinh
// and cosh (finite up to their own overflow at 89.4).
float HalfExp(float a) { return ExpCore(a < 90.0f ? a : 90.0f, -1); }

}  // namespace

// On a = |x| (sign restored at the end, so sinh is exactly odd):
//   a < 1: z = a * a; p = Taylor of (sinh(a) - a) / a^3 in z from 1/13! down
//          to 1/3! (truncation a^14/15! < 0.001 ulp); y = fma(a * z, p, a)
//   a >= 1: h = HalfExp(a) = e^a / 2; y = h - 0.25 / h
float SinhF32(float x) {
  float a = Abs(x);
  float z = a * a;
  float p = 0x1.612462p-33f;            // 1/13!
  p = std::fma(p, z, 0x1.ae6456p-26f);  // 1/11!
  p = std::fma(p, z, 0x1.71de3ap-19f);  // 1/9!
  p = std::fma(p, z, 0x1.a01a02p-13f);  // 1/7!
  p = std::fma(p, z, 0x1.111112p-7f);   // 1/5!
  p = std::fma(p, z, 0x1.555556p-3f);   // 1/3!
  float small = std::fma(a * z, p, a);
  float h = HalfExp(a);
  float large = h - 0.25f / h;
  float y = a < 1.0f ? small : large;
  return OddResult(x, y);
}

// On a = |x|:
//   a < 1: z = a * a; p = Taylor of (cosh(a) - 1) / a^2 in z from 1/12! down
//          to 1/2 (truncation a^12/14! < 0.001 ulp); y = fma(z, p, 1)
//   a >= 1: h = HalfExp(a) = e^a / 2; y = h + 0.25 / h
float CoshF32(float x) {
  float a = Abs(x);
  float z = a * a;
  float p = 0x1.1eed8ep-29f;            // 1/12!
  p = std::fma(p, z, 0x1.27e4fcp-22f);  // 1/10!
  p = std::fma(p, z, 0x1.a01a02p-16f);  // 1/8!
  p = std::fma(p, z, 0x1.6c16c2p-10f);  // 1/6!
  p = std::fma(p, z, 0x1.555556p-5f);   // 1/4!
  p = std::fma(p, z, 0x1.0p-1f);        // 1/2!
  float small = std::fma(z, p, 1.0f);
  float h = HalfExp(a);
  float large = h + 0.25f / h;
  float y = a < 1.0f ? small : large;
  return IsNaN(x) ? x : y;
}

#define ALEA_MATH_F32_BATCH(F)                        \
  void F(const float* in, float* out, size_t n) {     \
    for (size_t i = 0; i < n; ++i) out[i] = F(in[i]); \
  }
ALEA_MATH_F32_BATCH(FloorF32)
ALEA_MATH_F32_BATCH(CeilF32)
ALEA_MATH_F32_BATCH(RoundF32)
ALEA_MATH_F32_BATCH(TruncF32)
ALEA_MATH_F32_BATCH(SignF32)
ALEA_MATH_F32_BATCH(Expm1F32)
ALEA_MATH_F32_BATCH(SinhF32)
ALEA_MATH_F32_BATCH(CoshF32)
#undef ALEA_MATH_F32_BATCH

}  // namespace alea::vm::kernels
