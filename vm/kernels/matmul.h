// Matrix product reference kernel (`x @ y`).
//
// out[i, j] = the sum over k of a[i, k] * b[k, j], accumulated over ascending
// k. f32: acc = +0.0f, then acc = fma(a[i, k], b[k, j], acc) for k = 0, 1...
// (one rounding per step; the JIT uses the same FMA chain, and threads split
// rows and columns, never k). u32 wraps modulo 2^32. i32 is checked: every
// partial sum acc + a[i, k] * b[k, j] must fit in an i32, as in `+` and `*`.
#ifndef ALEA_VM_KERNELS_MATMUL_H_
#define ALEA_VM_KERNELS_MATMUL_H_

#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {

// a: [m, k], b: [k, n], out: [m, n], all contiguous row-major; out aliases
// neither. dtype: f32, i32 or u32.
// false when an i32 partial sum left i32 (out is then partly wrong).
bool MatMul(DType dtype, int64_t m, int64_t k, int64_t n, const void* a, const void* b, void* out);

// After an i32 MatMul returned false: the first element, row-major, whose
// partial sum leaves i32 (index -1: none), with that step's operands.
struct I32MatMulOverflow {
  int64_t index = -1;
  int32_t partial = 0, x = 0, y = 0;
};
I32MatMulOverflow FirstI32MatMulOverflow(int64_t m, int64_t k, int64_t n, const int32_t* a,
                                         const int32_t* b);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_MATMUL_H_
