// Products subtracted through the given matmul, and the recursive
// triangular solve (linalg_blocks.h). The loops keep the innermost index on
// contiguous rows, so they vectorize; vectorizing reorders nothing (each
// element's operations stay in sequence, and -ffp-contract=off keeps every
// multiply and subtract its own rounding).
#include "vm/kernels/linalg_blocks.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "vm/kernels/transpose.h"

namespace alea::vm::kernels::linalg {
namespace {

// Columns of b substituted together: the block's rows stay in L1.
constexpr int64_t kSolveColumns = 256;

// Buffers over this many bytes are not kept between calls.
constexpr size_t kKeepBytes = size_t{16} << 20;

struct ThreadScratch {
  Scratch scratch;
  int depth = 0;
};
thread_local ThreadScratch thread_scratch;

template <typename T>
void Trim(Buffer<T>& buffer) {
  if (buffer.size() * sizeof(T) > kKeepBytes) buffer.Free();
}

// The rows x cols block of v, contiguous: v itself, or a copy in `to`.
const float* Pack(View v, int64_t rows, int64_t cols, Buffer<float>& to) {
  if (v.cs == 1 && v.rs == cols) return v.p;
  float* out = to.Get(rows * cols);
  CopyBlock(v, rows, cols, out, cols);
  return out;
}

// A block of at most kBase rows of T x = b, substituted row by row (each
// element's operations in that order; the column chunks are independent).
void SolveRows(View t, bool lower, bool unit, Mut b, int64_t n, int64_t k) {
  for (int64_t j0 = 0; j0 < k; j0 += kSolveColumns) {
    const int64_t j1 = std::min(k, j0 + kSolveColumns);
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = lower ? step : n - 1 - step;
      float* x = b.row(i);
      const int64_t step_p = lower ? 1 : -1;
      for (int64_t p = lower ? 0 : n - 1; p != i; p += step_p) {
        const float f = t.at(i, p);
        const float* y = b.row(p);
        for (int64_t j = j0; j < j1; ++j) x[j] -= f * y[j];
      }
      if (!unit) {
        const float d = t.at(i, i);
        for (int64_t j = j0; j < j1; ++j) x[j] /= d;
      }
    }
  }
}

}  // namespace

ScratchUse::ScratchUse() : scratch_(thread_scratch.scratch) { ++thread_scratch.depth; }

ScratchUse::~ScratchUse() {
  if (--thread_scratch.depth > 0) return;
  for (Buffer<float>* b :
       {&scratch_.a, &scratch_.b, &scratch_.product, &scratch_.work, &scratch_.panel}) {
    Trim(*b);
  }
  Trim(scratch_.swaps);
}

void CopyBlock(View v, int64_t rows, int64_t cols, float* to, int64_t ld) {
  if (v.cs == 1) {
    for (int64_t i = 0; i < rows; ++i) std::copy_n(v.p + i * v.rs, cols, to + i * ld);
  } else if (v.rs == 1) {  // a transposed row-major block
    TransposeBlock(v.p, v.cs, cols, rows, to, ld);
  } else {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) to[i * ld + j] = v.at(i, j);
    }
  }
}

void Blocks::SubProduct(Mut c, View a, View b, int64_t m, int64_t k, int64_t n) {
  if (m <= 0 || n <= 0 || k <= 0) return;
  const float* pa = Pack(a, m, k, scratch_.a);
  const float* pb = Pack(b, k, n, scratch_.b);
  float* p = scratch_.product.Get(m * n);
  matmul_(m, k, n, pa, pb, p);
  for (int64_t i = 0; i < m; ++i) {
    float* row = c.row(i);
    const float* q = p + i * n;
    for (int64_t j = 0; j < n; ++j) row[j] -= q[j];
  }
}

void Blocks::SubGramUpper(Mut c, View at, View a, int64_t k, int64_t n) {
  if (n <= 2 * kBase) {
    SubProduct(c, at, a, n, k, n);
    return;
  }
  const int64_t h = Half(n);
  SubGramUpper(c, at, a, k, h);
  SubProduct(c.Sub(0, h), at, a.Sub(0, h), h, k, n - h);
  SubGramUpper(c.Sub(h, h), at.Sub(h, 0), a.Sub(0, h), k, n - h);
}

void Blocks::Solve(View t, bool lower, bool unit, Mut b, int64_t n, int64_t k) {
  if (n <= kBase) {
    SolveRows(t, lower, unit, b, n, k);
    return;
  }
  const int64_t h = Half(n);
  if (lower) {
    Solve(t, lower, unit, b, h, k);
    SubProduct(b.Sub(h, 0), t.Sub(h, 0), b.view(), n - h, h, k);
    Solve(t.Sub(h, h), lower, unit, b.Sub(h, 0), n - h, k);
  } else {
    Solve(t.Sub(h, h), lower, unit, b.Sub(h, 0), n - h, k);
    SubProduct(b, t.Sub(0, h), b.Sub(h, 0).view(), h, n - h, k);
    Solve(t, lower, unit, b, h, k);
  }
}

}  // namespace alea::vm::kernels::linalg
