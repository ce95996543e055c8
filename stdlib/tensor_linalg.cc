// Natives of `cholesky`, `solve_triangular`, `solve`, `det` and `inv`:
// around vm/tensor_ops.h, which owns their shape rules and messages.
// Arguments are borrowed.
#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::AsObject;
using vm::TensorContext;
using vm::Value;

absl::StatusOr<Value> Native_t_cholesky(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Cholesky(cx, AsObject(args[0])));
}

absl::StatusOr<Value> Native_t_solve_triangular(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx,
                      vm::SolveTriangular(cx, AsObject(args[0]), AsObject(args[1]), args[2] != 0));
}

absl::StatusOr<Value> Native_t_solve(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Solve(cx, AsObject(args[0]), AsObject(args[1])));
}

absl::StatusOr<Value> Native_t_det(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Det(cx, AsObject(args[0])));
}

absl::StatusOr<Value> Native_t_inv(vm::NativeContext& ctx, const Value* args) {
  TensorContext cx = ctx.tensors();
  return TensorResult(ctx, cx, vm::Inv(cx, AsObject(args[0])));
}

}  // namespace alea::stdlib
