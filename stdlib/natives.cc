#include "stdlib/natives.h"

namespace alea::stdlib {
namespace {

constexpr vm::NativeEntry kNatives[] = {
#define ALEA_NATIVE(name, arity, semantics) {#name, arity, &Native_##name},
#include "vm/natives.def"
#undef ALEA_NATIVE
};

}  // namespace

absl::Span<const vm::NativeEntry> Natives() { return kNatives; }

}  // namespace alea::stdlib
