// Natives of `take`, `cumsum`, `argsort`, `sort` and `searchsorted` on
// tensors: argument decoding around vm/tensor_ops.h, which owns their shape
// rules and messages. Arguments are borrowed.
#include <optional>

#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::TensorContext;
using vm::Value;

absl::StatusOr<Value> Native_t_take(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Take(cx, AsObject(args[0]), AsObject(args[1]), AsInt(args[2])));
}

absl::StatusOr<Value> Native_t_cumsum(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::CumSum(cx, AsObject(args[0]), std::nullopt));
}

absl::StatusOr<Value> Native_t_cumsum_axis(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::CumSum(cx, AsObject(args[0]), AsInt(args[1])));
}

absl::StatusOr<Value> Native_t_argsort(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::ArgSort(cx, AsObject(args[0]), AsInt(args[1])));
}

absl::StatusOr<Value> Native_t_sort(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Sort(cx, AsObject(args[0]), AsInt(args[1])));
}

absl::StatusOr<Value> Native_t_searchsorted(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::SearchSorted(cx, AsObject(args[0]), AsObject(args[1])));
}

}  // namespace alea::stdlib
