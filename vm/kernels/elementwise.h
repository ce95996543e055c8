// Elementwise reference kernels on plain buffers: the definition of each
// elementwise tensor operation's result (semantics in elementwise_ops.def).
//
// Operands are strided views into the output's index space (NumPy
// broadcasting: a stride of 0 repeats an element along that axis); outputs
// are contiguous and row-major. An output may be the same buffer as an operand
// whose strides are the output's own contiguous strides (the VM reuses a
// uniquely owned operand in place): each element is read before it is
// written, and only at its own index.
#ifndef ALEA_VM_KERNELS_ELEMENTWISE_H_
#define ALEA_VM_KERNELS_ELEMENTWISE_H_

#include <cstdint>

#include "absl/types/span.h"
#include "vm/dtype.h"

namespace alea::vm::kernels {

enum class BinaryOp : uint8_t {
#define ALEA_BINARY(name, opcode, spelling, semantics) k##name,
#define ALEA_UNARY(name, opcode, spelling, semantics)
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
};
enum class UnaryOp : uint8_t {
#define ALEA_BINARY(name, opcode, spelling, semantics)
#define ALEA_UNARY(name, opcode, spelling, semantics) k##name,
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
};

// How many of each there are: an op number below these is a known op.
inline constexpr int kNumBinaryOps = 0
#define ALEA_BINARY(name, opcode, spelling, semantics) +1
#define ALEA_UNARY(name, opcode, spelling, semantics)
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
    ;
inline constexpr int kNumUnaryOps = 0
#define ALEA_BINARY(name, opcode, spelling, semantics)
#define ALEA_UNARY(name, opcode, spelling, semantics) +1
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
    ;

const char* Spelling(BinaryOp op);  // "+", "max", "==" ...
const char* Spelling(UnaryOp op);
// Comparisons produce bool tensors; every other binary op the operands' dtype.
bool IsComparison(BinaryOp op);
// The math functions of two operands (atan2...): defined on f32 only.
bool IsF32Only(BinaryOp op);

// Element size in bytes of `dtype` in a tensor: 4, or 1 for bool (0 or 1).
int ElementSize(DType dtype);

// An operand: its first element and one stride per output axis, in elements.
struct Strided {
  const void* data;
  absl::Span<const int64_t> strides;
};

enum class KernelStatus : uint8_t { kOk, kDivisionByZero, kOverflow };

// out = a op b over `shape`; a and b have dtype `dtype` (f32, i32 or u32; for
// kEq and kNe also bool); out has `dtype`, or bool for comparisons. Returns
// kDivisionByZero when an integer `/` or `%` meets a zero, kOverflow when an
// i32 `+ - * /` leaves i32 (*stopped_at: that element's index in out, in
// row-major order, for either). Either way the walk stops before writing the element
// concerned, in index order: out is partly written, and an operand that out
// overwrites in place still holds that element.
KernelStatus Binary(BinaryOp op, DType dtype, absl::Span<const int64_t> shape, Strided a, Strided b,
                    void* out, int64_t* stopped_at = nullptr);

// out[i] = op(in[i]) for i < count; contiguous. f32 for every op; i32 also
// for kNeg and kAbs; u32 for kNeg. `in` may equal `out`. kOverflow for the
// i32 negation or abs of INT32_MIN (*stopped_at: the first such index; it
// and the elements after it are not written).
KernelStatus Unary(UnaryOp op, DType dtype, int64_t count, const void* in, void* out,
                   int64_t* stopped_at = nullptr);

// out = mask ? a : b over `shape`; mask is bool, a/b/out have `dtype`.
void Where(DType dtype, absl::Span<const int64_t> shape, Strided mask, Strided a, Strided b,
           void* out);

// Contiguous copy of a strided operand (a broadcast, a transpose).
void Gather(DType dtype, absl::Span<const int64_t> shape, Strided in, void* out);

// docs/language.md "Tensors" `cast`: to an integer dtype f32 truncates toward zero
// (NaN or a result out of range is an error: kNaN / kOutOfRange with
// *bad_index the first such element); integer-to-integer wraps modulo 2^32;
// to f32 from i32/u32 rounds to nearest even; to bool is `x != 0` (NaN is
// true, as NumPy); from bool is 0 or 1. `in` may equal `out` when both
// element sizes agree. On an error it stops at the bad element before
// writing it, so an in-place caller can still read the bad value.
enum class CastStatus : uint8_t { kOk, kNaN, kOutOfRange };
CastStatus Cast(DType from, DType to, int64_t count, const void* in, void* out, int64_t* bad_index);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_ELEMENTWISE_H_
