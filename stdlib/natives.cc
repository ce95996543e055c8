#include "stdlib/natives.h"

namespace alea::stdlib {
namespace {

constexpr vm::NativeEntry kNatives[] = {
#define ALEA_NATIVE(name, arity, signature, semantics) {#name, arity, &Native_##name},
#define ALEA_NATIVE_OWNING(name, arity, signature, semantics) \
  {#name, arity, &Native_##name, nullptr, true},
#include "vm/natives.def"
#undef ALEA_NATIVE
#undef ALEA_NATIVE_OWNING
};

}  // namespace

absl::Span<const vm::NativeEntry> Natives() { return kNatives; }

}  // namespace alea::stdlib
