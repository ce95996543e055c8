// The parameter rules of the samplers whose invalid parameters are errors
// (JAX answers them with NaN or -1 elements, or a loop that never ends):
// each gives OkStatus, or the run-time error naming the parameter and its
// value. The Float forms (random_discrete.cc) check their arguments, the
// tensor-parameter forms (random_params.cc) every element.
#ifndef ALEA_STDLIB_RANDOM_CHECKS_H_
#define ALEA_STDLIB_RANDOM_CHECKS_H_

#include "absl/status/status.h"
#include "vm/native.h"

namespace alea::stdlib {

absl::Status CheckPoissonRate(vm::NativeContext& ctx, double lam);
absl::Status CheckBinomial(vm::NativeContext& ctx, double n, double p);
absl::Status CheckGeometric(vm::NativeContext& ctx, double p);

}  // namespace alea::stdlib

#endif  // ALEA_STDLIB_RANDOM_CHECKS_H_
