// Mask selection. Both loops are branch-free: a branch on random mask bits
// mispredicts half the time, while an unconditional store whose destination
// advances by the mask bit costs the same for any mask.
#include "vm/kernels/select.h"

namespace alea::vm::kernels {
namespace {

template <typename T>
void SelectTyped(const T* x, const uint8_t* mask, int64_t n, T* out) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    out[k] = x[i];  // written always, kept only when the mask is set
    k += mask[i] != 0;
  }
}

}  // namespace

int64_t CountTrue(const uint8_t* mask, int64_t n) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += mask[i] != 0;
  return count;
}

void Select(int element_bytes, const void* x, const uint8_t* mask, int64_t n, int64_t count,
            void* out) {
  if (count <= 0) return;
  // Up to the last selected element the destination index stays below
  // `count` (that element is not yet counted), so the unconditional stores
  // never pass the end; the last one is written apart.
  int64_t last = n - 1;
  while (mask[last] == 0) --last;
  if (element_bytes == 4) {
    const uint32_t* xs = static_cast<const uint32_t*>(x);
    uint32_t* o = static_cast<uint32_t*>(out);
    SelectTyped(xs, mask, last, o);
    o[count - 1] = xs[last];
  } else {
    const uint8_t* xs = static_cast<const uint8_t*>(x);
    uint8_t* o = static_cast<uint8_t*>(out);
    SelectTyped(xs, mask, last, o);
    o[count - 1] = xs[last];
  }
}

}  // namespace alea::vm::kernels
