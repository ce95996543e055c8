// Boolean-mask selection (`x[mask]`, NumPy's boolean indexing) on plain
// buffers: the elements of x where the mask is true, in index order.
#ifndef ALEA_VM_KERNELS_SELECT_H_
#define ALEA_VM_KERNELS_SELECT_H_

#include <cstdint>

namespace alea::vm::kernels {

// How many of mask[0..n) are nonzero (a bool tensor's bytes are 0 or 1).
int64_t CountTrue(const uint8_t* mask, int64_t n);

// Writes x[i] for each i < n with mask[i] != 0, in order, to out: `count`
// (== CountTrue(mask, n)) elements of `element_bytes` bytes (4, or 1).
void Select(int element_bytes, const void* x, const uint8_t* mask, int64_t n, int64_t count,
            void* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_SELECT_H_
