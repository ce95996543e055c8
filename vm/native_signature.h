// The signatures of vm/natives.def, parsed: what each native relies on its
// arguments being, which the verifier checks at every CALLN (vm/verifier.cc)
// and the compiler consults (which arguments may be lent uncounted).
//
//   signature := '(' [param {',' param}] ')' '->' type
//   param     := type | 'type' VAR | 'dtype' VAR
//   type      := 'Int' | 'Float' | 'Bool' | 'Unit' | 'Str' | 'RandState' | 'Plot'
//              | '[' type ']' | '(' type ',' type {',' type} ')' | '(Int...)'
//              | 'fn' '(' [type {',' type}] ')' '->' type
//              | 'Tensor' '(' NAME ')' | 'Option' '(' type ')'
//              | VAR | '_' | type '|' type
#ifndef ALEA_VM_NATIVE_SIGNATURE_H_
#define ALEA_VM_NATIVE_SIGNATURE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace alea::vm {

struct SigType {
  enum class Kind : uint8_t {
    kPlain,  // Int, Float, Bool, Unit (name says which, for messages)
    kStr,
    kRandState,
    kPlot,
    kTensor,    // of any dtype: natives check a dtype they need at run time
    kArray,     // children[0]
    kTuple,     // children
    kIntTuple,  // (Int...): a tuple of plain values of any length
    kFunction,  // children: the parameters, then the result
    kOption,    // the prelude's Option(children[0]): None (tag 0) | Some (tag 1)
    kVar,       // name: the same type wherever it appears
    kAny,       // `_`
    kUnion,     // children: one plain and one reference alternative
  };
  Kind kind = Kind::kAny;
  std::string name;
  std::vector<SigType> children;
};

struct SigParam {
  enum class Kind : uint8_t {
    kValue,  // an argument of `type`
    kType,   // `type VAR`: an Int constant, a type descriptor index naming VAR
    kDType,  // `dtype VAR`: a plain Int holding a vm::DType (range-checked by the native)
  };
  Kind kind = Kind::kValue;
  SigType type;     // kValue
  std::string var;  // kType, kDType
};

struct NativeSignature {
  std::vector<SigParam> params;
  SigType result;
  // ALEA_NATIVE_OWNING: the first argument is moved in (its register is
  // null after the call).
  bool owns_first = false;
};

// Parses one signature; an error names the column and what was expected.
absl::StatusOr<NativeSignature> ParseNativeSignature(absl::string_view text);

// The signature of the native `name` of vm/natives.def, parsed on first use;
// nullptr for a name it does not list.
const NativeSignature* SignatureOfNative(absl::string_view name);

// Whether the argument `i` of native `name` is a closure the native only
// calls (a `fn(...)` parameter): one the compiler may lend uncounted.
bool NativeParamIsFunction(absl::string_view name, size_t i);

}  // namespace alea::vm

#endif  // ALEA_VM_NATIVE_SIGNATURE_H_
