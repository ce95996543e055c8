// Matrix product reference kernel (`x @ y`).
//
// out[i, j] = the sum over k of a[i, k] * b[k, j], accumulated over ascending
// k. f32: acc = +0.0f, then acc = fma(a[i, k], b[k, j], acc) for k = 0, 1...
// (one rounding per step; the JIT uses the same FMA chain, and threads split
// rows and columns, never k). i32 and u32 wrap modulo 2^32.
#ifndef ALEA_VM_KERNELS_MATMUL_H_
#define ALEA_VM_KERNELS_MATMUL_H_

#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {

// a: [m, k], b: [k, n], out: [m, n], all contiguous row-major; out aliases
// neither. dtype: f32, i32 or u32.
void MatMul(DType dtype, int64_t m, int64_t k, int64_t n, const void* a, const void* b, void* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_MATMUL_H_
