// The blocked pieces the linear algebra kernels (linalg.h) are made of:
// strided matrix views, "subtract a product" through the given matmul, and
// the recursive triangular solve. Internal to vm/kernels/linalg*.cc.
#ifndef ALEA_VM_KERNELS_LINALG_BLOCKS_H_
#define ALEA_VM_KERNELS_LINALG_BLOCKS_H_

#include <cstdint>
#include <vector>

#include "vm/kernels/linalg.h"

namespace alea::vm::kernels::linalg {

// Blocks of at most this many rows or columns run the textbook loops.
inline constexpr int64_t kBase = 32;

// Where a block of n > kBase splits: about half, on a multiple of 16, so
// that the products have whole vector widths.
inline int64_t Half(int64_t n) {
  const int64_t h = (n / 2 + 15) / 16 * 16;
  return h < n ? h : n / 2;
}

// A matrix read through strides: element (i, j) is p[i * rs + j * cs]. A
// transposed view swaps the strides.
struct View {
  const float* p;
  int64_t rs, cs;
  float at(int64_t i, int64_t j) const { return p[i * rs + j * cs]; }
  View Sub(int64_t i, int64_t j) const { return {p + i * rs + j * cs, rs, cs}; }
  View T() const { return {p, cs, rs}; }
};

// A row-major matrix being written: element (i, j) is p[i * ld + j].
struct Mut {
  float* p;
  int64_t ld;
  float* row(int64_t i) const { return p + i * ld; }
  Mut Sub(int64_t i, int64_t j) const { return {p + i * ld + j, ld}; }
  View view() const { return {p, ld, 1}; }
};

// Copies the rows x cols block of v into `to` (row stride ld); a transposed
// view goes through in square tiles, so that neither side strides through
// memory a float at a time.
void CopyBlock(View v, int64_t rows, int64_t cols, float* to, int64_t ld);

// The matmul and the buffers its operands are packed into (kept across
// calls, so a factorization allocates them once).
class Blocks {
 public:
  explicit Blocks(MatMulF32Fn matmul) : matmul_(matmul) {}

  // c[m, n] -= a[m, k] @ b[k, n]: the product alone (matmul's FMA chain per
  // element, from +0.0) then one subtraction per element.
  void SubProduct(Mut c, View a, View b, int64_t m, int64_t k, int64_t n);

  // c[n, n] -= a[k, n]^T @ a[k, n] on and above the diagonal only (c's
  // other elements may change too: callers never read them), given at =
  // a^T [n, k] as well. Blocks of at most 2 kBase are whole products; larger
  // ones split in halves.
  void SubGramUpper(Mut c, View at, View a, int64_t k, int64_t n);

  // Solves T x = b in place for b [n, k], T triangular [n, n] (lower or
  // upper; a unit diagonal is not read). Order: a block of at most kBase
  // rows substitutes row by row (lower: row i -= T(i, p) row p for p = 0,
  // 1... < i, then row i /= T(i, i); upper: the same from the last row up,
  // p descending from n - 1); a larger one solves its first half (upper:
  // its second), subtracts T's off-diagonal block times it from the other
  // half (SubProduct), and solves that.
  void Solve(View t, bool lower, bool unit, Mut b, int64_t n, int64_t k);

 private:
  MatMulF32Fn matmul_;
  std::vector<float> a_, b_, product_;
};

}  // namespace alea::vm::kernels::linalg

#endif  // ALEA_VM_KERNELS_LINALG_BLOCKS_H_
