// Decimal text of float32 values as NumPy 1.24's Dragon4 gives it
// (format_float_positional / format_float_scientific): shortest digits that
// round-trip to the same float32, optionally cut off at a precision, with
// NumPy's trimming and padding rules. Exact: uses the float's full binary
// value, never a double round trip.
#ifndef ALEA_VM_FLOAT_FORMAT_H_
#define ALEA_VM_FLOAT_FORMAT_H_

#include <string>

namespace alea::vm {

// NumPy's `trim` argument: 'k', '.', '0', '-'.
enum class FloatTrim {
  kKeep,          // 'k': keep trailing zeros (pad with zeros up to min_digits)
  kZeros,         // '.': trim trailing zeros, keep the decimal point
  kLeaveOneZero,  // '0': trim trailing zeros, but keep one after the point
  kDptZeros,      // '-': trim trailing zeros and a bare decimal point
};

// format_float_positional(x, precision, unique=True, fractional=True, trim,
// sign=False, pad_left, pad_right, min_digits). A negative precision,
// min_digits, pad_left or pad_right means None. `x` must be finite.
std::string FormatF32Positional(float x, int precision, int min_digits, FloatTrim trim,
                                int pad_left, int pad_right);

// format_float_scientific(x, precision, unique=True, trim, sign=False,
// pad_left, exp_digits, min_digits). Negative means None; `x` must be finite.
std::string FormatF32Scientific(float x, int precision, int min_digits, FloatTrim trim,
                                int pad_left, int exp_digits);

}  // namespace alea::vm

#endif  // ALEA_VM_FLOAT_FORMAT_H_
