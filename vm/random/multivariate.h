// Multivariate draws built on normal f32 draws (samplers.h) and the linear
// algebra reference kernels: JAX's multivariate_normal (method 'cholesky')
// and orthogonal. Both are partitionable by rows of the result: row b uses
// the elements of the normal draw that JAX's row b uses, whatever the split.
// Every function takes the counter-0 key it acts on (EffectiveKey(state)).
#ifndef ALEA_VM_RANDOM_MULTIVARIATE_H_
#define ALEA_VM_RANDOM_MULTIVARIATE_H_

#include <cstdint>

#include "vm/kernels/linalg.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// lt [n, n] = the transpose of cov's lower Cholesky factor (kernels::Cholesky
// with the reference matmul: the same bits as `cholesky`), or its failing
// pivot when cov is not positive definite (lt is then unspecified).
kernels::BadPivot CovarianceFactor(int64_t n, const float* cov, float* lt);

// Rows [start_row, start_row + rows) of multivariate_normal's [batch, n]
// result: row b = mean + z_b @ L^T in f32, z_b = elements [b n, (b + 1) n)
// of normal(k) over [batch, n] and each dot product one FMA chain over
// ascending j (kernels::MatMul; JAX's einsum leaves the order to XLA), then
// mean added with one rounding. lt from CovarianceFactor.
void MultivariateNormal(Key k, const float* mean, const float* lt, int64_t n, uint64_t start_row,
                        uint64_t rows, float* out);

// Matrices [start, start + count) of orthogonal(k, n)'s [batch, n, n] result:
// matrix b is the Q of the QR of the normal draw's elements [b n^2, (b + 1)
// n^2) (kernels::HouseholderQr), each column times d / |d| for d its R
// diagonal element, so that R's diagonal is positive (Mezzadri's method, as
// JAX); a zero d gives a NaN column, as JAX's.
void Orthogonal(Key k, int64_t n, uint64_t start, uint64_t count, float* out);

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_MULTIVARIATE_H_
