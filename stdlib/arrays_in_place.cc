// The array natives that take their array owned (vm/natives.def
// ALEA_NATIVE_OWNING): `append`, `push`, `set`. An array whose only
// reference they were given is changed in place and returned, growing with
// its capacity doubled (Heap::ResizeArray), so a loop that builds an array
// by `push` does O(n) work in all, as a Python list or a Lua table does.
// Anyone else holding the array sees no change: a shared one is copied.
#include <cstdint>
#include <cstring>

#include "stdlib/natives.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::FromObject;
using vm::Object;
using vm::Slots;
using vm::Value;

namespace {

// Heap::WritableArray, with its refusal as the native's error.
absl::StatusOr<Object*> Writable(vm::NativeContext& ctx, Value xs, uint64_t length, bool refs) {
  Object* out = ctx.heap().WritableArray(AsObject(xs), length, refs);
  if (out == nullptr) return ctx.OutOfMemory();
  return out;
}

}  // namespace

absl::StatusOr<Value> Native_append(vm::NativeContext& ctx, const Value* args) {
  const Object* ys = AsObject(args[1]);
  const bool refs = ctx.type(args[2]).is_reference();
  const uint64_t ys_length = ys->length;  // before xs changes: ys may be xs
  const uint64_t at = AsObject(args[0])->length;
  absl::StatusOr<Object*> out = Writable(ctx, args[0], at + ys_length, refs);
  if (!out.ok()) return out.status();
  // `append(xs, xs)` never reaches here in place: xs is then held twice.
  Value* slots = Slots(*out);
  if (ys_length != 0) std::memcpy(slots + at, Slots(ys), ys_length * sizeof(Value));
  if (refs) {
    for (uint64_t i = at; i < at + ys_length; ++i) vm::Retain(slots[i]);
  }
  // In place, xs's nodes are already out's (a tracked array is never
  // written in place: the tape holds it).
  if (AsObject(args[0]) != *out) ctx.CarrySlots(AsObject(args[0]), 0, *out, 0, at);
  ctx.CarrySlots(ys, 0, *out, at, ys_length);
  return FromObject(*out);
}

absl::StatusOr<Value> Native_push(vm::NativeContext& ctx, const Value* args) {
  const bool refs = ctx.type(args[2]).is_reference();
  const uint64_t at = AsObject(args[0])->length;
  absl::StatusOr<Object*> out = Writable(ctx, args[0], at + 1, refs);
  if (!out.ok()) return out.status();
  if (refs) vm::Retain(args[1]);
  Slots(*out)[at] = args[1];
  if (AsObject(args[0]) != *out) ctx.CarrySlots(AsObject(args[0]), 0, *out, 0, at);
  if (ctx.recording()) ctx.SetSlotNode(*out, at, ctx.ArgNode(1));
  return FromObject(*out);
}

absl::StatusOr<Value> Native_set(vm::NativeContext& ctx, const Value* args) {
  const bool refs = ctx.type(args[3]).is_reference();
  const uint64_t length = AsObject(args[0])->length;
  const int64_t i = AsInt(args[1]);
  if (i < 0 || static_cast<uint64_t>(i) >= length) {
    ctx.heap().ReleaseValue(args[0]);
    return ctx.Fail(vm::RuntimeErrorId::kIndexOutOfBounds, i, length);
  }
  absl::StatusOr<Object*> out = Writable(ctx, args[0], length, refs);
  if (!out.ok()) return out.status();
  Value& slot = Slots(*out)[i];
  if (refs) {
    vm::Retain(args[2]);  // before the old element goes: they may be one object
    ctx.heap().ReleaseValue(slot);
  }
  slot = args[2];
  if (AsObject(args[0]) != *out) ctx.CarrySlots(AsObject(args[0]), 0, *out, 0, length);
  if (ctx.recording()) ctx.SetSlotNode(*out, static_cast<uint64_t>(i), ctx.ArgNode(2));
  return FromObject(*out);
}

}  // namespace alea::stdlib
