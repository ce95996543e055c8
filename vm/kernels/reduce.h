// Reduction reference kernels: sum, mean, max, min, argmax, whole or along one
// axis, in ONE fixed order that the JIT and any thread count must reproduce
// bit for bit (docs/decisions.md "Tensors", "The JIT and fusion").
//
// The order, for a sequence x[0..n) being reduced with combine op `+`
// (sum, mean), or the Max/Min rules of elementwise_ops.def (max, min):
//   - The sequence is cut into chunks of kReduceChunk elements (the last may
//     be shorter).
//   - Within a chunk, lane j (0 <= j < kReduceLanes) starts from the identity
//     (-0.0 for `+`, -inf for max, +inf for min: each passes every value
//     through, NaN and signed zeros included) and folds acc = acc op x over
//     the chunk's elements j, j + 16, j + 32... in ascending order.
//   - The 16 lanes combine as a tree: lane[j] = lane[j] op lane[j + 8] for
//     j < 8, then with j + 4 for j < 4, then j + 2, then j + 1; lane 0 is
//     the chunk's result.
//   - The chunks' results combine left to right: ((c0 op c1) op c2)...
// mean is that sum divided (f32 `/`) by n rounded to f32. Integer sums wrap
// modulo 2^32 (any order gives the same). argmax is order-free: the index of
// the first NaN if there is one, else of the first element equal to the
// maximum (-0.0 equals 0.0), as np.argmax.
#ifndef ALEA_VM_KERNELS_REDUCE_H_
#define ALEA_VM_KERNELS_REDUCE_H_

#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {

inline constexpr int kReduceLanes = 16;
inline constexpr int64_t kReduceChunk = 65536;

enum class ReduceOp : uint8_t { kSum, kMean, kMax, kMin, kArgmax };

enum class ReduceStatus : uint8_t { kOk, kEmpty };

// `in` is a contiguous tensor viewed as [outer, n, inner]; reduces the middle
// axis into the contiguous [outer, inner] `out`. dtype: f32, i32 or u32 (mean:
// f32 only). out has `dtype`, except argmax, whose out is i32. max, min and
// argmax of n == 0 with outer * inner > 0 return kEmpty (out untouched);
// sum gives 0 and mean NaN there.
ReduceStatus Reduce(ReduceOp op, DType dtype, int64_t outer, int64_t n, int64_t inner,
                    const void* in, void* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_REDUCE_H_
