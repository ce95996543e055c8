#include "vm/kernels/take.h"

#include <cstdint>
#include <cstring>

namespace alea::vm::kernels {
namespace {

// Rows at least this long go through memcpy; shorter ones are copied by a
// loop, which beats a call per row.
constexpr int64_t kMemcpyBytes = 64;

// One index, negative or not, against the axis size in a single comparison
// (a negative index becomes a huge unsigned one).
inline bool InRange(int32_t i, int64_t n) {
  return static_cast<uint64_t>(static_cast<int64_t>(i)) < static_cast<uint64_t>(n);
}

template <typename E>
int64_t TakeElements(int64_t outer, int64_t n, int64_t inner, const E* x, const int32_t* idx,
                     int64_t count, E* out) {
  if (outer == 0) return -1;
  // The first block checks the indices; the rest reuse them unchecked.
  if (inner == 1) {
    // The resampling gather (a 1-d x, or rows of one element): one load and
    // one store per index.
    for (int64_t j = 0; j < count; ++j) {
      if (!InRange(idx[j], n)) return j;
      out[j] = x[idx[j]];
    }
    for (int64_t o = 1; o < outer; ++o) {
      const E* xo = x + o * n;
      E* oo = out + o * count;
      for (int64_t j = 0; j < count; ++j) oo[j] = xo[idx[j]];
    }
    return -1;
  }
  const size_t row_bytes = static_cast<size_t>(inner) * sizeof(E);
  const bool by_memcpy = static_cast<int64_t>(row_bytes) >= kMemcpyBytes;
  for (int64_t o = 0; o < outer; ++o) {
    const E* xo = x + o * n * inner;
    E* oo = out + o * count * inner;
    for (int64_t j = 0; j < count; ++j) {
      if (o == 0 && !InRange(idx[j], n)) return j;
      const E* from = xo + static_cast<int64_t>(idx[j]) * inner;
      E* to = oo + j * inner;
      if (by_memcpy) {
        std::memcpy(to, from, row_bytes);
      } else {
        for (int64_t k = 0; k < inner; ++k) to[k] = from[k];
      }
    }
  }
  return -1;
}

}  // namespace

int64_t Take(int element_bytes, int64_t outer, int64_t n, int64_t inner, const void* x,
             const int32_t* idx, int64_t count, void* out) {
  if (element_bytes == 1) {
    return TakeElements(outer, n, inner, static_cast<const uint8_t*>(x), idx, count,
                        static_cast<uint8_t*>(out));
  }
  return TakeElements(outer, n, inner, static_cast<const uint32_t*>(x), idx, count,
                      static_cast<uint32_t*>(out));
}

}  // namespace alea::vm::kernels
