// The NaN that f32 `+` and `*` return when both operands are NaN, pinned
// (used by the elementwise kernels and the reductions' sums).
#ifndef ALEA_VM_KERNELS_PIN_NAN_H_
#define ALEA_VM_KERNELS_PIN_NAN_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace alea::vm::kernels {

// f32 `+` and `*` of two NaNs: x86 returns the first source's NaN (quieted),
// but the compiler may swap the operands of a commutative op, differently in
// its vector body and its scalar epilogue, so the payload would depend on
// the row length. Pinning it to a's (quieted) makes it the x86 rule with a
// first, which is also what `-` and `/` give and what the JIT's
// vaddps/vmulps(a, b) compute. Only the both-NaN case changes.
template <typename T>
inline T PinNaN(T a, T result) {
  if constexpr (std::is_same_v<T, float>) {
    return std::isnan(a) ? std::bit_cast<float>(std::bit_cast<uint32_t>(a) | 0x00400000u) : result;
  } else {
    return result;
  }
}

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_PIN_NAN_H_
