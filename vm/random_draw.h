// Filling a sampler's result tensor: the partitionable samplers of
// vm/random/samplers.h, split across the VM's threads, each range on the
// JIT's fused random kernel where there is one (jit.h RandomKernel) and on
// the reference sampler otherwise. Both give the same bits, and element i
// depends only on (key, i), so neither the thread count nor the JIT changes
// a number (docs/language.md "Evaluation order and determinism").
#ifndef ALEA_VM_RANDOM_DRAW_H_
#define ALEA_VM_RANDOM_DRAW_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "vm/jit/jit.h"
#include "vm/random/draw_kernels.h"
#include "vm/random/keys.h"
#include "vm/tensor_ops.h"

namespace alea::vm {

// A draw's cost per element on one thread, the cheapest sampler's, for
// ThreadPool::MinRange (65536 elements, measured as vm/tensor_ops.cc's
// costs): the JIT's uniform 0.67 ns (normal 2.1), the reference's uniform
// 19 ns (normal 59; randint and categorical per element alike).
inline constexpr double kJitDrawNs = 0.6;
// The JIT's Gumbel noise (two logs) and categorical's scan of it.
inline constexpr double kJitGumbelNs = 1.5;
inline constexpr double kReferenceDrawNs = 19.0;

struct DrawArgs {
  random::Key key;             // the counter-0 key (random::EffectiveKey)
  float lo = 0.0f, hi = 1.0f;  // kUniform's bounds
  float p = 0.0f;              // kBernoulli's probability
  double rate = 0.0;           // kDropout's rate
  const float* x = nullptr;    // kDropout's input (may equal out)
};

// out[0..count) = elements [0, count) of the draw `kind` (its element type:
// u32 for kBits, bool bytes for kBernoulli, f32 otherwise).
void FillDraw(TensorContext& cx, jit::RandomKernel kind, const DrawArgs& args, void* out,
              uint64_t count);

// The JIT's random and math kernels as random::DrawKernels: runs of bits,
// uniforms and Gumbel noise, and f32 logs, bitwise equal to the reference's
// at about a nanosecond an element; the reference's without a JIT
// (`--no-jit`, or a CPU without AVX2 and FMA). Made on the calling thread,
// before a parallel loop (a Jit is not thread-safe): the loop's bodies only
// call the kernels obtained here. Their time counts in `--stats`.
class JitDrawKernels final : public random::DrawKernels {
 public:
  explicit JitDrawKernels(TensorContext& cx) : JitDrawKernels(cx.jit()) {}
  explicit JitDrawKernels(jit::Jit* jit);

  void Bits(random::Key k, uint64_t start, uint64_t n, uint32_t* out) const override;
  void Uniform(random::Key k, uint64_t start, uint64_t n, float* out) const override;
  void Gumbel(random::Key k, uint64_t start, uint64_t n, float* out) const override;
  uint64_t CategoricalRow(random::Key k, uint64_t start, const float* logits,
                          uint64_t n) const override;
  void Keyed(random::KeyedDraw what, const random::KeyedInput& in, uint32_t* y0, uint32_t* y1,
             size_t n) const override;
  void Unary(kernels::UnaryOp op, const float* in, float* out, size_t n) const override;
  bool fast() const override {
    return bits_ != nullptr && uniform_ != nullptr &&
           unary_[static_cast<size_t>(kernels::UnaryOp::kLog)] != nullptr;
  }

 private:
  jit::RandomFn bits_, uniform_, gumbel_, categorical_;
  jit::KeyedFn keyed_[3];  // by random::KeyedDraw
  // The unary kernels the samplers use (log, exp, lgamma), by op: looked up
  // here, since a Jit is not thread-safe; nullptr runs the reference's.
  jit::UnaryF32Fn unary_[kernels::kNumUnaryOps] = {};
  std::optional<jit::Jit::KernelTimer> timer_;
};

}  // namespace alea::vm

#endif  // ALEA_VM_RANDOM_DRAW_H_
