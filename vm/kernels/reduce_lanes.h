// The lane machinery of reduce.h's order, shared by reduce.cc and
// reduce_f32.cc (kernels only): the combine ops, the tree, and one pass over
// a contiguous row or over the middle axis of [outer, n, inner], each
// element passed through a map first (the identity for plain reductions; a
// shift and exp for logsumexp, a squared deviation for var).
//
// Along the last axis (inner == 1) each output's elements are contiguous and
// the 16 lanes are 16 locals. Along another axis the elements of one output
// are `inner` apart, so instead each step reads a contiguous block of up to
// kReduceBlock outputs' elements from one row and folds them into those
// outputs' lanes (16 per output, in a scratch buffer). Every output still
// sees exactly the specified sequence of operations; only the interleaving
// between different outputs changes, which cannot affect any result.
#ifndef ALEA_VM_KERNELS_REDUCE_LANES_H_
#define ALEA_VM_KERNELS_REDUCE_LANES_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "vm/kernels/pin_nan.h"
#include "vm/kernels/reduce.h"

namespace alea::vm::kernels {

// Outputs handled together when reducing a non-last axis: 16 lanes of 256
// four-byte accumulators is 16 KiB, which stays in L1 next to the rows read.
inline constexpr int64_t kReduceBlock = 256;

// The combine ops. Identity is each lane's starting value.
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
    // Integers arrive as uint32_t (u32 is summed on its unsigned view), so
    // this wraps without signed overflow. f32: of two NaNs, a's (the
    // compiler would otherwise pick per loop; the JIT keeps a's).
    return PinNaN<T>(a, static_cast<T>(a + b));
  }
};

template <typename T>
struct ProdOp {
  static T Identity() { return T{1}; }  // 1 * x is x for every x, -0.0 and NaN included
  // u32 arrives as uint32_t: the product wraps (the cast keeps uint32_t's
  // promotion to int from overflowing); f32 pins NaN as SumOp.
  static T Apply(T a, T b) {
    if constexpr (std::is_same_v<T, float>) {
      return PinNaN<T>(a, a * b);
    } else {
      return static_cast<T>(static_cast<uint64_t>(a) * b);
    }
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

// The map of a plain reduction.
struct NoMap {
  template <typename T>
  T operator()(int64_t, T x) const {
    return x;
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

// One output of a contiguous sequence map(q, x[0]), map(q, x[1])... of n > 0
// elements (q: the output's index, for a map that depends on it).
template <typename Op, typename T, typename Map = NoMap>
T ReduceRow(const T* x, int64_t n, int64_t q = 0, const Map& map = Map()) {
  T result{};
  for (int64_t c = 0; c < n; c += kReduceChunk) {
    const int64_t len = std::min(kReduceChunk, n - c);
    const T* chunk = x + c;
    std::array<T, kReduceLanes> lane;
    lane.fill(Op::Identity());
    int64_t i = 0;
    for (; i + kReduceLanes <= len; i += kReduceLanes) {
      for (int j = 0; j < kReduceLanes; ++j) lane[j] = Op::Apply(lane[j], map(q, chunk[i + j]));
    }
    for (int j = 0; i + j < len; ++j) lane[j] = Op::Apply(lane[j], map(q, chunk[i + j]));
    Tree<Op, T>(lane.data(), 1, 1);
    result = c == 0 ? lane[0] : Op::Apply(result, lane[0]);
  }
  return result;
}

// [outer, n, inner] -> [outer, inner] with n > 0; output q = o * inner + p
// reduces map(q, in[o, i, p]) over i. `stride`: the elements from one row of
// the input to the next (inner, or more for a block of a wider tensor).
template <typename Op, typename T, typename Map = NoMap>
void ReduceLanes(int64_t outer, int64_t n, int64_t inner, const T* in, T* out,
                 const Map& map = Map(), int64_t stride = 0) {
  if (stride == 0) stride = inner;
  if (stride == 1) {
    for (int64_t o = 0; o < outer; ++o) out[o] = ReduceRow<Op, T>(in + o * n, n, o, map);
    return;
  }
  // lanes[j * kReduceBlock + p]: lane j of output p of the block. On the
  // stack (16 KiB): a steady-state loop of tensor ops allocates nothing.
  std::array<T, kReduceLanes * kReduceBlock> lanes;
  std::array<T, kReduceBlock> result;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t p0 = 0; p0 < inner; p0 += kReduceBlock) {
      const int64_t width = std::min(kReduceBlock, inner - p0);
      const int64_t q0 = o * inner + p0;
      for (int64_t c = 0; c < n; c += kReduceChunk) {
        const int64_t len = std::min(kReduceChunk, n - c);
        for (int j = 0; j < kReduceLanes; ++j) {
          std::fill_n(lanes.data() + j * kReduceBlock, width, Op::Identity());
        }
        for (int64_t i = 0; i < len; ++i) {
          T* acc = lanes.data() + (i % kReduceLanes) * kReduceBlock;
          const T* row = in + (o * n + c + i) * stride + p0;
          for (int64_t p = 0; p < width; ++p) acc[p] = Op::Apply(acc[p], map(q0 + p, row[p]));
        }
        Tree<Op, T>(lanes.data(), kReduceBlock, width);
        for (int64_t p = 0; p < width; ++p) {
          result[p] = c == 0 ? lanes[p] : Op::Apply(result[p], lanes[p]);
        }
      }
      std::copy(result.begin(), result.begin() + width, out + o * inner + p0);
    }
  }
}

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_REDUCE_LANES_H_
