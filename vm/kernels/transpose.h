// `transpose` (all axes reversed) on a plain buffer: the reference kernel of
// vm/tensor_layout.cc's Transpose. It only moves element bits (4-byte
// dtypes as uint32_t, bool as bytes), so no value is ever converted.
//
// Why not the general strided Gather: the output's fastest axis is the
// input's slowest, so a row-by-row walk reads one element per cache line
// (a [128, 128, 128] f32 transpose: 3.3 ms). This one moves square tiles of
// the input's first and last axes, each read and written a cache line at a
// time, once per index of the axes between them.
#ifndef ALEA_VM_KERNELS_TRANSPOSE_H_
#define ALEA_VM_KERNELS_TRANSPOSE_H_

#include <cstdint>

#include "absl/types/span.h"
#include "vm/dtype.h"

namespace alea::vm::kernels {

// out = the input of `shape` (row-major, rank >= 2) with its axes reversed,
// for the output's rows along its first axis in [begin, end) only (0 <=
// begin <= end <= shape.back()): disjoint ranges may run on threads.
void TransposeReversed(DType dtype, absl::Span<const int64_t> shape, const void* in, void* out,
                       int64_t begin, int64_t end);

// The one tiled transposing copy of 4-byte elements (bits moved, never
// converted) that `transpose`, the fused pass's transposed leaves and the
// linear algebra's blocks share: out[c * out_stride + r] = in[r * in_stride
// + c] for r < rows, c < cols. Goes by square tiles in 4 x 4 register
// transposes, so both sides move whole vectors.
void TransposeBlock(const uint32_t* in, int64_t in_stride, int64_t rows, int64_t cols,
                    uint32_t* out, int64_t out_stride);
inline void TransposeBlock(const float* in, int64_t in_stride, int64_t rows, int64_t cols,
                           float* out, int64_t out_stride) {
  TransposeBlock(reinterpret_cast<const uint32_t*>(in), in_stride, rows, cols,
                 reinterpret_cast<uint32_t*>(out), out_stride);
}

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_TRANSPOSE_H_
