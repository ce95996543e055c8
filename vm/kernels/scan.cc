#include "vm/kernels/scan.h"

#include <cstdint>

#include "vm/kernels/pin_nan.h"

namespace alea::vm::kernels {
namespace {

// out[o, i, :] = out[o, i - 1, :] op x[o, i, :]: row by row, so each output
// still takes its own sequence in index order while the inner loop runs over
// independent outputs (vectorizable for inner > 1). Along the last axis the
// running value stays in a register (reading it back from out would put a
// store-to-load forwarding delay into the chain of every step).
template <typename T, typename Step>
int64_t Scan(int64_t outer, int64_t n, int64_t inner, const T* x, T* out, Step step) {
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const T* row = x + o * n;
      T* y = out + o * n;
      if (n == 0) continue;
      T acc = row[0];
      y[0] = acc;
      for (int64_t i = 1; i < n; ++i) {
        if (!step(acc, row[i], &acc)) return o * n + i;
        y[i] = acc;
      }
    }
    return -1;
  }
  for (int64_t o = 0; o < outer; ++o) {
    const int64_t base = o * n * inner;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = base + i * inner;
      if (i == 0) {
        for (int64_t k = 0; k < inner; ++k) out[row + k] = x[row + k];
        continue;
      }
      for (int64_t k = 0; k < inner; ++k) {
        if (!step(out[row - inner + k], x[row + k], &out[row + k])) return row + k;
      }
    }
  }
  return -1;
}

}  // namespace

int64_t CumSum(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, void* out) {
  switch (dtype) {
    case DType::kF32:
      return Scan(outer, n, inner, static_cast<const float*>(x), static_cast<float*>(out),
                  [](float a, float b, float* r) {
                    *r = PinNaN(a, a + b);
                    return true;
                  });
    case DType::kI32:
      return Scan(outer, n, inner, static_cast<const int32_t*>(x), static_cast<int32_t*>(out),
                  [](int32_t a, int32_t b, int32_t* r) {
                    const int64_t s = static_cast<int64_t>(a) + b;
                    *r = static_cast<int32_t>(s);
                    return s == *r;
                  });
    case DType::kU32:
      return Scan(outer, n, inner, static_cast<const uint32_t*>(x), static_cast<uint32_t*>(out),
                  [](uint32_t a, uint32_t b, uint32_t* r) {
                    *r = a + b;
                    return true;
                  });
    case DType::kBool:
      break;
  }
  return -1;
}

int64_t CumProd(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, void* out) {
  switch (dtype) {
    case DType::kF32:
      return Scan(outer, n, inner, static_cast<const float*>(x), static_cast<float*>(out),
                  [](float a, float b, float* r) {
                    *r = PinNaN(a, a * b);
                    return true;
                  });
    case DType::kI32:
      return Scan(outer, n, inner, static_cast<const int32_t*>(x), static_cast<int32_t*>(out),
                  [](int32_t a, int32_t b, int32_t* r) {
                    const int64_t p = static_cast<int64_t>(a) * b;
                    *r = static_cast<int32_t>(p);
                    return p == *r;
                  });
    case DType::kU32:
      return Scan(outer, n, inner, static_cast<const uint32_t*>(x), static_cast<uint32_t*>(out),
                  [](uint32_t a, uint32_t b, uint32_t* r) {
                    *r = static_cast<uint32_t>(static_cast<uint64_t>(a) * b);
                    return true;
                  });
    case DType::kBool:
      break;
  }
  return -1;
}

}  // namespace alea::vm::kernels
