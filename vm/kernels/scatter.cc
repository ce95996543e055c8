#include "vm/kernels/scatter.h"

#include <cstdint>
#include <limits>
#include <type_traits>

#include "vm/kernels/pin_nan.h"

namespace alea::vm::kernels {
namespace {

// One row of `inner` targets starting at x[base], from `vals` (stride 0:
// one value for all). False at an i32 overflow, with the row written up to it.
template <typename E, ScatterOp kOp>
bool Row(E* x, int64_t base, int64_t inner, const E* vals, int64_t stride, ScatterFault* fault) {
  E* row = x + base;
  for (int64_t k = 0; k < inner; ++k) {
    const E v = vals[k * stride];
    if constexpr (kOp == ScatterOp::kSet) {
      row[k] = v;
    } else if constexpr (std::is_same_v<E, int32_t>) {
      // Exactly, in 64 bits: the check costs one compare per element.
      const int64_t sum = static_cast<int64_t>(row[k]) + v;
      if (sum < std::numeric_limits<int32_t>::min() || sum > std::numeric_limits<int32_t>::max()) {
        *fault = {base + k, row[k], v};
        return false;
      }
      row[k] = static_cast<int32_t>(sum);
    } else {
      // f32 rounds once (of two NaNs, x's: pin_nan.h); u32 wraps modulo 2^32.
      row[k] = PinNaN(row[k], static_cast<E>(row[k] + v));
    }
  }
  return true;
}

// Targets (o, j, :) in row-major order; x's row for j is position(j).
template <typename E, ScatterOp kOp, typename Position>
KernelStatus Rows(int64_t outer, int64_t n, int64_t inner, E* x, int64_t count, Position position,
                  ScatterValues v, ScatterFault* fault) {
  const E* vals = static_cast<const E*>(v.data);
  const int64_t stride = v.broadcast ? 0 : 1;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < count; ++j) {
      const int64_t base = (o * n + position(j)) * inner;
      const E* from = vals + (o * count + j) * inner * stride;
      if (!Row<E, kOp>(x, base, inner, from, stride, fault)) return KernelStatus::kOverflow;
    }
  }
  return KernelStatus::kOk;
}

template <typename E, ScatterOp kOp>
KernelStatus Mask(int64_t size, E* x, const uint8_t* mask, ScatterValues v, ScatterFault* fault) {
  const E* vals = static_cast<const E*>(v.data);
  const int64_t stride = v.broadcast ? 0 : 1;
  int64_t j = 0;
  for (int64_t p = 0; p < size; ++p) {
    if (mask[p] == 0) continue;
    if (!Row<E, kOp>(x, p, 1, vals + j * stride, 0, fault)) return KernelStatus::kOverflow;
    ++j;
  }
  return KernelStatus::kOk;
}

// Calls body.template operator()<E, kOp>() for the dtype's element type; a
// bool tensor is only ever set (its bytes are 0 or 1, which an add would
// break).
template <typename Body>
KernelStatus Dispatch(ScatterOp op, DType dtype, Body body) {
  const bool add = op == ScatterOp::kAdd;
  switch (dtype) {
    case DType::kF32:
      return add ? body.template operator()<float, ScatterOp::kAdd>()
                 : body.template operator()<float, ScatterOp::kSet>();
    case DType::kI32:
      return add ? body.template operator()<int32_t, ScatterOp::kAdd>()
                 : body.template operator()<int32_t, ScatterOp::kSet>();
    case DType::kU32:
      return add ? body.template operator()<uint32_t, ScatterOp::kAdd>()
                 : body.template operator()<uint32_t, ScatterOp::kSet>();
    case DType::kBool:
      break;
  }
  return body.template operator()<uint8_t, ScatterOp::kSet>();
}

}  // namespace

int64_t FirstIndexOutOfRange(const int32_t* idx, int64_t count, int64_t n) {
  for (int64_t j = 0; j < count; ++j) {
    // A negative index becomes a huge unsigned one: one comparison.
    if (static_cast<uint64_t>(static_cast<int64_t>(idx[j])) >= static_cast<uint64_t>(n)) return j;
  }
  return -1;
}

KernelStatus ScatterAxis(ScatterOp op, DType dtype, int64_t outer, int64_t n, int64_t inner,
                         void* x, const int32_t* idx, int64_t count, ScatterValues v,
                         ScatterFault* fault) {
  return Dispatch(op, dtype, [&]<typename E, ScatterOp kOp>() {
    return Rows<E, kOp>(
        outer, n, inner, static_cast<E*>(x), count, [idx](int64_t j) { return idx[j]; }, v, fault);
  });
}

KernelStatus ScatterOne(ScatterOp op, DType dtype, int64_t outer, int64_t n, int64_t inner, void* x,
                        int64_t at, ScatterValues v, ScatterFault* fault) {
  return Dispatch(op, dtype, [&]<typename E, ScatterOp kOp>() {
    return Rows<E, kOp>(
        outer, n, inner, static_cast<E*>(x), 1, [at](int64_t) { return at; }, v, fault);
  });
}

KernelStatus ScatterMask(ScatterOp op, DType dtype, int64_t size, void* x, const uint8_t* mask,
                         ScatterValues v, ScatterFault* fault) {
  return Dispatch(op, dtype, [&]<typename E, ScatterOp kOp>() {
    return Mask<E, kOp>(size, static_cast<E*>(x), mask, v, fault);
  });
}

}  // namespace alea::vm::kernels
