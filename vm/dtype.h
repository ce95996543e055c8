// The element types of tensors (docs/language.md "Tensors"); shared by the tensor
// code, printing and .npy I/O so that they agree on one numbering.
#ifndef ALEA_VM_DTYPE_H_
#define ALEA_VM_DTYPE_H_

#include <cstdint>

namespace alea::vm {

enum class DType : uint8_t { kF32, kI32, kU32, kBool };

}  // namespace alea::vm

#endif  // ALEA_VM_DTYPE_H_
