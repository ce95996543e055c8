// Integer-array indexing along one axis (np.take) on plain buffers: the
// reference kernel of `take`, and the value half of `sort`.
#ifndef ALEA_VM_KERNELS_TAKE_H_
#define ALEA_VM_KERNELS_TAKE_H_

#include <cstdint>

namespace alea::vm::kernels {

// `x` is a contiguous tensor of `element_bytes`-byte elements (4, or 1 for
// bool) viewed as [outer, n, inner]; writes the contiguous
// [outer, count, inner] `out` with out[o, j, :] = x[o, idx[j], :].
// Every index must satisfy 0 <= idx[j] < n: returns -1 when they all do,
// else the position j of the first that does not (out then partly written).
// The indices are checked while the first outer block is copied, so with
// outer == 0 none is checked, as np.take.
int64_t Take(int element_bytes, int64_t outer, int64_t n, int64_t inner, const void* x,
             const int32_t* idx, int64_t count, void* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_TAKE_H_
