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

#include "vm/kernels/elementwise.h"
#include "vm/random/keys.h"

namespace alea::vm::random {

// Threefry with a key and a counter per element: element j hashes the
// counter (c0[j], c1[j]) under the key (k0[j], k1[j]).
struct KeyedInput {
  const uint32_t* k0;
  const uint32_t* k1;
  const uint32_t* c0;
  const uint32_t* c1;
};
// What becomes of the two output words (vm/jit/jit.h's KeyedKernel, in the
// same order).
enum class KeyedDraw : uint8_t {
  kWords,   // y0[j], y1[j]: both words (with counter (0, i): SplitKey(key, i))
  kBits,    // y0[j]: word0 ^ word1 (with counter (0, 0): element 0 of bits(key))
  kNormal,  // y0[j] as f32: Normal's transform of those bits
};

class DrawKernels {
 public:
  virtual ~DrawKernels() = default;
  // out[j] = element start + j of bits(k), of uniform(k) on [0, 1).
  virtual void Bits(Key k, uint64_t start, uint64_t n, uint32_t* out) const;
  virtual void Uniform(Key k, uint64_t start, uint64_t n, float* out) const;
  // out[j] = element start + j of gumbel(k) (continuous.h's Gumbel).
  virtual void Gumbel(Key k, uint64_t start, uint64_t n, float* out) const;
  // categorical's draw for one row (samplers.h's Categorical): the index of
  // the first largest gumbel(k)[start + j] + logits[j] over j < n, n > 0 (a
  // NaN value counts as the largest, as jnp.argmax). The noise comes from
  // Gumbel a chunk at a time.
  virtual uint64_t CategoricalRow(Key k, uint64_t start, const float* logits, uint64_t n) const;
  // n keyed hashes (KeyedInput, KeyedDraw); y0 (as f32 for kNormal) and y1
  // (kWords only) may be any of the input arrays.
  virtual void Keyed(KeyedDraw what, const KeyedInput& in, uint32_t* y0, uint32_t* y1,
                     size_t n) const;
  // out[j] = op(in[j]) (vm/kernels/math_f32.h's f32 functions); in and out
  // may be the same array.
  virtual void Unary(kernels::UnaryOp op, const float* in, float* out, size_t n) const;
  void Log(const float* in, float* out, size_t n) const {
    Unary(kernels::UnaryOp::kLog, in, out, n);
  }
  void Exp(const float* in, float* out, size_t n) const {
    Unary(kernels::UnaryOp::kExp, in, out, n);
  }
  // Whether a run costs about a nanosecond an element (SIMD kernels), so
  // that drawing a whole block beats hashing the few of its elements that
  // still need a number.
  virtual bool fast() const { return false; }
};

// The reference kernels.
const DrawKernels& ReferenceKernels();

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_DRAW_KERNELS_H_
