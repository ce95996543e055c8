// Continuous distributions (rand_* natives) around vm/random/continuous.h.
#include "absl/status/statusor.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "vm/random/continuous.h"

namespace alea::stdlib {

using vm::Value;

absl::StatusOr<Value> Native_rand_gumbel(vm::NativeContext& ctx, const Value* args) {
  return DrawTensor<float>(ctx, args[0], args[1], vm::DType::kF32, vm::kReferenceDrawNs,
                           vm::random::Gumbel);
}

absl::StatusOr<Value> Native_rand_gumbel_scalar(vm::NativeContext& ctx, const Value* args) {
  return DrawScalar(ctx, args[0],
                    [](vm::random::Key k) { return vm::FromFloat(vm::random::GumbelScalar(k)); });
}

}  // namespace alea::stdlib
