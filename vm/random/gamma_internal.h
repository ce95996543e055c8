// What gamma.cc, gamma_family.cc and gamma_batch.cc share: the arithmetic of
// JAX's _gamma_one, written once so that the one-element loop and the batched
// rounds give the same bits, and the fast range form of GammaOneF32.
#ifndef ALEA_VM_RANDOM_GAMMA_INTERNAL_H_
#define ALEA_VM_RANDOM_GAMMA_INTERNAL_H_

#include <cmath>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"

namespace alea::vm::random::gamma_internal {

// The dtype's constants (rounded to it) and math.
struct F32Math {
  using T = float;
  static constexpr float kOneThird = static_cast<float>(1.0 / 3.0);
  static constexpr float kSqueeze = 0.0331f;
  static float Log(float x) { return kernels::LogF32(x); }
  static float Log1p(float x) { return kernels::Log1pF32(x); }
  static float Sqrt(float x) { return std::sqrt(x); }
  static float Pow(float x, float y) { return kernels::PowF32(x, y); }
};

struct F64Math {
  using T = double;
  static constexpr double kOneThird = 1.0 / 3.0;
  static constexpr double kSqueeze = 0.0331;
  static double Log(double x) { return std::log(x); }
  static double Log1p(double x) { return std::log1p(x); }
  static double Sqrt(double x) { return std::sqrt(x); }
  static double Pow(double x, double y) { return std::pow(x, y); }
};

// The two tests of JAX's _cond_fn apart, for callers that take the logs in
// batches: the squeeze accepts, and otherwise the log test may.
template <typename M, typename T = typename M::T>
bool Squeezed(T X, T U) {
  return !(U >= T(1) - M::kSqueeze * (X * X));
}
template <typename M, typename T = typename M::T>
bool LogTestRejects(T d, T X, T V, T log_U, T log_V) {
  return log_U >= X * T(0.5) + d * ((T(1) - V) + log_V);
}

// _gamma_one for one alpha, operation for operation (each rounded to T, no
// FMA): the boosted alpha's d and c, the loop's test, and the result from
// the accepted V.
template <typename M>
struct GammaSteps {
  using T = typename M::T;
  T alpha, d, c;
  bool boost_mask;

  explicit GammaSteps(T a) : alpha(a) {
    boost_mask = a >= T(1);  // false for NaN, as lax.ge
    const T boosted = boost_mask ? a : a + T(1);
    d = boosted - M::kOneThird;
    c = M::kOneThird / M::Sqrt(d);
  }

  // JAX's _cond_fn: go on while both hold (a NaN in either stops the loop).
  // JAX computes both; the second, with its two logs, only matters when the
  // first holds.
  bool Reject(T X, T V, T U) const {
    if (Squeezed<M>(X, U)) return false;
    return LogTestRejects<M>(d, X, V, M::Log(U), M::Log(V));
  }

  // The draw from the accepted V. subkey_uniform() is uniform(subkey), drawn
  // only when the boost needs it (alpha < 1). log_d, when the caller has it,
  // is M::Log(d).
  template <typename Uniform>
  T Finish(T V, bool log_space, Uniform subkey_uniform) const {
    return Finish(V, log_space, subkey_uniform, log_space ? M::Log(d) : T(0));
  }

  template <typename Uniform>
  T Finish(T V, bool log_space, Uniform subkey_uniform, T log_d) const {
    if (log_space) {
      const T log_dv = log_d + M::Log(V);
      if (boost_mask) return log_dv + T(0);
      // -exponential(subkey), exponential being -log1p(-u): the log of JAX's
      // boost base 1 - u.
      const T log_samples = -(-M::Log1p(-subkey_uniform()));
      const T log_boost = log_samples == T(0) ? T(0) : log_samples * (T(1) / alpha);
      return log_dv + log_boost;
    }
    const T dv = d * V;
    if (boost_mask) return dv * T(1);
    const T samples = T(1) - subkey_uniform();
    return dv * M::Pow(samples, T(1) / alpha);
  }
};

// out[j] = GammaOneF32(SplitKey(k, start + j), alpha[j * alpha_stride],
// log_space) for j < count: the same bits, with every element's first round
// hashed in blocks by `batch` (the loop takes over for elements that need
// more). alpha_stride 0 gives every element alpha[0].
void GammaOneRangeF32(Key k, uint64_t start, uint64_t count, const float* alpha,
                      uint64_t alpha_stride, bool log_space, float* out, const DrawKernels& batch);

}  // namespace alea::vm::random::gamma_internal

#endif  // ALEA_VM_RANDOM_GAMMA_INTERNAL_H_
