// Functional updates on plain buffers: the reference kernels of `set` and
// `add_at` of tensors (NumPy's `x[idx] = v` and `np.add.at(x, idx, v)`).
//
// Order (the definition of every result): the targets are visited in
// row-major order of the indexed shape, one at a time, so repeated indices
// take effect in index order: `set` keeps the last value, `add_at` adds the
// values to the element one after another, each f32 addition rounded (as
// np.add.at, whose order this is; of two NaNs the element's, quieted, as f32
// `+` gives a's). No step depends on a thread count or ISA.
#ifndef ALEA_VM_KERNELS_SCATTER_H_
#define ALEA_VM_KERNELS_SCATTER_H_

#include <cstdint>

#include "vm/dtype.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::kernels {

enum class ScatterOp : uint8_t { kSet, kAdd };

// The values written: one element for every target (`broadcast`), or one
// per target, contiguous in the indexed shape's row-major order.
struct ScatterValues {
  const void* data;
  bool broadcast;
};

// Where an i32 `add_at` left the range: the element's flat index in x, its
// value and the value added (x is written up to, not including, that step).
struct ScatterFault {
  int64_t at = -1;
  int64_t old_value = 0;
  int64_t added = 0;
};

// The first j with idx[j] outside [0, n), or -1 when there is none.
int64_t FirstIndexOutOfRange(const int32_t* idx, int64_t count, int64_t n);

// x is a contiguous tensor of `dtype` viewed as [outer, n, inner]; the
// indexed shape is [outer, count, inner], and its element (o, j, k) is
// x[o, idx[j], k]. Every idx[j] must be in [0, n). kSet writes v there,
// kAdd adds it (f32, i32, u32; bool has no kAdd). Returns kOverflow when an
// i32 sum leaves the range (*fault says where; u32 wraps), else kOk.
KernelStatus ScatterAxis(ScatterOp op, DType dtype, int64_t outer, int64_t n, int64_t inner,
                         void* x, const int32_t* idx, int64_t count, ScatterValues v,
                         ScatterFault* fault);

// The same with the single position `at` (0 <= at < n): the indexed shape
// is [outer, inner] (an Int index, or a tuple of Ints, which addresses one
// sub-tensor of the leading axes taken as one).
KernelStatus ScatterOne(ScatterOp op, DType dtype, int64_t outer, int64_t n, int64_t inner, void* x,
                        int64_t at, ScatterValues v, ScatterFault* fault);

// x and the bool `mask` have `size` elements; the indexed elements are those
// where mask is true, in ascending order (NumPy's `x[mask]`), and the j-th
// of them takes v's j-th value.
KernelStatus ScatterMask(ScatterOp op, DType dtype, int64_t size, void* x, const uint8_t* mask,
                         ScatterValues v, ScatterFault* fault);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_SCATTER_H_
