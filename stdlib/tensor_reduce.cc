// Natives of `var`/`std` (a reduction with a ddof), `cumprod` and `softmax`:
// argument decoding around vm/tensor_ops.h, which owns their shape rules and
// messages. Arguments are borrowed.
#include <optional>

#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::TensorContext;
using vm::Value;

absl::StatusOr<Value> Native_t_reduce_ddof(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::kernels::ReduceOp> op = ReduceOpArg(ctx, args[1]);
  if (!op.ok()) return op.status();
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::Reduce(cx, *op, AsObject(args[0]), std::nullopt, AsInt(args[2])));
}

absl::StatusOr<Value> Native_t_reduce_ddof_axis(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::kernels::ReduceOp> op = ReduceOpArg(ctx, args[1]);
  if (!op.ok()) return op.status();
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::Reduce(cx, *op, AsObject(args[0]), AsInt(args[2]), AsInt(args[3])));
}

absl::StatusOr<Value> Native_t_cumprod(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::CumProd(cx, AsObject(args[0]), std::nullopt));
}

absl::StatusOr<Value> Native_t_cumprod_axis(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::CumProd(cx, AsObject(args[0]), AsInt(args[1])));
}

absl::StatusOr<Value> Native_t_softmax(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Softmax(cx, AsObject(args[0]), AsInt(args[1])));
}

}  // namespace alea::stdlib
