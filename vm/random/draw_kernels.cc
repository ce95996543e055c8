#include "vm/random/draw_kernels.h"

#include "vm/kernels/math_f32.h"
#include "vm/random/continuous.h"
#include "vm/random/samplers.h"

namespace alea::vm::random {

void DrawKernels::Bits(Key k, uint64_t start, uint64_t n, uint32_t* out) const {
  random::Bits(k, start, n, out);
}

void DrawKernels::Uniform(Key k, uint64_t start, uint64_t n, float* out) const {
  random::Uniform(k, start, n, 0.0f, 1.0f, out);
}

void DrawKernels::Gumbel(Key k, uint64_t start, uint64_t n, float* out) const {
  random::Gumbel(k, start, n, out);
}

void DrawKernels::Log(const float* in, float* out, size_t n) const { kernels::LogF32(in, out, n); }

const DrawKernels& ReferenceKernels() {
  static const DrawKernels kernels;
  return kernels;
}

}  // namespace alea::vm::random
