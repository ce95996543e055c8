// Reduction reference kernels. The order of operations is reduce.h's (chunks
// of kReduceChunk, kReduceLanes lane accumulators, a fixed tree, chunks left
// to right; reduce_lanes.h walks memory to get there); this file dispatches
// and holds the order-free ones (argmax, argmin, any, all) and the checked
// i32 sums and products.
#include "vm/kernels/reduce.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "vm/dtype.h"
#include "vm/kernels/reduce_lanes.h"

namespace alea::vm::kernels {
namespace {

// np.argmax (np.argmin): the first NaN, else the first element equal to the
// maximum (minimum) (`>` keeps the earliest of equal values, and -0.0 equals
// 0.0).
template <typename T, bool kMin>
void ArgBest(int64_t outer, int64_t n, int64_t inner, const T* in, int32_t* out) {
  // The index type is i32 by the header; a reduced axis longer than 2^31
  // would wrap (tensors that large are far beyond the VM's heap budget).
  std::array<T, kReduceBlock> best;
  std::array<int64_t, kReduceBlock> index;
  std::array<uint8_t, kReduceBlock> done;  // a NaN was found: its index is final
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t p0 = 0; p0 < inner; p0 += kReduceBlock) {
      const int64_t width = std::min(kReduceBlock, inner - p0);
      const T* first = in + o * n * inner + p0;
      for (int64_t p = 0; p < width; ++p) {
        best[p] = first[p];
        index[p] = 0;
        done[p] = 0;
        if constexpr (std::is_same_v<T, float>) done[p] = std::isnan(first[p]) ? 1 : 0;
      }
      for (int64_t i = 1; i < n; ++i) {
        const T* row = in + (o * n + i) * inner + p0;
        for (int64_t p = 0; p < width; ++p) {
          if (done[p]) continue;
          const T x = row[p];
          if constexpr (std::is_same_v<T, float>) {
            if (std::isnan(x)) {
              index[p] = i;
              done[p] = 1;
              continue;
            }
          }
          if (kMin ? x < best[p] : x > best[p]) {
            best[p] = x;
            index[p] = i;
          }
        }
      }
      for (int64_t p = 0; p < width; ++p) {
        out[o * inner + p0 + p] = static_cast<int32_t>(index[p]);
      }
    }
  }
}

// any (kAll false) / all of bool bytes (0 or 1).
template <bool kAll>
void AnyAll(int64_t outer, int64_t n, int64_t inner, const uint8_t* in, uint8_t* out) {
  // What decides: a true byte for any, a false one for all.
  const int decisive = kAll ? 0 : 1;
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const bool found = n > 0 && std::memchr(in + o * n, decisive, static_cast<size_t>(n));
      out[o] = kAll ? !found : found;
    }
    return;
  }
  for (int64_t o = 0; o < outer; ++o) {
    uint8_t* y = out + o * inner;
    std::fill_n(y, inner, uint8_t{kAll ? 1 : 0});
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* row = in + (o * n + i) * inner;
      for (int64_t p = 0; p < inner; ++p) {
        y[p] = kAll ? (y[p] & row[p]) : (y[p] | row[p]);
      }
    }
  }
}

// A checked i32 step: a op b, exact in int64 (|a|, |b| <= 2^31).
template <bool kProd>
inline int64_t Step(int64_t a, int64_t b) {
  return kProd ? a * b : a + b;
}
inline bool FitsI32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

// i32 sum (product) in index order, each running value checked (reduce.h).
// Returns -1, or the flat index of the first element in row-major order
// whose step leaves the range.
template <bool kProd>
int64_t CheckedI32(int64_t outer, int64_t n, int64_t inner, const int32_t* in, int32_t* out) {
  const int64_t identity = kProd ? 1 : 0;
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) {
      const int32_t* x = in + o * n;
      int64_t acc = identity;
      for (int64_t i = 0; i < n; ++i) {
        acc = Step<kProd>(acc, x[i]);
        if (!FitsI32(acc)) return o * n + i;
      }
      out[o] = static_cast<int32_t>(acc);
    }
    return -1;
  }
  std::array<int64_t, kReduceBlock> acc;
  for (int64_t o = 0; o < outer; ++o) {
    // Blocks of outputs are walked one after another, so the first failure
    // in row-major order is the earliest (row, then column) over the blocks.
    int64_t first = -1;
    for (int64_t p0 = 0; p0 < inner; p0 += kReduceBlock) {
      const int64_t width = std::min(kReduceBlock, inner - p0);
      std::fill_n(acc.data(), width, identity);
      bool failed = false;
      for (int64_t i = 0; i < n && !failed; ++i) {
        const int64_t at = (o * n + i) * inner + p0;
        if (first >= 0 && at >= first) break;  // cannot come earlier
        const int32_t* row = in + at;
        for (int64_t p = 0; p < width; ++p) {
          acc[p] = Step<kProd>(acc[p], row[p]);
          if (!FitsI32(acc[p])) {
            first = at + p;
            failed = true;
            break;
          }
        }
      }
      if (!failed) {
        for (int64_t p = 0; p < width; ++p) out[o * inner + p0 + p] = static_cast<int32_t>(acc[p]);
      }
    }
    if (first >= 0) return first;
  }
  return -1;
}

template <typename T>
ReduceStatus ReduceTyped(ReduceOp op, int64_t outer, int64_t n, int64_t inner, const void* in,
                         void* out) {
  const T* x = static_cast<const T*>(in);
  T* y = static_cast<T*>(out);
  // Integers are summed and multiplied on the unsigned view (i32 and u32 are
  // layout-compatible and may alias); f32 on itself.
  using U = std::conditional_t<std::is_same_v<T, float>, float, uint32_t>;
  const U* ux = reinterpret_cast<const U*>(x);
  U* uy = reinterpret_cast<U*>(y);
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean:
      ReduceLanes<SumOp<U>, U>(outer, n, inner, ux, uy);
      break;
    case ReduceOp::kProd:
      ReduceLanes<ProdOp<U>, U>(outer, n, inner, ux, uy);
      break;
    case ReduceOp::kMax:
      ReduceLanes<MaxOp<T>, T>(outer, n, inner, x, y);
      break;
    case ReduceOp::kMin:
      ReduceLanes<MinOp<T>, T>(outer, n, inner, x, y);
      break;
    case ReduceOp::kArgmax:
      ArgBest<T, false>(outer, n, inner, x, static_cast<int32_t*>(out));
      break;
    case ReduceOp::kArgmin:
      ArgBest<T, true>(outer, n, inner, x, static_cast<int32_t*>(out));
      break;
    default:
      assert(false && "Reduce: not a single-pass op");
      break;
  }
  if (op == ReduceOp::kMean) {
    if constexpr (std::is_same_v<T, float>) {
      const float divisor = static_cast<float>(n);
      for (int64_t i = 0; i < outer * inner; ++i) y[i] = y[i] / divisor;
    }
  }
  return ReduceStatus::kOk;
}

// The result of n == 0 for each output, or kEmpty.
ReduceStatus ReduceNothing(ReduceOp op, DType dtype, int64_t count, void* out) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  auto fill = [&](auto value) {
    auto* y = static_cast<decltype(value)*>(out);
    std::fill(y, y + count, value);
  };
  switch (op) {
    case ReduceOp::kSum:  // the sum of nothing is +0 (NumPy's)
      dtype == DType::kF32 ? fill(0.0f) : fill(uint32_t{0});
      return ReduceStatus::kOk;
    case ReduceOp::kProd:
      dtype == DType::kF32 ? fill(1.0f) : fill(uint32_t{1});
      return ReduceStatus::kOk;
    case ReduceOp::kMean:  // 0 / 0, as the passes would give
    case ReduceOp::kVar:
    case ReduceOp::kStd:
      fill(kNaN);
      return ReduceStatus::kOk;
    case ReduceOp::kLogSumExp:
      fill(-std::numeric_limits<float>::infinity());
      return ReduceStatus::kOk;
    case ReduceOp::kAny:
      fill(uint8_t{0});
      return ReduceStatus::kOk;
    case ReduceOp::kAll:
      fill(uint8_t{1});
      return ReduceStatus::kOk;
    default:
      return ReduceStatus::kEmpty;
  }
}

}  // namespace

bool ReduceAccepts(ReduceOp op, DType dtype) {
  switch (op) {
    case ReduceOp::kAny:
    case ReduceOp::kAll:
      return dtype == DType::kBool;
    case ReduceOp::kMean:
    case ReduceOp::kLogSumExp:
    case ReduceOp::kVar:
    case ReduceOp::kStd:
      return dtype == DType::kF32;
    default:
      return dtype != DType::kBool;
  }
}

ReduceStatus Reduce(ReduceOp op, DType dtype, int64_t outer, int64_t n, int64_t inner,
                    const void* in, void* out, int64_t ddof, int64_t* overflow_at) {
  if (outer <= 0 || inner <= 0) return ReduceStatus::kOk;  // no outputs
  assert(ReduceAccepts(op, dtype));
  if (n == 0) return ReduceNothing(op, dtype, outer * inner, out);
  switch (op) {
    case ReduceOp::kAny:
    case ReduceOp::kAll: {
      const auto* x = static_cast<const uint8_t*>(in);
      auto* y = static_cast<uint8_t*>(out);
      op == ReduceOp::kAll ? AnyAll<true>(outer, n, inner, x, y)
                           : AnyAll<false>(outer, n, inner, x, y);
      return ReduceStatus::kOk;
    }
    case ReduceOp::kVar:
    case ReduceOp::kStd:
      Var(outer, n, inner, ddof, op == ReduceOp::kStd, static_cast<const float*>(in),
          static_cast<float*>(out));
      return ReduceStatus::kOk;
    case ReduceOp::kLogSumExp:
      LogSumExp(outer, n, inner, static_cast<const float*>(in), static_cast<float*>(out));
      return ReduceStatus::kOk;
    case ReduceOp::kSum:
    case ReduceOp::kProd:
      if (dtype == DType::kI32) {
        const auto* x = static_cast<const int32_t*>(in);
        auto* y = static_cast<int32_t*>(out);
        const int64_t at = op == ReduceOp::kProd ? CheckedI32<true>(outer, n, inner, x, y)
                                                 : CheckedI32<false>(outer, n, inner, x, y);
        if (at < 0) return ReduceStatus::kOk;
        if (overflow_at != nullptr) *overflow_at = at;
        return ReduceStatus::kOverflow;
      }
      break;
    default:
      break;
  }
  switch (dtype) {
    case DType::kF32:
      return ReduceTyped<float>(op, outer, n, inner, in, out);
    case DType::kI32:
      return ReduceTyped<int32_t>(op, outer, n, inner, in, out);
    case DType::kU32:
      return ReduceTyped<uint32_t>(op, outer, n, inner, in, out);
    case DType::kBool:
      break;
  }
  assert(false && "Reduce: unsupported dtype");
  return ReduceStatus::kOk;
}

}  // namespace alea::vm::kernels
