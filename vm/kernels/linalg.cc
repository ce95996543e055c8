// Cholesky, LU and what is built on them (linalg.h), over the blocked pieces
// of linalg_blocks.h.
//
// Cholesky computes the upper factor U = L^T on the transposed lower
// triangle (A = U^T U), so that every inner loop walks a contiguous row:
// unblocked, step k takes the pivot d = w[k, k] (after the earlier steps'
// updates), stops unless d > 0, sets u = sqrt(d), divides the rest of row k
// by u, and subtracts w[k, i] * w[k, j] from each w[i, j] below it (j >= i),
// i and j ascending. Blocked: factor the leading half, solve U11^T U12 = W12
// (Blocks::Solve), W22 -= U12^T U12 (Blocks::SubGramUpper), factor W22.
//
// LU is Toledo's recursive LU with partial pivoting: a panel of at most 16
// columns is factored column by column (pivot: the first largest |a[i, k]|
// at or below the diagonal; whole rows swapped; the column below divided by
// the pivot; the rest of the panel updated by a[i, j] -= l[i, k] * a[k, j],
// i and j ascending; computed on a column-major copy of the panel, which
// changes no operation); a wider one factors its left half, solves
// L11 U12 = A12, subtracts L21 U12 from A22 and factors that.
#include "vm/kernels/linalg.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "vm/kernels/linalg_blocks.h"

namespace alea::vm::kernels {
namespace {

using linalg::Blocks;
using linalg::Half;
using linalg::kBase;
using linalg::Mut;
using linalg::ScratchUse;
using linalg::View;

// LU panels this narrow or narrower are factored column by column.
constexpr int64_t kPanelBase = 16;

// A block of at most kBase: U on and above the diagonal, and U^T (L) below
// it too.
BadPivot CholeskyRows(Mut w, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    float* row_k = w.row(k);
    const float d = row_k[k];
    if (!(d > 0.0f)) return {k, d};
    const float u = std::sqrt(d);
    row_k[k] = u;
    for (int64_t j = k + 1; j < n; ++j) row_k[j] /= u;
    for (int64_t j = k + 1; j < n; ++j) w.row(j)[k] = row_k[j];
    for (int64_t i = k + 1; i < n; ++i) {
      const float s = row_k[i];
      float* row_i = w.row(i);
      for (int64_t j = i; j < n; ++j) row_i[j] -= s * row_k[j];
    }
  }
  return {};
}

BadPivot CholeskyUpper(Blocks& blocks, Mut w, int64_t n) {
  if (n <= kBase) return CholeskyRows(w, n);
  const int64_t h = Half(n);
  if (BadPivot bad = CholeskyUpper(blocks, w, h); bad.index >= 0) return bad;
  // U11^T is lower triangular: U11 read with its strides swapped. L21 =
  // U12^T goes below the diagonal, where W's own elements are no longer
  // needed: the Gram product's left operand, and the result's lower part.
  blocks.Solve(w.view().T(), /*lower=*/true, /*unit=*/false, w.Sub(0, h), h, n - h);
  linalg::CopyBlock(w.Sub(0, h).view().T(), n - h, h, w.Sub(h, 0).p, w.ld);
  blocks.SubGramUpper(w.Sub(h, h), w.Sub(h, 0).view(), w.Sub(0, h).view(), h, n - h);
  BadPivot bad = CholeskyUpper(blocks, w.Sub(h, h), n - h);
  if (bad.index >= 0) bad.index += h;
  return bad;
}

// LU's state: a (n x n, row-major) being factored in place, the swaps, the
// first zero pivot, and the buffer of a leaf panel's column-major copy.
struct Lu {
  Blocks& blocks;
  float* a;
  int64_t n;
  int64_t* swaps;
  BadPivot zero;
  linalg::Buffer<float>& panel;
};

// Columns [c0, c0 + width) from row c0 down, column by column, in a
// column-major copy (the pivot search and the updates then walk contiguous
// columns); the swaps reach the rest of the rows afterwards, in order.
void LuLeaf(Lu& lu, int64_t c0, int64_t width) {
  const int64_t n = lu.n, m = n - c0;
  float* const corner = lu.a + c0 * n + c0;
  float* const col = lu.panel.Get(m * width);  // column j at col + j * m
  linalg::CopyBlock(View{corner, n, 1}.T(), width, m, col, m);
  for (int64_t k = 0; k < width; ++k) {
    float* const ck = col + k * m;
    int64_t p = k;
    float best = std::fabs(ck[k]);
    for (int64_t i = k + 1; i < m; ++i) {
      const float v = std::fabs(ck[i]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    lu.swaps[c0 + k] = c0 + p;
    if (p != k) {
      for (int64_t j = 0; j < width; ++j) std::swap(col[j * m + k], col[j * m + p]);
    }
    const float pivot = ck[k];
    if (pivot == 0.0f) {
      if (lu.zero.index < 0) lu.zero = {c0 + k, pivot};
      continue;
    }
    for (int64_t i = k + 1; i < m; ++i) ck[i] /= pivot;
    for (int64_t j = k + 1; j < width; ++j) {
      float* const cj = col + j * m;
      const float u = cj[k];
      for (int64_t i = k + 1; i < m; ++i) cj[i] -= ck[i] * u;
    }
  }
  linalg::CopyBlock(View{col, 1, m}, m, width, corner, n);
  const int64_t end = c0 + width;
  for (int64_t k = c0; k < end; ++k) {
    const int64_t p = lu.swaps[k];
    if (p == k) continue;
    float* const row_k = lu.a + k * n;
    float* const row_p = lu.a + p * n;
    std::swap_ranges(row_k, row_k + c0, row_p);
    std::swap_ranges(row_k + end, row_k + n, row_p + end);
  }
}

// Columns [c0, c0 + width) from row c0 down, the columns before them
// already factored.
void LuPanel(Lu& lu, int64_t c0, int64_t width) {
  if (width <= kPanelBase) {
    LuLeaf(lu, c0, width);
    return;
  }
  const int64_t h = Half(width);
  LuPanel(lu, c0, h);
  const Mut m{lu.a, lu.n};
  lu.blocks.Solve(m.Sub(c0, c0).view(), /*lower=*/true, /*unit=*/true, m.Sub(c0, c0 + h), h,
                  width - h);
  lu.blocks.SubProduct(m.Sub(c0 + h, c0 + h), m.Sub(c0 + h, c0).view(), m.Sub(c0, c0 + h).view(),
                       lu.n - c0 - h, h, width - h);
  LuPanel(lu, c0 + h, width - h);
}

}  // namespace

BadPivot Cholesky(int64_t n, const float* a, float* l, MatMulF32Fn matmul) {
  // W = a^T: its upper triangle is a's lower one. Its lower triangle (a's
  // upper one, possibly anything) is never read: it receives L piece by
  // piece (whole-block products update parts of it before that).
  const ScratchUse scratch;
  float* w = scratch->work.Get(n * n);
  linalg::CopyBlock(View{a, n, 1}.T(), n, n, w, n);
  Blocks blocks(matmul, *scratch);
  const BadPivot bad = CholeskyUpper(blocks, Mut{w, n}, n);
  if (bad.index >= 0) return bad;
  // W holds L = U^T on and below the diagonal; zeros above it.
  for (int64_t i = 0; i < n; ++i) {
    std::copy_n(w + i * n, i + 1, l + i * n);
    std::fill(l + i * n + i + 1, l + i * n + n, 0.0f);
  }
  return {};
}

BadPivot LuFactor(int64_t n, float* lu, int64_t* swaps, MatMulF32Fn matmul) {
  const ScratchUse scratch;
  Blocks blocks(matmul, *scratch);
  Lu state{blocks, lu, n, swaps, {}, scratch->panel};
  if (n > 0) LuPanel(state, 0, n);
  return state.zero;
}

void LuSolve(int64_t n, const float* lu, const int64_t* swaps, int64_t k, float* b,
             MatMulF32Fn matmul) {
  for (int64_t i = 0; i < n; ++i) {
    if (swaps[i] != i) std::swap_ranges(b + i * k, b + i * k + k, b + swaps[i] * k);
  }
  const ScratchUse scratch;
  Blocks blocks(matmul, *scratch);
  const View t{lu, n, 1};
  blocks.Solve(t, /*lower=*/true, /*unit=*/true, Mut{b, k}, n, k);
  blocks.Solve(t, /*lower=*/false, /*unit=*/false, Mut{b, k}, n, k);
}

float LuDeterminant(int64_t n, const float* lu, const int64_t* swaps, bool zero_pivot) {
  if (zero_pivot) return 0.0f;
  double det = 1.0;
  for (int64_t i = 0; i < n; ++i) {
    det *= lu[i * n + i];
    if (swaps[i] != i) det = -det;
  }
  return static_cast<float>(det);
}

BadPivot SolveTriangular(int64_t n, const float* t, bool lower, int64_t k, float* b,
                         MatMulF32Fn matmul) {
  for (int64_t i = 0; i < n; ++i) {
    if (t[i * n + i] == 0.0f) return {i, 0.0f};
  }
  const ScratchUse scratch;
  Blocks blocks(matmul, *scratch);
  blocks.Solve(View{t, n, 1}, lower, /*unit=*/false, Mut{b, k}, n, k);
  return {};
}

BadPivot Solve(int64_t n, const float* a, int64_t k, float* b, MatMulF32Fn matmul) {
  const ScratchUse scratch;
  float* lu = scratch->work.Get(n * n);
  int64_t* swaps = scratch->swaps.Get(n);
  std::copy_n(a, n * n, lu);
  const BadPivot zero = LuFactor(n, lu, swaps, matmul);
  if (zero.index < 0) LuSolve(n, lu, swaps, k, b, matmul);
  return zero;
}

float Det(int64_t n, const float* a, MatMulF32Fn matmul) {
  const ScratchUse scratch;
  float* lu = scratch->work.Get(n * n);
  int64_t* swaps = scratch->swaps.Get(n);
  std::copy_n(a, n * n, lu);
  const BadPivot zero = LuFactor(n, lu, swaps, matmul);
  return LuDeterminant(n, lu, swaps, zero.index >= 0);
}

BadPivot Inv(int64_t n, const float* a, float* out, MatMulF32Fn matmul) {
  const ScratchUse scratch;
  float* lu = scratch->work.Get(n * n);
  int64_t* swaps = scratch->swaps.Get(n);
  std::copy_n(a, n * n, lu);
  const BadPivot zero = LuFactor(n, lu, swaps, matmul);
  if (zero.index >= 0) return zero;
  std::fill(out, out + n * n, 0.0f);
  for (int64_t d = 0; d < n; ++d) out[d * n + d] = 1.0f;
  LuSolve(n, lu, swaps, n, out, matmul);
  return zero;
}

}  // namespace alea::vm::kernels
