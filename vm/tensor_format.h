// The text of a tensor: exactly NumPy 1.24's str() with default print options
// (precision 8, threshold 1000, edgeitems 3, linewidth 75, floatmode
// 'maxprec', sign '-'); docs/language.md "Printing".
#ifndef ALEA_VM_TENSOR_FORMAT_H_
#define ALEA_VM_TENSOR_FORMAT_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "vm/dtype.h"

namespace alea::vm {

// `data` is a contiguous row-major buffer of prod(shape) elements of `dtype`
// (bool as one byte, 0 or 1). A 0-d tensor (empty shape) prints as its
// scalar; no trailing newline.
std::string FormatTensor(DType dtype, absl::Span<const int64_t> shape, const void* data);

// str(np.float32(x)): shortest round-trip digits, positional when x is zero or
// 1e-4 <= |x| < 1e16 (`0.1`, `1.0`), else scientific (`1e+16`, `1.5e-05`).
std::string FormatScalarF32(float x);

}  // namespace alea::vm

#endif  // ALEA_VM_TENSOR_FORMAT_H_
