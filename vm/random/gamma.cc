// JAX's _gamma_one and the distributions built straight on it: gamma,
// loggamma, chisquare, f and t. The beta, dirichlet, generalized normal and
// ball draws are in gamma_family.cc.
#include "vm/random/gamma.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "vm/kernels/math_f32.h"
#include "vm/random/gamma_internal.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"

namespace alea::vm::random {

using gamma_internal::GammaOneRangeF32;
using gamma_internal::GammaSteps;

namespace {

// Far past any loop a valid alpha runs (each round accepts with probability
// above 0.95 for alpha >= 1), and a bound where JAX would spin forever.
constexpr int kMaxRounds = 1 << 20;

// The 0-d sub-draws of each dtype: element 0 of samplers.h's f32 draws, or
// scalar.h's float64 ones.
struct F32Draws {
  static float Normal(Key k) {
    float x;
    random::Normal(k, 0, 1, &x);
    return x;
  }
  static float Uniform(Key k) {
    float u;
    random::Uniform(k, 0, 1, 0.0f, 1.0f, &u);
    return u;
  }
};

struct F64Draws {
  static double Normal(Key k) { return NormalScalar(k); }
  static double Uniform(Key k) { return UniformScalar(k, 0.0, 1.0); }
};

// JAX's _gamma_one. Its keys: (key, subkey) = split(k); each round of the
// outer loop splits key into (key, x_key, u_key), and the inner loop draws x
// from split(x_key)'s second key until v = 1 + x * c is positive, keeping the
// first as the next x_key; subkey draws the boost of alpha < 1. A key is
// hashed only when the draw needs it (a loop that goes on, a boost that is
// not 1): the values are JAX's, whatever is skipped.
template <typename M, typename Draws>
typename M::T GammaOne(Key k, typename M::T alpha, bool log_space) {
  using T = typename M::T;
  const GammaSteps<M> steps(alpha);
  Key key = SplitKey(k, 0);
  T X = 0, V = 1, U = 2;  // JAX's initial state, rejected unless d is inf or NaN
  for (int round = 0; steps.Reject(X, V, U); ++round) {
    if (round == kMaxRounds) return std::numeric_limits<T>::quiet_NaN();
    if (round > 0) key = SplitKey(key, 0);
    Key x_key = SplitKey(key, 1);
    T x, v;
    for (int tries = 0;; ++tries) {
      if (tries == kMaxRounds) return std::numeric_limits<T>::quiet_NaN();
      if (tries > 0) x_key = SplitKey(x_key, 0);
      x = Draws::Normal(SplitKey(x_key, 1));
      v = T(1) + x * steps.c;
      if (!(v <= T(0))) break;  // a NaN v leaves, as lax.le
    }
    X = x * x;
    V = (v * v) * v;
    U = Draws::Uniform(SplitKey(key, 2));
  }
  return steps.Finish(V, log_space, [&] { return Draws::Uniform(SplitKey(k, 1)); });
}

}  // namespace

float GammaOneF32(Key k, float alpha, bool log_space) {
  return GammaOne<gamma_internal::F32Math, F32Draws>(k, alpha, log_space);
}

double GammaOneF64(Key k, double alpha, bool log_space) {
  return GammaOne<gamma_internal::F64Math, F64Draws>(k, alpha, log_space);
}

void Gamma(Key k, double a, uint64_t start, uint64_t count, float* out, const DrawKernels& batch) {
  const float alpha = static_cast<float>(a);
  GammaOneRangeF32(k, start, count, &alpha, 0, false, out, batch);
}

void GammaEach(Key k, const float* a, uint64_t start, uint64_t count, float* out,
               const DrawKernels& batch) {
  GammaOneRangeF32(k, start, count, a, 1, false, out, batch);
}

// A 0-d draw splits its key into one: element 0's key.
double GammaScalar(Key k, double a) { return GammaOneF64(SplitKey(k, 0), a, false); }

void LogGamma(Key k, double a, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch) {
  const float alpha = static_cast<float>(a);
  GammaOneRangeF32(k, start, count, &alpha, 0, true, out, batch);
}

double LogGammaScalar(Key k, double a) { return GammaOneF64(SplitKey(k, 0), a, true); }

namespace {

// Draws that combine two gamma draws per element make one of them in a
// scratch buffer of this many elements at a time.
constexpr uint64_t kChunk = 256;

// chisquare's 2 * exp(loggamma(df / 2)), df rounded to f32 first.
void ChiSquareF32(Key k, float df, uint64_t start, uint64_t count, float* out,
                  const DrawKernels& batch) {
  const float half_df = df / 2.0f;
  GammaOneRangeF32(k, start, count, &half_df, 0, true, out, batch);
  for (uint64_t j = 0; j < count; ++j) out[j] = kernels::ExpF32(out[j]) * 2.0f;
}

}  // namespace

void ChiSquare(Key k, double df, uint64_t start, uint64_t count, float* out,
               const DrawKernels& batch) {
  ChiSquareF32(k, static_cast<float>(df), start, count, out, batch);
}

double ChiSquareScalar(Key k, double df) { return std::exp(LogGammaScalar(k, df / 2.0)) * 2.0; }

void FDist(Key k, double dfnum, double dfden, uint64_t start, uint64_t count, float* out,
           const DrawKernels& batch) {
  const float num_df = static_cast<float>(dfnum);
  const float den_df = static_cast<float>(dfden);
  const Key key_dfd = SplitKey(k, 0);
  const Key key_dfn = SplitKey(k, 1);
  float den[kChunk];
  for (uint64_t done = 0; done < count; done += kChunk) {
    const uint64_t n = std::min(kChunk, count - done);
    float* num = out + done;
    ChiSquareF32(key_dfn, num_df, start + done, n, num, batch);
    ChiSquareF32(key_dfd, den_df, start + done, n, den, batch);
    for (uint64_t j = 0; j < n; ++j) num[j] = (num[j] / num_df) / (den[j] / den_df);
  }
}

double FDistScalar(Key k, double dfnum, double dfden) {
  const double num = ChiSquareScalar(SplitKey(k, 1), dfnum) / dfnum;
  const double den = ChiSquareScalar(SplitKey(k, 0), dfden) / dfden;
  return num / den;
}

void StudentT(Key k, double df, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch) {
  const float half_df = static_cast<float>(df) / 2.0f;
  const Key key_n = SplitKey(k, 0);
  const Key key_g = SplitKey(k, 1);
  Normal(key_n, start, count, out);
  float g[kChunk];
  for (uint64_t done = 0; done < count; done += kChunk) {
    const uint64_t n = std::min(kChunk, count - done);
    GammaOneRangeF32(key_g, start + done, n, &half_df, 0, false, g, batch);
    for (uint64_t j = 0; j < n; ++j) out[done + j] = out[done + j] * std::sqrt(half_df / g[j]);
  }
}

double StudentTScalar(Key k, double df) {
  const double half_df = df / 2.0;
  const double n = NormalScalar(SplitKey(k, 0));
  const double g = GammaScalar(SplitKey(k, 1), half_df);
  return n * std::sqrt(half_df / g);
}

}  // namespace alea::vm::random
