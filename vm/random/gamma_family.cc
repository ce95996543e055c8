// The gamma family's draws built from several gamma draws: beta, dirichlet,
// generalized_normal and ball (gamma.h), on gamma.cc's GammaOneF32/F64.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "vm/kernels/math_f32.h"
#include "vm/random/gamma.h"
#include "vm/random/gamma_internal.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"

namespace alea::vm::random {

using gamma_internal::GammaOneRangeF32;

namespace {

// XLA's max: NaN if either operand is NaN.
float MaxF32(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  return a > b ? a : b;
}

// x ** y for a y that JAX holds as a Python constant. XLA rewrites pow(x, 2)
// as x * x and pow(x, 1) as x, and jnp.power of the Python int 2 (ball's
// default p) is lax.integer_pow, x * x as well; other exponents go to pow.
float PowOfConstant(float x, float y) {
  if (y == 2.0f) return x * x;
  if (y == 1.0f) return x;
  return kernels::PowF32(x, y);
}

double PowOfConstant(double x, double y) {
  if (y == 2.0) return x * x;
  if (y == 1.0) return x;
  return std::pow(x, y);
}

// JAX's beta from the two log-gamma draws, in place of la: scaled by the
// larger, so that a ratio of two underflowing gammas stays finite. The exps
// run as batches; lb is overwritten.
void BetaOfLogs(float* la, float* lb, uint64_t n, const DrawKernels& batch) {
  for (uint64_t j = 0; j < n; ++j) {
    const float m = MaxF32(la[j], lb[j]);
    la[j] = la[j] - m;
    lb[j] = lb[j] - m;
  }
  batch.Exp(la, la, n);
  batch.Exp(lb, lb, n);
  for (uint64_t j = 0; j < n; ++j) la[j] = la[j] / (la[j] + lb[j]);
}

// Draws that combine gamma draws with others make those in a scratch buffer
// of this many elements at a time.
constexpr uint64_t kChunk = 256;

}  // namespace

void Beta(Key k, double a, double b, uint64_t start, uint64_t count, float* out,
          const DrawKernels& batch) {
  const float fa = static_cast<float>(a);
  const float fb = static_cast<float>(b);
  const Key key_a = SplitKey(k, 0);
  const Key key_b = SplitKey(k, 1);
  float lb[kChunk];
  for (uint64_t done = 0; done < count; done += kChunk) {
    const uint64_t n = std::min(kChunk, count - done);
    float* la = out + done;
    GammaOneRangeF32(key_a, start + done, n, &fa, 0, true, la, batch);
    GammaOneRangeF32(key_b, start + done, n, &fb, 0, true, lb, batch);
    BetaOfLogs(la, lb, n, batch);
  }
}

void BetaEach(Key k, const float* a, const float* b, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch) {
  const Key key_a = SplitKey(k, 0);
  const Key key_b = SplitKey(k, 1);
  float lb[kChunk];
  for (uint64_t done = 0; done < count; done += kChunk) {
    const uint64_t n = std::min(kChunk, count - done);
    float* la = out + done;
    GammaOneRangeF32(key_a, start + done, n, a + done, 1, true, la, batch);
    GammaOneRangeF32(key_b, start + done, n, b + done, 1, true, lb, batch);
    BetaOfLogs(la, lb, n, batch);
  }
}

double BetaScalar(Key k, double a, double b) {
  const double la = LogGammaScalar(SplitKey(k, 0), a);
  const double lb = LogGammaScalar(SplitKey(k, 1), b);
  const double m = std::isnan(la) || std::isnan(lb) ? la + lb : (la > lb ? la : lb);
  const double ga = std::exp(la - m);
  const double gb = std::exp(lb - m);
  return ga / (ga + gb);
}

void Dirichlet(Key k, const float* alpha, uint64_t alpha_rows, uint64_t n, uint64_t start_row,
               uint64_t rows, float* out, const DrawKernels& batch) {
  if (n == 0) return;
  // The log-gamma draws of as many whole rows as fit a chunk (at least one),
  // each element with its alpha.
  const uint64_t rows_per_chunk = std::max<uint64_t>(1, kChunk / n);
  std::vector<float> element_alpha(rows_per_chunk * n);
  for (uint64_t done = 0; done < rows; done += rows_per_chunk) {
    const uint64_t chunk_rows = std::min(rows_per_chunk, rows - done);
    for (uint64_t r = 0; r < chunk_rows; ++r) {
      const float* a = alpha + ((start_row + done + r) % alpha_rows) * n;
      std::copy(a, a + n, element_alpha.begin() + static_cast<int64_t>(r * n));
    }
    float* x = out + done * n;
    GammaOneRangeF32(k, (start_row + done) * n, chunk_rows * n, element_alpha.data(), 1, true, x,
                     batch);
    for (uint64_t r = 0; r < chunk_rows; ++r, x += n) {
      // JAX's _softmax: jnp.max (from -inf, NaN-propagating), then exp(x -
      // max) over its sum.
      float m = -std::numeric_limits<float>::infinity();
      for (uint64_t j = 0; j < n; ++j) m = MaxF32(m, x[j]);
      float sum = 0.0f;
      for (uint64_t j = 0; j < n; ++j) {
        x[j] = kernels::ExpF32(x[j] - m);
        sum = sum + x[j];
      }
      for (uint64_t j = 0; j < n; ++j) x[j] = x[j] / sum;
    }
  }
}

void GeneralizedNormal(Key k, double p, uint64_t start, uint64_t count, float* out,
                       const DrawKernels& batch) {
  const float inv_p = static_cast<float>(1.0 / p);
  const Key key_g = SplitKey(k, 0);
  const Key key_r = SplitKey(k, 1);
  GammaOneRangeF32(key_g, start, count, &inv_p, 0, false, out, batch);
  float u[kChunk];
  for (uint64_t done = 0; done < count; done += kChunk) {
    const uint64_t n = std::min(kChunk, count - done);
    // rademacher: bernoulli(0.5) as 1 or 0, then 2 * b - 1.
    Uniform(key_r, start + done, n, 0.0f, 1.0f, u);
    for (uint64_t j = 0; j < n; ++j) {
      const float r = u[j] < 0.5f ? 1.0f : -1.0f;
      out[done + j] = r * PowOfConstant(out[done + j], inv_p);
    }
  }
}

double GeneralizedNormalScalar(Key k, double p) {
  const double inv_p = 1.0 / p;
  const double g = GammaScalar(SplitKey(k, 0), inv_p);
  // JAX's bernoulli takes the dtype of its p, the Python float 0.5: float64.
  const double r = BernoulliScalar(SplitKey(k, 1), 0.5) ? 1.0 : -1.0;
  return r * PowOfConstant(g, inv_p);
}

void Ball(Key k, uint64_t d, double p, uint64_t start_row, uint64_t rows, float* out,
          const DrawKernels& batch) {
  const float pf = static_cast<float>(p);
  const float inv_p = static_cast<float>(1.0 / p);
  const Key key_g = SplitKey(k, 0);
  const Key key_e = SplitKey(k, 1);
  GeneralizedNormal(key_g, p, start_row * d, rows * d, out, batch);
  float e[kChunk];
  for (uint64_t done = 0; done < rows; done += kChunk) {
    const uint64_t n = std::min(kChunk, rows - done);
    Exponential(key_e, start_row + done, n, e);
    for (uint64_t r = 0; r < n; ++r) {
      float* g = out + (done + r) * d;
      float sum = 0.0f;
      for (uint64_t j = 0; j < d; ++j) sum = sum + PowOfConstant(std::fabs(g[j]), pf);
      const float norm = PowOfConstant(sum + e[r], inv_p);
      for (uint64_t j = 0; j < d; ++j) g[j] = g[j] / norm;
    }
  }
}

}  // namespace alea::vm::random
