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

// i32: the same loops, each step's product and sum taken exactly in int64 and
// checked against i32's range. Branch-free, so it vectorises; the flag is
// looked at once per call.
bool MatMulI32(int64_t m, int64_t k, int64_t n, const int32_t* a, const int32_t* b, int32_t* out) {
  bool overflow = false;
  for (int64_t i = 0; i < m; ++i) {
    const int32_t* a_row = a + i * k;
    int32_t* out_row = out + i * n;
    for (int64_t j0 = 0; j0 < n; j0 += kColumnBlock) {
      const int64_t j1 = std::min(n, j0 + kColumnBlock);
      std::fill(out_row + j0, out_row + j1, 0);
      for (int64_t kk = 0; kk < k; ++kk) {
        const int64_t x = a_row[kk];
        const int32_t* b_row = b + kk * n;
        for (int64_t j = j0; j < j1; ++j) {
          const int64_t sum = out_row[j] + x * b_row[j];
          overflow |= sum != static_cast<int32_t>(sum);
          out_row[j] = static_cast<int32_t>(sum);
        }
      }
    }
  }
  return !overflow;
}

}  // namespace

I32MatMulOverflow FirstI32MatMulOverflow(int64_t m, int64_t k, int64_t n, const int32_t* a,
                                         const int32_t* b) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      int32_t partial = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        const int32_t x = a[i * k + kk], y = b[kk * n + j];
        const int64_t sum = partial + static_cast<int64_t>(x) * y;
        if (sum != static_cast<int32_t>(sum)) return {i * n + j, partial, x, y};
        partial = static_cast<int32_t>(sum);
      }
    }
  }
  return {};
}

bool MatMul(DType dtype, int64_t m, int64_t k, int64_t n, const void* a, const void* b, void* out) {
  if (m <= 0 || n <= 0) return true;
  switch (dtype) {
    case DType::kF32:
      // One rounding per step: the JIT's vfmadd chain gives the same bits.
      MatMulTyped<float>(m, k, n, static_cast<const float*>(a), static_cast<const float*>(b),
                         static_cast<float*>(out),
                         [](float x, float y, float acc) { return std::fma(x, y, acc); });
      return true;
    case DType::kI32:
      return MatMulI32(m, k, n, static_cast<const int32_t*>(a), static_cast<const int32_t*>(b),
                       static_cast<int32_t*>(out));
    case DType::kU32:
      MatMulTyped<uint32_t>(m, k, n, static_cast<const uint32_t*>(a),
                            static_cast<const uint32_t*>(b), static_cast<uint32_t*>(out),
                            [](uint32_t x, uint32_t y, uint32_t acc) { return acc + x * y; });
      return true;
    case DType::kBool:
      break;
  }
  assert(false && "MatMul: unsupported dtype");
  return true;
}

}  // namespace alea::vm::kernels
