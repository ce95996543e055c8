// Natives of `set` and `add_at` on tensors: argument decoding around
// vm/tensor_ops.h, which owns the index forms' rules and messages. Each is
// ALEA_NATIVE_OWNING (vm/natives.def): the tensor comes in owned, so one held
// only by the caller is updated in place and returned, and a loop
// `let x = set(x, i, v)` allocates nothing. The other arguments are borrowed.
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::Owned;
using vm::TensorContext;
using vm::Value;
using vm::kernels::ScatterOp;

namespace {

// args: x (owned), i: Int, v, axis: Int.
absl::StatusOr<Value> AtInt(vm::NativeContext& ctx, const Value* args, ScatterOp op) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::UpdateAt(cx, op, Owned{AsObject(args[0])}, AsInt(args[1]), AsInt(args[3]),
                                   AsObject(args[2])));
}

// args: x (owned), a tuple of Ints (its slots hold them as they are), v.
absl::StatusOr<Value> AtTuple(vm::NativeContext& ctx, const Value* args, ScatterOp op) {
  const vm::Object* tuple = AsObject(args[1]);
  absl::InlinedVector<int64_t, 4> index(tuple->length);
  for (uint64_t a = 0; a < tuple->length; ++a) index[a] = AsInt(vm::Slots(tuple)[a]);
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::UpdateTuple(cx, op, Owned{AsObject(args[0])}, index, AsObject(args[2])));
}

// args: x (owned), idx: Tensor(i32), v, axis: Int.
absl::StatusOr<Value> AtTake(vm::NativeContext& ctx, const Value* args, ScatterOp op) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::UpdateTake(cx, op, Owned{AsObject(args[0])}, AsObject(args[1]),
                                     AsInt(args[3]), AsObject(args[2])));
}

// args: x (owned), mask: Tensor(bool), v.
absl::StatusOr<Value> AtMask(vm::NativeContext& ctx, const Value* args, ScatterOp op) {
  TensorContext cx = ctx.tensors();
  return TensorResult(
      ctx, cx,
      vm::UpdateMask(cx, op, Owned{AsObject(args[0])}, AsObject(args[1]), AsObject(args[2])));
}

}  // namespace

absl::StatusOr<Value> Native_t_set_int(vm::NativeContext& ctx, const Value* args) {
  return AtInt(ctx, args, ScatterOp::kSet);
}
absl::StatusOr<Value> Native_t_set_tuple(vm::NativeContext& ctx, const Value* args) {
  return AtTuple(ctx, args, ScatterOp::kSet);
}
absl::StatusOr<Value> Native_t_set_take(vm::NativeContext& ctx, const Value* args) {
  return AtTake(ctx, args, ScatterOp::kSet);
}
absl::StatusOr<Value> Native_t_set_mask(vm::NativeContext& ctx, const Value* args) {
  return AtMask(ctx, args, ScatterOp::kSet);
}
absl::StatusOr<Value> Native_t_add_at_int(vm::NativeContext& ctx, const Value* args) {
  return AtInt(ctx, args, ScatterOp::kAdd);
}
absl::StatusOr<Value> Native_t_add_at_tuple(vm::NativeContext& ctx, const Value* args) {
  return AtTuple(ctx, args, ScatterOp::kAdd);
}
absl::StatusOr<Value> Native_t_add_at_take(vm::NativeContext& ctx, const Value* args) {
  return AtTake(ctx, args, ScatterOp::kAdd);
}
absl::StatusOr<Value> Native_t_add_at_mask(vm::NativeContext& ctx, const Value* args) {
  return AtMask(ctx, args, ScatterOp::kAdd);
}

}  // namespace alea::stdlib
