// Cumulative sums and products on plain buffers: the reference kernels of
// `cumsum` and `cumprod`.
//
// The order is NumPy's (np.cumsum / np.add.accumulate): along the axis,
// out[0] = x[0] and out[i] = out[i - 1] + x[i], one rounding per step, so an
// f32 result is bitwise NumPy's float32 cumsum (unlike `sum`, whose order is
// reduce.h's). When both operands of a step are NaN the result is the
// running sum's NaN (PinNaN). u32 wraps modulo 2^32; i32 stops at the first
// step that leaves the i32 range (NumPy would widen to int64). CumProd is the
// same with `*` (np.cumprod / np.multiply.accumulate).
#ifndef ALEA_VM_KERNELS_SCAN_H_
#define ALEA_VM_KERNELS_SCAN_H_

#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {

// `x` is a contiguous f32, i32 or u32 tensor viewed as [outer, n, inner];
// writes the cumulative sums along the middle axis into `out` (same dtype and
// layout). Returns -1, or for i32 the flat index (into x and out) of the
// first element, in row-major order, whose step overflows: out holds every
// element before it, so out[at - inner] + x[at] is the failing step.
int64_t CumSum(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, void* out);
int64_t CumProd(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, void* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_SCAN_H_
