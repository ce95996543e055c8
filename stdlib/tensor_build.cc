// Natives of `linspace`, `eye`, `stack` and `roll`: argument decoding around
// vm/tensor_ops.h, which owns their shape rules and messages. Arguments are
// borrowed.
#include <optional>

#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::TensorContext;
using vm::Value;

absl::StatusOr<Value> Native_t_linspace(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::Linspace(cx, vm::AsFloat(args[0]), vm::AsFloat(args[1]), AsInt(args[2])));
}

absl::StatusOr<Value> Native_t_eye(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::DType> dtype = DTypeArg(ctx, args[1]);
  if (!dtype.ok()) return dtype.status();
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Eye(cx, *dtype, AsInt(args[0])));
}

absl::StatusOr<Value> Native_t_stack(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Stack(cx, TensorsOf(args[0]), AsInt(args[1])));
}

absl::StatusOr<Value> Native_t_roll(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Roll(cx, AsObject(args[0]), AsInt(args[1]), std::nullopt));
}

absl::StatusOr<Value> Native_t_roll_axis(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Roll(cx, AsObject(args[0]), AsInt(args[1]), AsInt(args[2])));
}

}  // namespace alea::stdlib
