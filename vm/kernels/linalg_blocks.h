// The blocked pieces the linear algebra kernels (linalg.h) are made of:
// strided matrix views, "subtract a product" through the given matmul, and
// the recursive triangular solve. Internal to vm/kernels/linalg*.cc.
#ifndef ALEA_VM_KERNELS_LINALG_BLOCKS_H_
#define ALEA_VM_KERNELS_LINALG_BLOCKS_H_

#include <cstddef>
#include <cstdint>
#include <memory>

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

// A buffer of T that only grows, its elements left uninitialized.
template <typename T>
class Buffer {
 public:
  T* Get(int64_t n) {
    if (static_cast<size_t>(n) > size_) {
      data_.reset(new T[static_cast<size_t>(n)]);
      size_ = static_cast<size_t>(n);
    }
    return data_.get();
  }
  size_t size() const { return size_; }
  void Free() {
    data_.reset();
    size_ = 0;
  }

 private:
  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
};

// The kernels' buffers, kept per thread between calls, so that a loop of
// factorizations allocates (and page-faults) nothing once they have grown,
// as the JIT's matmul keeps its packing buffer.
struct Scratch {
  Buffer<float> a, b, product;  // Blocks: packed operands, the product
  Buffer<float> work, panel;    // a factorization's matrix, an LU leaf panel
  Buffer<int64_t> swaps;
};

// This thread's Scratch, held for the life of the ScratchUse. When the
// outermost one ends, buffers over 16 MiB are freed.
class ScratchUse {
 public:
  ScratchUse();
  ~ScratchUse();
  ScratchUse(const ScratchUse&) = delete;
  ScratchUse& operator=(const ScratchUse&) = delete;
  Scratch& operator*() const { return scratch_; }
  Scratch* operator->() const { return &scratch_; }

 private:
  Scratch& scratch_;
};

// The matmul and the buffers its operands are packed into.
class Blocks {
 public:
  Blocks(MatMulF32Fn matmul, Scratch& scratch) : matmul_(matmul), scratch_(scratch) {}

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
  Scratch& scratch_;
};

}  // namespace alea::vm::kernels::linalg

#endif  // ALEA_VM_KERNELS_LINALG_BLOCKS_H_
