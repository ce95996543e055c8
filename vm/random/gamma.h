// The gamma family of jax.random (partitionable Threefry mode): gamma,
// loggamma, chisquare, f, t, beta, dirichlet, generalized_normal and ball,
// each as JAX computes it. Tensor forms fill f32 elements [start, start +
// count) of a draw (or rows, for the vector-valued dirichlet and ball) with
// the project's f32 math (vm/kernels/math_f32.h); scalar forms are JAX's 0-d
// float64 draw (jax_enable_x64) in double with the C library's math.
//
// Everything rests on JAX's _gamma_one, Marsaglia and Tsang's method with the
// alpha < 1 boost, run on one key per element: element i of a gamma draw of
// key k uses SplitKey(k, i) (JAX splits its key into one per element and maps
// _gamma_one over them). Its two rejection loops are per element, so every
// element depends only on (k, i): the draws are partitionable.
//
// Every function takes the counter-0 key it acts on (EffectiveKey(state)).
// Tensor forms hash with `batch` (DrawKernels: the JIT's keyed Threefry, or
// the reference's), the same bits either way. Scalar parameters of tensor forms arrive as double,
// as a Python float would, and are rounded to f32 where JAX converts them.
#ifndef ALEA_VM_RANDOM_GAMMA_H_
#define ALEA_VM_RANDOM_GAMMA_H_

#include <cstdint>

#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// JAX's _gamma_one(key, alpha, log_space) on the element's own key: a
// Gamma(alpha, 1) draw, or its log. alpha <= 0 and NaN give what JAX gives
// (0, -inf or NaN; no error). A loop that would run past 2^20 rounds, which
// JAX would run forever, gives NaN instead.
float GammaOneF32(Key k, float alpha, bool log_space);
double GammaOneF64(Key k, double alpha, bool log_space);

// gamma(k, a, shape): element i is GammaOneF32(SplitKey(k, i), f32(a)).
void Gamma(Key k, double a, uint64_t start, uint64_t count, float* out,
           const DrawKernels& batch = ReferenceKernels());
// gamma(k, a) with a tensor `a`: a[j] is element start + j's parameter.
void GammaEach(Key k, const float* a, uint64_t start, uint64_t count, float* out,
               const DrawKernels& batch = ReferenceKernels());
double GammaScalar(Key k, double a);

// loggamma: as gamma with log_space (JAX's log-space boost), the log of a
// Gamma(a, 1) draw, accurate where the draw itself underflows.
void LogGamma(Key k, double a, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch = ReferenceKernels());
double LogGammaScalar(Key k, double a);

// chisquare: 2 * exp(loggamma(k, df / 2)), df rounded to f32 first.
void ChiSquare(Key k, double df, uint64_t start, uint64_t count, float* out,
               const DrawKernels& batch = ReferenceKernels());
double ChiSquareScalar(Key k, double df);

// f: (chisquare(k1, dfnum) / dfnum) / (chisquare(k0, dfden) / dfden), (k0,
// k1) = split(k) (JAX names them key_dfd, key_dfn).
void FDist(Key k, double dfnum, double dfden, uint64_t start, uint64_t count, float* out,
           const DrawKernels& batch = ReferenceKernels());
double FDistScalar(Key k, double dfnum, double dfden);

// t: n * sqrt((df / 2) / g), n = normal(k0), g = gamma(k1, df / 2), (k0, k1)
// = split(k).
void StudentT(Key k, double df, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch = ReferenceKernels());
double StudentTScalar(Key k, double df);

// beta: ga / (ga + gb) from la = loggamma(k0, a) and lb = loggamma(k1, b),
// (k0, k1) = split(k), as ga = exp(la - m), gb = exp(lb - m), m = max(la, lb),
// so that neither underflows alone.
void Beta(Key k, double a, double b, uint64_t start, uint64_t count, float* out,
          const DrawKernels& batch = ReferenceKernels());
// beta with per-element parameters: a[j] and b[j] are element start + j's.
void BetaEach(Key k, const float* a, const float* b, uint64_t start, uint64_t count, float* out,
              const DrawKernels& batch = ReferenceKernels());
double BetaScalar(Key k, double a, double b);

// dirichlet over rows of n: element (r, j) draws l = loggamma(SplitKey(k, r *
// n + j), alpha(r, j)) and row r is softmax(l) (exp(l - max) over the sum of
// the row, summed left to right). alpha(r, j) is alpha[(r % alpha_rows) * n
// + j]: a batch of alpha_rows parameter vectors repeated over the rows (1
// for one vector). out holds rows [start_row, start_row + rows).
void Dirichlet(Key k, const float* alpha, uint64_t alpha_rows, uint64_t n, uint64_t start_row,
               uint64_t rows, float* out, const DrawKernels& batch = ReferenceKernels());

// generalized_normal: r * g^(1/p), g = gamma(k0, 1/p), r = +-1 with
// bernoulli(k1, 0.5) (JAX's rademacher), (k0, k1) = split(k); 1/p is computed
// in double and rounded once, as JAX's Python float.
void GeneralizedNormal(Key k, double p, uint64_t start, uint64_t count, float* out,
                       const DrawKernels& batch = ReferenceKernels());
double GeneralizedNormalScalar(Key k, double p);

// ball over rows of d: g = generalized_normal(k0, p) over the [rows, d] draw,
// e = exponential(k1) over the rows, (k0, k1) = split(k); row r is g / (sum
// |g|^p + e)^(1/p). out holds rows [start_row, start_row + rows).
void Ball(Key k, uint64_t d, double p, uint64_t start_row, uint64_t rows, float* out,
          const DrawKernels& batch = ReferenceKernels());

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_GAMMA_H_
