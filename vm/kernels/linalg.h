// Linear algebra reference kernels on f32 square matrices: Cholesky, LU with
// partial pivoting, triangular solves, and what `solve`, `det` and `inv` make
// of them.
//
// Matrices are contiguous row-major; the arithmetic is f32 throughout (det's
// final product excepted, in double). The algorithms are recursive and
// blocked, with split points that depend only on the sizes: each level
// factors the leading half, updates the rest with one matrix product, and
// factors what remains; blocks of at most 32 (LU panels: 16) rows or columns
// run the textbook loops (linalg_blocks.h has the order of each). Every
// product goes through `matmul`, which must give kernels::MatMul's f32 bits
// (the JIT's matmul does, on any ISA and thread count), and is subtracted
// from its target afterwards, one rounding per element. So the operation
// order is fixed by the sizes alone: results are the same bits with or
// without the JIT, on any number of threads.
#ifndef ALEA_VM_KERNELS_LINALG_H_
#define ALEA_VM_KERNELS_LINALG_H_

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace alea::vm::kernels {

// out[m, n] = a[m, k] @ b[k, n] (contiguous row-major, out aliases neither)
// with kernels::MatMul's f32 FMA chain per output.
using MatMulF32Fn = absl::FunctionRef<void(int64_t m, int64_t k, int64_t n, const float* a,
                                           const float* b, float* out)>;

// A failed factorization: the pivot (row and column, from 0) and its value.
struct BadPivot {
  int64_t index = -1;  // -1: none
  float value = 0.0f;
};

// The lower Cholesky factor of a [n, n] (only its lower triangle is read,
// as LAPACK's spotrf with 'L' and NumPy): l = L with zeros above the
// diagonal. A pivot that is not > 0 (NaN included) stops it and is returned;
// l is then unspecified.
BadPivot Cholesky(int64_t n, const float* a, float* l, MatMulF32Fn matmul);

// LU with partial pivoting (LAPACK's sgetrf) of lu [n, n] in place: the unit
// lower L below the diagonal, U on and above it, and swaps[k] the row that
// was swapped with row k at step k. The pivot of column k is the first of
// the largest |lu[i, k]|, i >= k. A zero pivot is skipped (its column is not
// divided) and the factorization goes on, as sgetrf; the first is returned.
BadPivot LuFactor(int64_t n, float* lu, int64_t* swaps, MatMulF32Fn matmul);

// Solves A x = b for b [n, k] in place with LuFactor's result (no zero
// pivot): the swaps applied in order, then L and U substituted.
void LuSolve(int64_t n, const float* lu, const int64_t* swaps, int64_t k, float* b,
             MatMulF32Fn matmul);

// The determinant from LuFactor's result: the product of U's diagonal in
// ascending order, in double, negated once per actual swap, rounded to f32
// once; +0.0 when there was a zero pivot (NumPy's det of a singular matrix).
float LuDeterminant(int64_t n, const float* lu, const int64_t* swaps, bool zero_pivot);

// np.linalg.solve, det and inv of a [n, n] (not changed), by LuFactor of a
// copy and the functions above. Solve: b [n, k] in place; Inv: out [n, n] =
// A^-1 (LuSolve of the identity). A zero pivot is returned, b or out then
// unchanged or unspecified.
BadPivot Solve(int64_t n, const float* a, int64_t k, float* b, MatMulF32Fn matmul);
float Det(int64_t n, const float* a, MatMulF32Fn matmul);
BadPivot Inv(int64_t n, const float* a, float* out, MatMulF32Fn matmul);

// Solves T x = b for b [n, k] in place, with T the lower (or upper) triangle
// of t [n, n], its diagonal included; the other triangle is not read
// (scipy.linalg.solve_triangular). A zero on the diagonal is returned first,
// with b unchanged.
BadPivot SolveTriangular(int64_t n, const float* t, bool lower, int64_t k, float* b,
                         MatMulF32Fn matmul);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_LINALG_H_
