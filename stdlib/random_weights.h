// The probability weights `p` that choice and multinomial take: finite, 0
// or more, and not all 0. JAX gives NaN or arbitrary draws for others.
#ifndef ALEA_STDLIB_RANDOM_WEIGHTS_H_
#define ALEA_STDLIB_RANDOM_WEIGHTS_H_

#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
#include "vm/native.h"
#include "vm/tensor_format.h"

namespace alea::stdlib {

inline absl::Status CheckWeights(vm::NativeContext& ctx, const char* name, const float* p,
                                 int64_t n) {
  bool positive = false;
  for (int64_t i = 0; i < n; ++i) {
    if (!(p[i] >= 0.0f && std::isfinite(p[i]))) {
      return ctx.Fail(vm::RuntimeErrorId::kRandomWeight, name, i, vm::FormatScalarF32(p[i]));
    }
    positive |= p[i] > 0.0f;
  }
  if (n > 0 && !positive) return ctx.Fail(vm::RuntimeErrorId::kRandomWeightsZero, name);
  return absl::OkStatus();
}

}  // namespace alea::stdlib

#endif  // ALEA_STDLIB_RANDOM_WEIGHTS_H_
