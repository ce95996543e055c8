// Natives of `linspace`, `eye`, `stack` and `roll`: argument decoding around
// vm/tensor_ops.h, which owns their shape rules and messages. Arguments are
// borrowed.
#include <optional>

#include "absl/container/inlined_vector.h"
#include "stdlib/natives.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::Object;
using vm::TensorContext;
using vm::Value;

namespace {

absl::StatusOr<Value> Result(vm::NativeContext& ctx, TensorContext& cx, Object* out) {
  if (out == nullptr) return ctx.Fail(cx);
  return vm::FromObject(out);
}

}  // namespace

absl::StatusOr<Value> Native_t_linspace(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return Result(ctx, cx,
                vm::Linspace(cx, vm::AsFloat(args[0]), vm::AsFloat(args[1]), AsInt(args[2])));
}

absl::StatusOr<Value> Native_t_eye(vm::NativeContext& ctx, const Value* args) {
  // Only malformed bytecode holds another number, and Eye must never see one.
  if (args[1] > static_cast<Value>(vm::DType::kBool)) {
    return ctx.Fail(vm::RuntimeErrorId::kBadCall, "`eye` got an unknown dtype");
  }
  TensorContext cx = ctx.tensors();
  return Result(ctx, cx, vm::Eye(cx, static_cast<vm::DType>(args[1]), AsInt(args[0])));
}

absl::StatusOr<Value> Native_t_stack(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  absl::InlinedVector<const Object*, 8> tensors(xs->length);
  for (uint64_t i = 0; i < xs->length; ++i) tensors[i] = AsObject(vm::Slots(xs)[i]);
  TensorContext cx = ctx.tensors();
  return Result(ctx, cx, vm::Stack(cx, tensors, AsInt(args[1])));
}

absl::StatusOr<Value> Native_t_roll(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return Result(ctx, cx, vm::Roll(cx, AsObject(args[0]), AsInt(args[1]), std::nullopt));
}

absl::StatusOr<Value> Native_t_roll_axis(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return Result(ctx, cx, vm::Roll(cx, AsObject(args[0]), AsInt(args[1]), AsInt(args[2])));
}

}  // namespace alea::stdlib
