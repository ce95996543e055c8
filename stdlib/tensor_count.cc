// Natives of `bincount` and `histogram`: argument decoding around
// vm/tensor_ops.h, which owns their checks and messages. Arguments are
// borrowed.
#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsFloat;
using vm::AsInt;
using vm::AsObject;
using vm::TensorContext;
using vm::Value;

absl::StatusOr<Value> Native_t_bincount(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::BinCount(cx, AsObject(args[0]), AsInt(args[1]), nullptr));
}

absl::StatusOr<Value> Native_t_bincount_weights(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::BinCount(cx, AsObject(args[0]), AsInt(args[1]), AsObject(args[2])));
}

absl::StatusOr<Value> Native_t_histogram(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(
      ctx, cx,
      vm::Histogram(cx, AsObject(args[0]), AsInt(args[1]), AsFloat(args[2]), AsFloat(args[3])));
}

}  // namespace alea::stdlib
