#include "vm/kernels/sort.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace alea::vm::kernels {
namespace {

// Each element as an unsigned key whose integer order is the order of
// sort.h: the f32 bits with the sign flipped (positives) or all bits flipped
// (negatives), after -0.0 becomes 0.0; every NaN the largest key.
inline uint32_t KeyOf(float v) {
  if (v != v) return 0xffffffffu;
  uint32_t b = std::bit_cast<uint32_t>(v);
  if (b == 0x80000000u) b = 0;
  return (b & 0x80000000u) != 0 ? ~b : (b | 0x80000000u);
}
inline uint32_t KeyOf(int32_t v) { return static_cast<uint32_t>(v) ^ 0x80000000u; }
inline uint32_t KeyOf(uint32_t v) { return v; }
inline uint32_t KeyOf(uint8_t v) { return v; }

// Calls emit(base, j, i) for every output: the sequence starting at flat
// index `base` (its elements `inner` apart) has at its position j the
// element at its position i. Each sequence is sorted as
// (key, position) pairs packed in one 64-bit integer: no two are equal, so
// any sort gives the stable order, and std::sort on integers is fast.
template <typename T, typename Emit>
void ForEachOrder(int64_t outer, int64_t n, int64_t inner, const T* x, Emit emit) {
  if (n == 0) return;
  std::vector<uint64_t> pairs(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      const int64_t base = o * n * inner + k;
      for (int64_t i = 0; i < n; ++i) {
        pairs[i] =
            (static_cast<uint64_t>(KeyOf(x[base + i * inner])) << 32) | static_cast<uint64_t>(i);
      }
      std::sort(pairs.begin(), pairs.end());
      for (int64_t j = 0; j < n; ++j) {
        emit(base, j, static_cast<int64_t>(pairs[j] & 0xffffffffu));
      }
    }
  }
}

template <typename T>
void ArgSortOf(int64_t outer, int64_t n, int64_t inner, const void* x, int32_t* out) {
  ForEachOrder(outer, n, inner, static_cast<const T*>(x), [&](int64_t base, int64_t j, int64_t i) {
    out[base + j * inner] = static_cast<int32_t>(i);
  });
}

template <typename T>
void SortOf(int64_t outer, int64_t n, int64_t inner, const void* x, void* out) {
  const T* in = static_cast<const T*>(x);
  T* o = static_cast<T*>(out);
  ForEachOrder(outer, n, inner, in, [&](int64_t base, int64_t j, int64_t i) {
    o[base + j * inner] = in[base + i * inner];
  });
}

// A value not below the previous one starts from the previous answer and
// gallops a few probes (lo, lo + 1, lo + 3... lo + 63, next to what the
// previous search read) before bisecting the rest: ascending values
// (resampling positions) cost a few steps each and read `sorted` in order,
// while a far jump costs at most those probes more than a plain bisection.
// On a sorted `sorted` every path gives the first index not less than the
// value.
constexpr int64_t kGallopSteps = 64;

template <typename T>
void SearchOf(const void* sorted, int64_t n, const void* values, int64_t count, int32_t* out) {
  const T* s = static_cast<const T*>(sorted);
  const T* v = static_cast<const T*>(values);
  uint32_t previous_key = 0;
  int64_t previous = 0;
  for (int64_t c = 0; c < count; ++c) {
    const uint32_t key = KeyOf(v[c]);
    int64_t lo = 0, hi = n;
    if (c > 0 && key >= previous_key) {
      lo = previous;
      for (int64_t step = 1; lo < n && step <= kGallopSteps; step *= 2) {
        const int64_t probe = std::min(lo + step - 1, n - 1);
        if (KeyOf(s[probe]) >= key) {
          hi = probe;
          break;
        }
        lo = probe + 1;
      }
    }
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (KeyOf(s[mid]) < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out[c] = static_cast<int32_t>(lo);
    previous_key = key;
    previous = lo;
  }
}

}  // namespace

void ArgSort(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, int32_t* out) {
  switch (dtype) {
    case DType::kF32:
      return ArgSortOf<float>(outer, n, inner, x, out);
    case DType::kI32:
      return ArgSortOf<int32_t>(outer, n, inner, x, out);
    case DType::kU32:
      return ArgSortOf<uint32_t>(outer, n, inner, x, out);
    case DType::kBool:
      return ArgSortOf<uint8_t>(outer, n, inner, x, out);
  }
}

void Sort(DType dtype, int64_t outer, int64_t n, int64_t inner, const void* x, void* out) {
  switch (dtype) {
    case DType::kF32:
      return SortOf<float>(outer, n, inner, x, out);
    case DType::kI32:
      return SortOf<int32_t>(outer, n, inner, x, out);
    case DType::kU32:
      return SortOf<uint32_t>(outer, n, inner, x, out);
    case DType::kBool:
      return SortOf<uint8_t>(outer, n, inner, x, out);
  }
}

void SearchSorted(DType dtype, const void* sorted, int64_t n, const void* values, int64_t count,
                  int32_t* out) {
  switch (dtype) {
    case DType::kF32:
      return SearchOf<float>(sorted, n, values, count, out);
    case DType::kI32:
      return SearchOf<int32_t>(sorted, n, values, count, out);
    case DType::kU32:
      return SearchOf<uint32_t>(sorted, n, values, count, out);
    case DType::kBool:
      return SearchOf<uint8_t>(sorted, n, values, count, out);
  }
}

}  // namespace alea::vm::kernels
