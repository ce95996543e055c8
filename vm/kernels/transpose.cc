#include "vm/kernels/transpose.h"

#include <algorithm>
#include <cstdint>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

namespace alea::vm::kernels {
namespace {

// Tiles of kTile x kTile elements: 32 rows of 128 bytes (f32) on each side
// stay in L1 while the tile is moved.
constexpr int64_t kTile = 32;

// A tile's 4 x 4 blocks as register transposes (SSE2, every x86-64), and
// its ragged edges element by element.
void TransposeTile(const uint32_t* in, int64_t in_stride, int64_t rows, int64_t cols, uint32_t* out,
                   int64_t out_stride) {
  int64_t r = 0;
#if defined(__SSE2__)
  for (; r + 4 <= rows; r += 4) {
    int64_t c = 0;
    for (; c + 4 <= cols; c += 4) {
      const uint32_t* i = in + r * in_stride + c;
      __m128 v0 = _mm_loadu_ps(reinterpret_cast<const float*>(i));
      __m128 v1 = _mm_loadu_ps(reinterpret_cast<const float*>(i + in_stride));
      __m128 v2 = _mm_loadu_ps(reinterpret_cast<const float*>(i + 2 * in_stride));
      __m128 v3 = _mm_loadu_ps(reinterpret_cast<const float*>(i + 3 * in_stride));
      _MM_TRANSPOSE4_PS(v0, v1, v2, v3);
      uint32_t* o = out + c * out_stride + r;
      _mm_storeu_ps(reinterpret_cast<float*>(o), v0);
      _mm_storeu_ps(reinterpret_cast<float*>(o + out_stride), v1);
      _mm_storeu_ps(reinterpret_cast<float*>(o + 2 * out_stride), v2);
      _mm_storeu_ps(reinterpret_cast<float*>(o + 3 * out_stride), v3);
    }
    for (; c < cols; ++c) {
      for (int64_t k = r; k < r + 4; ++k) out[c * out_stride + k] = in[k * in_stride + c];
    }
  }
#endif
  for (; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) out[c * out_stride + r] = in[r * in_stride + c];
  }
}

// The input [a, middle..., c] read as a[i, m, j] = in[i * a_stride + m_in +
// j]; the output [c, reversed middle..., a] as out[j * c_stride + m_out + i].
// m runs over the middle axes; m_in and m_out are that index's offsets in
// each layout (the middle axes reversed in the output).
template <typename T>
void TransposeTyped(absl::Span<const int64_t> shape, const T* in, T* out, int64_t begin,
                    int64_t end) {
  const size_t rank = shape.size();
  const int64_t a = shape[0];
  const int64_t c = shape[rank - 1];
  const absl::Span<const int64_t> middle = shape.subspan(1, rank - 2);
  int64_t mid_count = 1;
  for (int64_t d : middle) mid_count *= d;
  const int64_t a_stride = mid_count * c;  // input: one step along axis 0
  const int64_t c_stride = mid_count * a;  // output: one step along its axis 0
  // The middle index as digits, last axis fastest; its offsets in elements.
  absl::InlinedVector<int64_t, 8> digit(middle.size(), 0);
  int64_t m_in = 0, m_out = 0;
  // In the input, middle axis d (of the middle) steps by the product of the
  // axes after it, times c; in the output (reversed) by the product of the
  // middle axes before it, times a.
  absl::InlinedVector<int64_t, 8> step_in(middle.size()), step_out(middle.size());
  {
    int64_t s = c;
    for (size_t d = middle.size(); d-- > 0;) {
      step_in[d] = s;
      s *= middle[d];
    }
    s = a;
    for (size_t d = 0; d < middle.size(); ++d) {
      step_out[d] = s;
      s *= middle[d];
    }
  }
  for (int64_t m = 0; m < mid_count; ++m) {
    if constexpr (sizeof(T) == 4) {
      TransposeBlock(in + m_in + begin, a_stride, a, end - begin, out + begin * c_stride + m_out,
                     c_stride);
    } else {
      for (int64_t j0 = begin; j0 < end; j0 += kTile) {
        const int64_t j1 = std::min(end, j0 + kTile);
        for (int64_t i0 = 0; i0 < a; i0 += kTile) {
          const int64_t i1 = std::min(a, i0 + kTile);
          for (int64_t j = j0; j < j1; ++j) {
            T* o = out + j * c_stride + m_out;
            const T* x = in + m_in + j;
            for (int64_t i = i0; i < i1; ++i) o[i] = x[i * a_stride];
          }
        }
      }
    }
    // The next middle index (odometer, last axis fastest).
    for (size_t d = middle.size(); d-- > 0;) {
      m_in += step_in[d];
      m_out += step_out[d];
      if (++digit[d] < middle[d]) break;
      m_in -= step_in[d] * middle[d];
      m_out -= step_out[d] * middle[d];
      digit[d] = 0;
    }
  }
}

}  // namespace

void TransposeBlock(const uint32_t* in, int64_t in_stride, int64_t rows, int64_t cols,
                    uint32_t* out, int64_t out_stride) {
  for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      TransposeTile(in + r0 * in_stride + c0, in_stride, std::min(kTile, rows - r0),
                    std::min(kTile, cols - c0), out + c0 * out_stride + r0, out_stride);
    }
  }
}

void TransposeReversed(DType dtype, absl::Span<const int64_t> shape, const void* in, void* out,
                       int64_t begin, int64_t end) {
  if (shape.size() < 2 || begin >= end) return;
  for (int64_t d : shape) {
    if (d == 0) return;
  }
  if (dtype != DType::kBool) {
    TransposeTyped(shape, static_cast<const uint32_t*>(in), static_cast<uint32_t*>(out), begin,
                   end);
  } else {
    TransposeTyped(shape, static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), begin, end);
  }
}

}  // namespace alea::vm::kernels
