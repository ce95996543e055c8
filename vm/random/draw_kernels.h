// What the discrete samplers, categorical and choice run in batches: runs of
// raw bits, f32 uniforms and Gumbel noise, and f32 logs. The reference's are
// samplers.h's, continuous.h's and vm/kernels/math_f32.h's; vm/random_draw.h's
// JitDrawKernels are the JIT's random and math kernels, which give the same
// bits. Element i of a run is
// element i of the draw, so a sampler's results never depend on which.
#ifndef ALEA_VM_RANDOM_DRAW_KERNELS_H_
#define ALEA_VM_RANDOM_DRAW_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "vm/random/keys.h"

namespace alea::vm::random {

class DrawKernels {
 public:
  virtual ~DrawKernels() = default;
  // out[j] = element start + j of bits(k), of uniform(k) on [0, 1).
  virtual void Bits(Key k, uint64_t start, uint64_t n, uint32_t* out) const;
  virtual void Uniform(Key k, uint64_t start, uint64_t n, float* out) const;
  // out[j] = element start + j of gumbel(k) (continuous.h's Gumbel).
  virtual void Gumbel(Key k, uint64_t start, uint64_t n, float* out) const;
  // out[j] = LogF32(in[j]); in and out may be the same array.
  virtual void Log(const float* in, float* out, size_t n) const;
  // Whether a run costs about a nanosecond an element (SIMD kernels), so
  // that drawing a whole block beats hashing the few of its elements that
  // still need a number.
  virtual bool fast() const { return false; }
};

// The reference kernels.
const DrawKernels& ReferenceKernels();

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_DRAW_KERNELS_H_
