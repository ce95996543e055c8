// Matrix product reference kernel. Each output is one accumulator updated
// once per k, in ascending k (matmul.h); the loops run i, k, j so that b and
// the output row are walked contiguously, which reorders only operations on
// different outputs. A block of output columns is finished over all k before
// the next, so the accumulators stay in L1 for wide rows.
#include "vm/kernels/matmul.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {
namespace {

constexpr int64_t kColumnBlock = 1024;

template <typename T, typename Step>
void MatMulTyped(int64_t m, int64_t k, int64_t n, const T* a, const T* b, T* out, Step step) {
  for (int64_t i = 0; i < m; ++i) {
    const T* a_row = a + i * k;
    T* out_row = out + i * n;
    for (int64_t j0 = 0; j0 < n; j0 += kColumnBlock) {
      const int64_t j1 = std::min(n, j0 + kColumnBlock);
      std::fill(out_row + j0, out_row + j1, T{0});  // f32: +0.0f
      for (int64_t kk = 0; kk < k; ++kk) {
        const T x = a_row[kk];
        const T* b_row = b + kk * n;
        for (int64_t j = j0; j < j1; ++j) out_row[j] = step(x, b_row[j], out_row[j]);
      }
    }
  }
}

}  // namespace

void MatMul(DType dtype, int64_t m, int64_t k, int64_t n, const void* a, const void* b, void* out) {
  if (m <= 0 || n <= 0) return;
  switch (dtype) {
    case DType::kF32:
      // One rounding per step: the JIT's vfmadd chain gives the same bits.
      MatMulTyped<float>(m, k, n, static_cast<const float*>(a), static_cast<const float*>(b),
                         static_cast<float*>(out),
                         [](float x, float y, float acc) { return std::fma(x, y, acc); });
      return;
    case DType::kI32:
    case DType::kU32:
      // i32 on its unsigned view (layout-compatible, may alias): the
      // multiply-add wraps modulo 2^32 with no signed overflow, and the low
      // 32 bits of a product do not depend on signedness.
      MatMulTyped<uint32_t>(m, k, n, static_cast<const uint32_t*>(a),
                            static_cast<const uint32_t*>(b), static_cast<uint32_t*>(out),
                            [](uint32_t x, uint32_t y, uint32_t acc) { return acc + x * y; });
      return;
    case DType::kBool:
      break;
  }
  assert(false && "MatMul: unsupported dtype");
}

}  // namespace alea::vm::kernels
