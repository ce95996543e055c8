// The sort order of tensor elements on plain buffers: the reference kernels
// of `argsort`, `sort` and `searchsorted`.
//
// The order is NumPy's: ascending; f32 NaNs after everything (+inf
// included) and equal to each other; -0.0 equal to 0.0; bool false before
// true. Sorting is stable (np.argsort(kind='stable')): equal elements keep
// their input order, so -0.0 and 0.0, or two NaNs, stay as they came.
#ifndef ALEA_VM_KERNELS_SORT_H_
#define ALEA_VM_KERNELS_SORT_H_

#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {

// `x` is a contiguous tensor of `dtype` viewed as [outer, n, inner], with
// n <= 2^31 - 1. For each sequence along the middle axis, writes into the
// i32 `out` (same layout) the indices 0..n-1 in the order that sorts it.
void ArgSort(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, int32_t* out);

// The same, but writes the sorted elements themselves (bitwise: -0.0 stays
// -0.0, NaN payloads stay) into `out`, of x's dtype and layout.
void Sort(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, void* out);

// np.searchsorted(sorted, values, side='left'): for each of the `count`
// `values` v, the first index i of the 1-d `sorted` (n <= 2^31 - 1 elements,
// of the same dtype, f32, i32 or u32) with sorted[i] >= v in the order
// above, else n. A binary search that trusts `sorted` to be sorted (neither
// NumPy nor this checks it): on unsorted input the indices are some
// positions (which may depend on the values' order), no error. A NaN value
// goes after the last non-NaN.
void SearchSorted(DType dtype, const void* sorted, int64_t n, const void* values, int64_t count,
                  int32_t* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_SORT_H_
