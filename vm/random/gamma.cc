// JAX's _gamma_one and the distributions built straight on it: gamma,
// loggamma, chisquare, f and t. The beta, dirichlet, generalized normal and
// ball draws are in gamma_family.cc.
#include "vm/random/gamma.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "vm/kernels/math_f32.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"

namespace alea::vm::random {
namespace {

// Far past any loop a valid alpha runs (each round accepts with probability
// above 0.95 for alpha >= 1), and a bound where JAX would spin forever.
constexpr int kMaxRounds = 1 << 20;

// The f32 draws of the sub-keys: element 0 of a 0-d draw, samplers.h's.
float NormalF32(Key k) {
  float x;
  Normal(k, 0, 1, &x);
  return x;
}

float UniformF32(Key k) {
  float u;
  Uniform(k, 0, 1, 0.0f, 1.0f, &u);
  return u;
}

float ExponentialF32(Key k) {
  float e;
  Exponential(k, 0, 1, &e);
  return e;
}

// The dtype-specific pieces of _gamma_one: its constants rounded to the
// dtype, its math and its 0-d sub-draws.
struct F32Ops {
  using T = float;
  static constexpr float kOneThird = static_cast<float>(1.0 / 3.0);
  static constexpr float kSqueeze = 0.0331f;
  static float Log(float x) { return kernels::LogF32(x); }
  static float Sqrt(float x) { return std::sqrt(x); }
  static float Pow(float x, float y) { return kernels::PowF32(x, y); }
  static float Normal(Key k) { return NormalF32(k); }
  static float Uniform(Key k) { return UniformF32(k); }
  static float Exponential(Key k) { return ExponentialF32(k); }
};

struct F64Ops {
  using T = double;
  static constexpr double kOneThird = 1.0 / 3.0;
  static constexpr double kSqueeze = 0.0331;
  static double Log(double x) { return std::log(x); }
  static double Sqrt(double x) { return std::sqrt(x); }
  static double Pow(double x, double y) { return std::pow(x, y); }
  static double Normal(Key k) { return NormalScalar(k); }
  static double Uniform(Key k) { return UniformScalar(k, 0.0, 1.0); }
  static double Exponential(Key k) { return ExponentialScalar(k); }
};

// JAX's _gamma_one, operation for operation (each rounded to T, no FMA). Its
// keys: (key, subkey) = split(k); each round of the outer loop splits key
// into (key, x_key, u_key), and the inner loop draws x from split(x_key)'s
// second key until v = 1 + x * c is positive, keeping the first as the next
// x_key; subkey draws the boost of alpha < 1. A key is hashed only when the
// draw needs it (a loop that goes on, a boost that is not 1): the values are
// JAX's, whatever is skipped.
template <typename Ops>
typename Ops::T GammaOne(Key k, typename Ops::T alpha, bool log_space) {
  using T = typename Ops::T;
  const T one = 1;
  const T zero = 0;
  const bool boost_mask = alpha >= one;  // false for NaN, as lax.ge
  const T alpha_boosted = boost_mask ? alpha : alpha + one;
  const T d = alpha_boosted - Ops::kOneThird;
  const T c = Ops::kOneThird / Ops::Sqrt(d);

  Key key = SplitKey(k, 0);
  T X = 0, V = 1, U = 2;  // JAX's initial state, rejected unless d is inf or NaN
  // Both comparisons are made (JAX's bitwise_and); a NaN in either accepts.
  auto reject = [&] {
    const bool squeeze = U >= one - Ops::kSqueeze * (X * X);
    const bool full = Ops::Log(U) >= X * T(0.5) + d * ((one - V) + Ops::Log(V));
    return squeeze && full;
  };
  for (int round = 0; reject(); ++round) {
    if (round == kMaxRounds) return std::numeric_limits<T>::quiet_NaN();
    if (round > 0) key = SplitKey(key, 0);
    Key x_key = SplitKey(key, 1);
    T x, v;
    for (int tries = 0;; ++tries) {
      if (tries == kMaxRounds) return std::numeric_limits<T>::quiet_NaN();
      if (tries > 0) x_key = SplitKey(x_key, 0);
      x = Ops::Normal(SplitKey(x_key, 1));
      v = one + x * c;
      if (!(v <= zero)) break;  // a NaN v leaves, as lax.le
    }
    X = x * x;
    V = (v * v) * v;
    U = Ops::Uniform(SplitKey(key, 2));
  }
  if (log_space) {
    const T log_dv = Ops::Log(d) + Ops::Log(V);
    if (boost_mask) return log_dv + zero;
    // -exponential(subkey) is log1p(-u), the log of JAX's boost base 1 - u.
    const T log_samples = -Ops::Exponential(SplitKey(k, 1));
    const T log_boost = log_samples == zero ? zero : log_samples * (one / alpha);
    return log_dv + log_boost;
  }
  const T dv = d * V;
  if (boost_mask) return dv * one;
  const T samples = one - Ops::Uniform(SplitKey(k, 1));
  return dv * Ops::Pow(samples, one / alpha);
}

}  // namespace

float GammaOneF32(Key k, float alpha, bool log_space) {
  return GammaOne<F32Ops>(k, alpha, log_space);
}

double GammaOneF64(Key k, double alpha, bool log_space) {
  return GammaOne<F64Ops>(k, alpha, log_space);
}

void Gamma(Key k, double a, uint64_t start, uint64_t count, float* out) {
  const float alpha = static_cast<float>(a);
  for (uint64_t j = 0; j < count; ++j) out[j] = GammaOneF32(SplitKey(k, start + j), alpha, false);
}

void GammaEach(Key k, const float* a, uint64_t start, uint64_t count, float* out) {
  for (uint64_t j = 0; j < count; ++j) out[j] = GammaOneF32(SplitKey(k, start + j), a[j], false);
}

// A 0-d draw splits its key into one: element 0's key.
double GammaScalar(Key k, double a) { return GammaOneF64(SplitKey(k, 0), a, false); }

void LogGamma(Key k, double a, uint64_t start, uint64_t count, float* out) {
  const float alpha = static_cast<float>(a);
  for (uint64_t j = 0; j < count; ++j) out[j] = GammaOneF32(SplitKey(k, start + j), alpha, true);
}

double LogGammaScalar(Key k, double a) { return GammaOneF64(SplitKey(k, 0), a, true); }

namespace {

float ChiSquareAt(Key k, float half_df, uint64_t i) {
  return kernels::ExpF32(GammaOneF32(SplitKey(k, i), half_df, true)) * 2.0f;
}

}  // namespace

void ChiSquare(Key k, double df, uint64_t start, uint64_t count, float* out) {
  const float half_df = static_cast<float>(df) / 2.0f;
  for (uint64_t j = 0; j < count; ++j) out[j] = ChiSquareAt(k, half_df, start + j);
}

double ChiSquareScalar(Key k, double df) { return std::exp(LogGammaScalar(k, df / 2.0)) * 2.0; }

void FDist(Key k, double dfnum, double dfden, uint64_t start, uint64_t count, float* out) {
  const float num_df = static_cast<float>(dfnum);
  const float den_df = static_cast<float>(dfden);
  const Key key_dfd = SplitKey(k, 0);
  const Key key_dfn = SplitKey(k, 1);
  for (uint64_t j = 0; j < count; ++j) {
    const float num = ChiSquareAt(key_dfn, num_df / 2.0f, start + j) / num_df;
    const float den = ChiSquareAt(key_dfd, den_df / 2.0f, start + j) / den_df;
    out[j] = num / den;
  }
}

double FDistScalar(Key k, double dfnum, double dfden) {
  const double num = ChiSquareScalar(SplitKey(k, 1), dfnum) / dfnum;
  const double den = ChiSquareScalar(SplitKey(k, 0), dfden) / dfden;
  return num / den;
}

void StudentT(Key k, double df, uint64_t start, uint64_t count, float* out) {
  const float half_df = static_cast<float>(df) / 2.0f;
  const Key key_n = SplitKey(k, 0);
  const Key key_g = SplitKey(k, 1);
  Normal(key_n, start, count, out);
  for (uint64_t j = 0; j < count; ++j) {
    const float g = GammaOneF32(SplitKey(key_g, start + j), half_df, false);
    out[j] = out[j] * std::sqrt(half_df / g);
  }
}

double StudentTScalar(Key k, double df) {
  const double half_df = df / 2.0;
  const double n = NormalScalar(SplitKey(k, 0));
  const double g = GammaScalar(SplitKey(k, 1), half_df);
  return n * std::sqrt(half_df / g);
}

}  // namespace alea::vm::random
