// What the tensor natives (tensors.cc, tensor_search.cc, tensor_build.cc)
// share around vm/tensor_ops.h: a result or its recorded failure, a dtype or
// reduction-op immediate, an array of tensors.
#ifndef ALEA_STDLIB_TENSOR_ARGS_H_
#define ALEA_STDLIB_TENSOR_ARGS_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "vm/kernels/reduce.h"
#include "vm/native.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

// The result of a tensor_ops function: the tensor, or its recorded failure.
inline absl::StatusOr<vm::Value> TensorResult(vm::NativeContext& ctx, vm::TensorContext& cx,
                                              vm::Object* out) {
  if (out == nullptr) return ctx.Fail(cx);
  return vm::FromObject(out);
}

// A `dtype` argument. Only malformed bytecode holds another number, and the
// kernels must never see one.
inline absl::StatusOr<vm::DType> DTypeArg(vm::NativeContext& ctx, vm::Value v) {
  if (v > static_cast<vm::Value>(vm::DType::kBool)) {
    return ctx.Fail(vm::RuntimeErrorId::kBadCall, "a tensor native got an unknown dtype");
  }
  return static_cast<vm::DType>(v);
}

// A reduction op immediate (kernels/reduce.h's numbering), checked as DTypeArg.
inline absl::StatusOr<vm::kernels::ReduceOp> ReduceOpArg(vm::NativeContext& ctx, vm::Value v) {
  if (v > static_cast<vm::Value>(vm::kernels::ReduceOp::kStd)) {
    return ctx.Fail(vm::RuntimeErrorId::kBadCall, "a tensor reduction got an unknown operation");
  }
  return static_cast<vm::kernels::ReduceOp>(v);
}

// The elements of an array of tensors (borrowed). The slots are Values;
// converting each (rather than reinterpreting the slots as pointers) keeps
// this free of aliasing assumptions.
inline absl::InlinedVector<const vm::Object*, 8> TensorsOf(vm::Value array) {
  const vm::Object* xs = vm::AsObject(array);
  absl::InlinedVector<const vm::Object*, 8> tensors(xs->length);
  for (uint64_t i = 0; i < xs->length; ++i) tensors[i] = vm::AsObject(vm::Slots(xs)[i]);
  return tensors;
}

}  // namespace alea::stdlib

#endif  // ALEA_STDLIB_TENSOR_ARGS_H_
