// The standard library's native functions, keyed by the names of
// vm/natives.def: hand Natives() to Vm::AddNatives before loading a module.
#ifndef ALEA_STDLIB_NATIVES_H_
#define ALEA_STDLIB_NATIVES_H_

#include "absl/types/span.h"
#include "vm/native.h"

namespace alea::stdlib {

absl::Span<const vm::NativeEntry> Natives();

// One declaration per entry of vm/natives.def, defined in arrays.cc and
// numbers.cc; a missing definition is a link error.
#define ALEA_NATIVE(name, arity, signature, semantics) \
  absl::StatusOr<vm::Value> Native_##name(vm::NativeContext& ctx, const vm::Value* args);
#include "vm/natives.def"
#undef ALEA_NATIVE

}  // namespace alea::stdlib

#endif  // ALEA_STDLIB_NATIVES_H_
