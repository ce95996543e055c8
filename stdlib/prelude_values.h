// Values of the prelude's types built by natives: `Some(v)` and `None`
// (lang/prelude.def: None has tag 0, Some tag 1 and one field).
#ifndef ALEA_STDLIB_PRELUDE_VALUES_H_
#define ALEA_STDLIB_PRELUDE_VALUES_H_

#include "absl/status/statusor.h"
#include "vm/native.h"

namespace alea::stdlib {

// `Some(v)`, moving `v` in (a reference when `is_ref`).
inline absl::StatusOr<vm::Value> MakeSome(vm::NativeContext& ctx, vm::Value v, bool is_ref) {
  absl::StatusOr<vm::Object*> t = ctx.NewTuple(1);
  if (!t.ok()) {
    if (is_ref) ctx.heap().ReleaseValue(v);
    return t.status();
  }
  (*t)->tag = 1;
  vm::Slots(*t)[0] = v;
  vm::Mask(*t)[0] = is_ref ? 1 : 0;
  return vm::FromObject(*t);
}

// `None`: the heap's shared object of tag 0, never an allocation.
inline absl::StatusOr<vm::Value> MakeNone(vm::NativeContext& ctx) {
  vm::Object* o = ctx.heap().Nullary(0);
  if (o == nullptr) return ctx.OutOfMemory();
  return vm::FromObject(o);
}

}  // namespace alea::stdlib

#endif  // ALEA_STDLIB_PRELUDE_VALUES_H_
