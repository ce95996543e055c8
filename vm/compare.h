// Structural equality and ordering of values by type descriptor (EQ_V, LT_V,
// LE_V, and `sort`).
#ifndef ALEA_VM_COMPARE_H_
#define ALEA_VM_COMPARE_H_

#include <cstdint>

#include "vm/bytecode.h"
#include "vm/value.h"

namespace alea::vm {

enum class Order : uint8_t { kLess, kEqual, kGreater, kUnordered };

// Lexicographic: the first leaf (Int, Float, Bool, Str...) that differs in a
// depth-first walk decides; an array that is a prefix of the other is less.
// With `total`, NaN equals NaN and is greater than every other Float (the
// order `sort` uses); otherwise Floats compare as IEEE 754, so a NaN leaf makes
// the result kUnordered (then `<`, `<=` and `==` are all false, as in Python
// and Rust). Iterative: any nesting depth is safe.
Order Compare(Value a, Value b, uint32_t type, const Module& module, bool total);

inline bool ValuesEqual(Value a, Value b, uint32_t type, const Module& module) {
  return Compare(a, b, type, module, false) == Order::kEqual;
}

}  // namespace alea::vm

#endif  // ALEA_VM_COMPARE_H_
