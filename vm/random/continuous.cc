#include "vm/random/continuous.h"

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "vm/kernels/math_f32.h"
#include "vm/random/samplers.h"
#include "vm/random/scalar.h"

namespace alea::vm::random {

void Gumbel(Key k, uint64_t start, uint64_t count, float* out) {
  Uniform(k, start, count, FLT_MIN, 1.0f, out);
  for (uint64_t j = 0; j < count; ++j) out[j] = -kernels::LogF32(-kernels::LogF32(out[j]));
}

double GumbelScalar(Key k) { return -std::log(-std::log(UniformScalar(k, DBL_MIN, 1.0))); }

}  // namespace alea::vm::random
