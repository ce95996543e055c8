// Reduction reference kernels. The order of operations is reduce.h's (chunks
// of kReduceChunk, kReduceLanes lane accumulators, a fixed tree, chunks left
// to right); this file only chooses how memory is walked to get there.
//
// Along the last axis (inner == 1) each output's elements are contiguous and
// the 16 lanes are 16 locals. Along another axis the elements of one output
// are `inner` apart, so instead each step reads a contiguous block of up to
// kBlock outputs' elements from one row and folds them into those outputs'
// lanes (16 per output, in a scratch buffer). Every output still sees exactly
// the specified sequence of operations; only the interleaving between
// different outputs changes, which cannot affect any result.
#include "vm/kernels/reduce.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "vm/dtype.h"
#include "vm/kernels/pin_nan.h"

namespace alea::vm::kernels {
namespace {

// Outputs handled together when reducing a non-last axis: 16 lanes of 256
// four-byte accumulators is 16 KiB, which stays in L1 next to the rows read.
constexpr int64_t kBlock = 256;

// The combine ops. Identity is each lane's starting value; Empty is the
// result of a sum of nothing (NumPy's +0).
template <typename T>
struct SumOp {
  static T Identity() {
    if constexpr (std::is_same_v<T, float>) {
      return -0.0f;  // -0.0 + x is x for every x, -0.0 included
    } else {
      return 0;
    }
  }
  static T Apply(T a, T b) {
    // Integers arrive as uint32_t (i32 is summed on its unsigned view), so
    // this wraps without signed overflow. f32: of two NaNs, a's (the
    // compiler would otherwise pick per loop; the JIT keeps a's).
    return PinNaN<T>(a, static_cast<T>(a + b));
  }
};

template <typename T>
struct MaxOp {
  static T Identity() {
    if constexpr (std::is_same_v<T, float>) return -std::numeric_limits<float>::infinity();
    return std::numeric_limits<T>::lowest();
  }
  static T Apply(T a, T b) {
    if constexpr (std::is_same_v<T, float>) return (a >= b || std::isnan(a)) ? a : b;
    return a >= b ? a : b;
  }
};

template <typename T>
struct MinOp {
  static T Identity() {
    if constexpr (std::is_same_v<T, float>) return std::numeric_limits<float>::infinity();
    return std::numeric_limits<T>::max();
  }
  static T Apply(T a, T b) {
    if constexpr (std::is_same_v<T, float>) return (a <= b || std::isnan(a)) ? a : b;
    return a <= b ? a : b;
  }
};

// lane[j] = lane[j] op lane[j + h] for h = 8, 4, 2, 1; `stride` apart.
template <typename Op, typename T>
inline void Tree(T* lanes, int64_t stride, int64_t width) {
  for (int h = kReduceLanes / 2; h >= 1; h /= 2) {
    for (int j = 0; j < h; ++j) {
      T* dst = lanes + j * stride;
      const T* src = lanes + (j + h) * stride;
      for (int64_t p = 0; p < width; ++p) dst[p] = Op::Apply(dst[p], src[p]);
    }
  }
}

// One output of a contiguous sequence x[0..n), n > 0.
template <typename Op, typename T>
T ReduceRow(const T* x, int64_t n) {
  T result{};
  for (int64_t c = 0; c < n; c += kReduceChunk) {
    const int64_t len = std::min(kReduceChunk, n - c);
    const T* chunk = x + c;
    std::array<T, kReduceLanes> lane;
    lane.fill(Op::Identity());
    int64_t i = 0;
    for (; i + kReduceLanes <= len; i += kReduceLanes) {
      for (int j = 0; j < kReduceLanes; ++j) lane[j] = Op::Apply(lane[j], chunk[i + j]);
    }
    for (int j = 0; i + j < len; ++j) lane[j] = Op::Apply(lane[j], chunk[i + j]);
    Tree<Op, T>(lane.data(), 1, 1);
    result = c == 0 ? lane[0] : Op::Apply(result, lane[0]);
  }
  return result;
}

// [outer, n, inner] -> [outer, inner] with n > 0.
template <typename Op, typename T>
void ReduceLanes(int64_t outer, int64_t n, int64_t inner, const T* in, T* out) {
  if (inner == 1) {
    for (int64_t o = 0; o < outer; ++o) out[o] = ReduceRow<Op, T>(in + o * n, n);
    return;
  }
  // lanes[j * kBlock + p]: lane j of output p of the block. On the stack
  // (16 KiB): a steady-state loop of tensor ops allocates nothing.
  std::array<T, kReduceLanes * kBlock> lanes;
  std::array<T, kBlock> result;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t p0 = 0; p0 < inner; p0 += kBlock) {
      const int64_t width = std::min(kBlock, inner - p0);
      for (int64_t c = 0; c < n; c += kReduceChunk) {
        const int64_t len = std::min(kReduceChunk, n - c);
        for (int j = 0; j < kReduceLanes; ++j) {
          std::fill_n(lanes.data() + j * kBlock, width, Op::Identity());
        }
        for (int64_t i = 0; i < len; ++i) {
          T* acc = lanes.data() + (i % kReduceLanes) * kBlock;
          const T* row = in + (o * n + c + i) * inner + p0;
          for (int64_t p = 0; p < width; ++p) acc[p] = Op::Apply(acc[p], row[p]);
        }
        Tree<Op, T>(lanes.data(), kBlock, width);
        for (int64_t p = 0; p < width; ++p) {
          result[p] = c == 0 ? lanes[p] : Op::Apply(result[p], lanes[p]);
        }
      }
      std::copy(result.begin(), result.begin() + width, out + o * inner + p0);
    }
  }
}

// np.argmax: the first NaN, else the first element equal to the maximum
// (`>` keeps the earliest of equal values, and -0.0 equals 0.0).
template <typename T>
void Argmax(int64_t outer, int64_t n, int64_t inner, const T* in, int32_t* out) {
  // The index type is i32 by the header; a reduced axis longer than 2^31
  // would wrap (tensors that large are far beyond the VM's heap budget).
  std::array<T, kBlock> best;
  std::array<int64_t, kBlock> index;
  std::array<uint8_t, kBlock> done;  // a NaN was found: its index is final
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t p0 = 0; p0 < inner; p0 += kBlock) {
      const int64_t width = std::min(kBlock, inner - p0);
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
          if (x > best[p]) {
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

template <typename T>
ReduceStatus ReduceTyped(ReduceOp op, int64_t outer, int64_t n, int64_t inner, const void* in,
                         void* out) {
  const T* x = static_cast<const T*>(in);
  T* y = static_cast<T*>(out);
  const int64_t count = outer * inner;
  if (n == 0) {
    if (op == ReduceOp::kSum || op == ReduceOp::kMean) {
      // The sum of nothing is +0 (NumPy's); mean divides it by 0 below.
      std::fill(y, y + count, T{0});
    } else {
      return ReduceStatus::kEmpty;
    }
  } else {
    switch (op) {
      case ReduceOp::kSum:
      case ReduceOp::kMean:
        if constexpr (std::is_same_v<T, float>) {
          ReduceLanes<SumOp<float>, float>(outer, n, inner, x, y);
        } else {
          // Wrapping sum on the unsigned view (i32 and u32 are
          // layout-compatible and may alias).
          ReduceLanes<SumOp<uint32_t>, uint32_t>(outer, n, inner,
                                                 reinterpret_cast<const uint32_t*>(x),
                                                 reinterpret_cast<uint32_t*>(y));
        }
        break;
      case ReduceOp::kMax:
        ReduceLanes<MaxOp<T>, T>(outer, n, inner, x, y);
        break;
      case ReduceOp::kMin:
        ReduceLanes<MinOp<T>, T>(outer, n, inner, x, y);
        break;
      case ReduceOp::kArgmax:
        Argmax<T>(outer, n, inner, x, static_cast<int32_t*>(out));
        break;
    }
  }
  if (op == ReduceOp::kMean) {
    if constexpr (std::is_same_v<T, float>) {
      const float divisor = static_cast<float>(n);
      for (int64_t i = 0; i < count; ++i) y[i] = y[i] / divisor;
    } else {
      assert(false && "Reduce: mean is f32 only");
    }
  }
  return ReduceStatus::kOk;
}

}  // namespace

ReduceStatus Reduce(ReduceOp op, DType dtype, int64_t outer, int64_t n, int64_t inner,
                    const void* in, void* out) {
  if (outer <= 0 || inner <= 0) return ReduceStatus::kOk;  // no outputs
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
